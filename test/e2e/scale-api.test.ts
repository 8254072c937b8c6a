import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect, it } from 'vitest'

// The scenario of `npm run bench:scale`'s API tables, short and untimed: payments created through the
// CLI's API on a data file by concurrent clients, the RSS read from /proc, then POSTs one after
// another to it and to a peer sandbox, in turns. What is checked is that the path holds, not the figures.
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
let dir: string
let runApiScale: typeof import('../../bench/scale-api.mjs').runApiScale

beforeAll(async () => {
  execFileSync(process.execPath, ['scripts/build-if-needed.mjs'], { cwd: ROOT, stdio: 'inherit' })
  // Imported once dist/ is built: the driver uses its address generator.
  ;({ runApiScale } = await import('../../bench/scale-api.mjs'))
  dir = mkdtempSync(join(tmpdir(), 'wallet-sandbox-scale-api-'))
}, 180_000)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

it('creates payments through the API on a data file, concurrently and one after another, and reads the process’s memory from outside', async () => {
  const result = await runApiScale({ dataFile: join(dir, 'ledger.json'), payments: 1500, sequential: 20, warmup: 100 })
  expect(result.payments).toBe(1520)
  expect(result.listed).toBe(1520)
  expect(result.peerPayments).toBe(1020)
  // When the RSS was read: before the last 20.
  expect(result.held).toBe(1500 + 110)
  expect(result.rss).toBeGreaterThan(0)
  for (const posts of [result.first, result.last]) expect(posts.p99).toBeGreaterThanOrEqual(posts.p50)
  // Stopped cleanly: the snapshot and its journal, no lock left behind.
  expect(readdirSync(dir).sort()).toEqual(['ledger.json', 'ledger.json.journal.1', 'ledger.json.peer', 'ledger.json.peer.journal.1'])
}, 120_000)
