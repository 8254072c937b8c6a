// Package walletsandbox runs wallet-sandbox, the local emulator of a digital-asset wallet and
// payments API, for Go tests: it starts the sandbox (or attaches to a running one), makes
// isolated accounts, drives the sandbox through its control API, waits for events, receives
// verified webhooks, and asserts on what the code under test sent (Account.ExpectRequest). It uses
// the standard library only.
//
// Start gives a test its own sandbox, stopped when the test ends; Run and Close give a whole
// package one, from TestMain. Both attach to the sandbox that WALLET_SANDBOX_BASE_URL names when
// it is set (as `wallet-sandbox exec -- go test ./...` sets it) and start none, unless
// WithOwnSandbox; options that only a started sandbox takes (WithArgs) are then reported through
// the Logger, not applied.
//
// An Account is the unit of isolation: its data, and also its time and state. Its AdvanceClock,
// Snapshot, Restore and Reset reach that account alone, so tests that share a sandbox, in
// parallel and in other packages under one exec, never see each other's. The Sandbox's
// AdvanceClock, Snapshot, Restore and Reset reach every account; on a sandbox this process did not
// start, the first of them says so, once per process.
//
// A sandbox started here runs the wallet-sandbox CLI (Node 20) with --ready-json --port 0, found
// in this order: WithBin; the WALLET_SANDBOX_BIN variable; from the working directory upward, a
// checkout of wallet-sandbox itself (its bin/wallet-sandbox.js, after building dist/ when src/ is
// newer, as npm start does) or node_modules/.bin/wallet-sandbox; wallet-sandbox on PATH; npx
// --no-install wallet-sandbox. A .js file runs with node. WithImage runs a container image instead.
//
// The sandbox runs in a process group of its own under a small sh supervisor whose stdin is a
// pipe from the test process: when that pipe closes, at Close or when the test process ends in
// any way (a Ctrl-C, a timeout, SIGKILL), the supervisor stops the container if there is one and
// sends SIGTERM to the group, then SIGKILL five seconds later. No sandbox outlives its tests.
// This needs a POSIX system (Linux, macOS) with /bin/sh.
package walletsandbox
