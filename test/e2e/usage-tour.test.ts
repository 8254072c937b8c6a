import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.js'
import { silentLogger } from '../../src/logger.js'
import { createSandbox, type Sandbox } from '../../src/sandbox.js'
import { missingAnswers, runShell, shellBlocks, shownAnswers } from '../helpers/shell-examples.js'

/**
 * docs/usage.md says its curl tour works as printed against a fresh `npm start`. This runs every
 * shell block of the page, in order, with bash and curl against a sandbox on port 0, and checks the
 * answers the page shows in its comments.
 */

const ROOT = resolve(import.meta.dirname, '../..')
const script = shellBlocks(readFileSync(join(ROOT, 'docs/usage.md'), 'utf8')).join('\n')

describe('docs/usage.md, the curl tour', () => {
  let sandbox: Sandbox
  let output: string

  beforeAll(async () => {
    // What `npm start` runs (default seed, real clock, --settle auto), on port 0. The rate limit is
    // off, as the page says to do when pasting the whole tour at once.
    sandbox = await createSandbox(loadConfig({ flags: { port: 0, rateLimit: 0, quiet: true } as never }), { logger: silentLogger })
    const { url } = await sandbox.listen()
    output = await runShell(script, new URL(url).origin, ROOT)
  }, 90_000)

  afterAll(async () => {
    await sandbox?.close()
  })

  it('has the blocks and the answers it is checked by', () => {
    expect(script).toContain('curl')
    expect(shownAnswers(script).length).toBeGreaterThanOrEqual(12)
  })

  it('answers what the comments show, in order', () => {
    expect(missingAnswers(output, shownAnswers(script))).toEqual([])
  })

  it('meets exactly the errors it shows and never a 429', () => {
    const codes = [...output.matchAll(/"code":"([a-z_]+)"/g)].map(([, code]) => code)
    expect(codes).toEqual(['insufficient_funds', 'parameter_invalid', 'wallet_not_empty'])
  })

  it('replays the idempotent payment with the first answer and its request id', () => {
    const ids = [...output.matchAll(/^X-Request-Id: (\S+)/gim)].map(([, id]) => id)
    expect(ids).toHaveLength(2)
    expect(ids[1]).toBe(ids[0])
  })
})
