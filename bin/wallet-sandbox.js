#!/usr/bin/env node
// The CLI ships as one bundle run through V8's code cache (scripts/bundle-cli.mjs): a cache made at
// build time ships in dist/, and when it does not fit this Node (another V8 version or flags) one
// is made in the temp folder on the first start and used from then on. The loader is required as
// CommonJS (dist/code-cache.cjs): imported, each of the node modules it uses went through the ES
// module loader, a few ms of every start (issue 33).
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const { loadSandboxBundle } = require('../dist/code-cache.cjs')
const cli = loadSandboxBundle(require('node:path').join(require.resolve('../dist/code-cache.cjs'), '..'))
await cli.exports.main()
cli.saveCache()
