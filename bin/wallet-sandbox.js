#!/usr/bin/env node
// The CLI ships as one bundle run through V8's code cache (scripts/bundle-cli.mjs): a cache made at
// build time ships in dist/, and when it does not fit this Node (another V8 version or flags) one
// is made in the temp folder on the first start and used from then on. This file is CommonJS
// (bin/package.json) and so is the loader it requires (dist/code-cache.cjs): as an ES module, the
// bin put every start through node's ES module loader, about 10 ms of CPU (issue 33).
'use strict'
const { loadSandboxBundle } = require('../dist/code-cache.cjs')

const cli = loadSandboxBundle(require('node:path').join(__dirname, '..', 'dist'))
cli.exports.main().then(() => {
  cli.saveCache()
  setTimeout(tierUpSooner, 250).unref()
})

/**
 * Once the CLI serves (and has answered its first requests), V8 gets a quarter of its interrupt
 * budget, so that it optimises the code of a suite's requests sooner. V8 optimises a function once
 * it has run through that budget a few times (about 66 KB of its bytecode executed, more ticks for a
 * large function): a function a payment's lifecycle calls once waited for hundreds to thousands of
 * lifecycles, and a suite is over by then. A fresh CLI spent 2.4 ms of CPU on each of its first
 * 300 lifecycles, 1.8 ms on the next 600, about 1 ms only after 2,000, a quarter of it V8's compiler
 * threads (issue 33, docs/benchmarks.md "Issue 33, round 4: lifecycle").
 *
 * Only here, after the cache is written: V8 accepts a code cache only in a process with the flags it
 * was made with, and setting any flag changes them. Set at start, the flag would throw away the
 * shipped cache; set before saveCache(), the cache written would not fit the next start; set in
 * main(), it would reach the cache scripts/bundle-cli.mjs makes after serving. Not in the library:
 * it runs in its user's process, whose V8 is not ours to tune.
 */
function tierUpSooner() {
  require('node:v8').setFlagsFromString('--interrupt-budget=16896')
}
