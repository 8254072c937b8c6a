#!/usr/bin/env node
// The CLI ships as one bundle run through V8's code cache (scripts/bundle-cli.mjs): a cache made at
// build time ships in dist/, and when it does not fit this Node (another V8 version or flags) one
// is made in the temp folder on the first start and used from then on. This file is CommonJS
// (bin/package.json) and so is the loader it requires (dist/code-cache.cjs): as an ES module, the
// bin put every start through node's ES module loader, about 10 ms of CPU (issue 33).
'use strict'
const { loadSandboxBundle } = require('../dist/code-cache.cjs')

const cli = loadSandboxBundle(require('node:path').join(__dirname, '..', 'dist'))
cli.exports.main().then(() => cli.saveCache())
