#!/usr/bin/env node
// The container's health check: exit 0 when the sandbox of this environment answers
// GET /_sandbox/health (WALLET_SANDBOX_HOST and WALLET_SANDBOX_PORT say where), 1 otherwise.
// CommonJS like every file in bin/ (bin/package.json); dist/health-check.js is an ES module.
'use strict'
import('../dist/health-check.js').then(async ({ checkHealth }) => {
  const { healthy, message } = await checkHealth(process.env)
  ;(healthy ? process.stdout : process.stderr).write(`${message}\n`)
  process.exit(healthy ? 0 : 1)
})
