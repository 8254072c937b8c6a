package walletsandbox

import (
	"sync"
	"testing"
)

// Logger is where the package writes what a run should hear of that is no error: options an
// attached sandbox does not take, and a sandbox-wide call on a sandbox that other tests share. A
// *log.Logger is one; TestLogger(t) writes to a test's log. WithLogger chooses it, log.Default()
// otherwise: stderr, which go test shows for a package that fails, whichever test failed.
type Logger interface {
	Printf(format string, args ...any)
}

// TestLogger is a Logger that writes to t's log (t.Logf), which go test shows for that test when
// it fails, or with -v.
func TestLogger(t testing.TB) Logger {
	return testLogger{t}
}

type testLogger struct{ t testing.TB }

func (l testLogger) Printf(format string, args ...any) {
	l.t.Helper()
	l.t.Logf(format, args...)
}

// once holds what the package says once per process, however many sandboxes the process starts
// or attaches to: a long suite hears each of these once, not once per test. It is the package's
// only state beyond its Sandbox values.
var once struct {
	sharedSandbox sync.Once // a sandbox-wide call on a sandbox this process did not start
	npxHint       sync.Once // npx found no CLI to run
}

// sharedWarning is said at the first sandbox-wide AdvanceClock, Snapshot, Restore or Reset on an
// attached sandbox.
const sharedWarning = "walletsandbox: a sandbox-wide %s on the sandbox at %s, which this process did not start " +
	"(wallet-sandbox exec, WALLET_SANDBOX_BASE_URL or WithURL), affects every test that shares it, in this " +
	"package and in any other running beside it. A test that shares the sandbox moves and restores an " +
	"account of its own instead: account.AdvanceClock, account.Snapshot, account.Restore, account.Reset. " +
	"(Said once per process.)"

// npxHint is the Hint of the first failed start of npx --no-install wallet-sandbox in a process.
const npxHint = "npx found no wallet-sandbox package to run (it is not installed where the tests run, and npx " +
	"installs nothing). Name the CLI with WithBin(path) or the WALLET_SANDBOX_BIN variable (a checkout's " +
	"bin/wallet-sandbox.js, or an installed node_modules/.bin/wallet-sandbox), or install the package " +
	"beside your module (see How the CLI is found in docs/go.md). (Said once per process.)"
