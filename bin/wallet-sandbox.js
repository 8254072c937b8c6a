#!/usr/bin/env node
// The CLI ships as one bundle run through V8's code cache (scripts/bundle-cli.mjs): a cache made at
// build time ships in dist/, and when it does not fit this Node (another V8 version or flags) one
// is made in the temp folder on the first start and used from then on.
import { fileURLToPath } from 'node:url'
import { loadSandboxBundle } from '../dist/code-cache.js'

const cli = loadSandboxBundle(fileURLToPath(new URL('../dist/', import.meta.url)))
await cli.exports.main()
cli.saveCache()
