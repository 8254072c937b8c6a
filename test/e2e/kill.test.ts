import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runKillRounds } from '../../bench/kill-rounds.mjs'
import { findLedgerViolations } from '../../src/ledger/ledger-check.js'
import { AccountDataSchema } from '../../src/schemas/data-file.js'
import { accountFromData } from '../../src/store/data.js'

/** kill -9 under a stream of payments, restart on the same data file (CONTRACT.md section 18). The long run: npm run bench:reliability. */

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
let dir: string

/** After each restart, every account's balances must recompute from its postings, which the data file kept. */
function checkAccount(data: unknown): string[] {
  const account = AccountDataSchema.parse(data)
  // Without postings the loader would migrate them from the balances, and the check would prove nothing.
  if (account.postings === undefined) return ['no postings in the snapshot']
  return findLedgerViolations(accountFromData(account))
}

beforeAll(() => {
  execFileSync(process.execPath, ['scripts/build-if-needed.mjs'], { cwd: ROOT, stdio: 'inherit' })
  dir = mkdtempSync(join(tmpdir(), 'wallet-sandbox-kill-'))
}, 180_000)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('kill -9 at random moments', () => {
  it('strict: every acknowledged payment survives 20 kills, with its status, and the balances add up and recompute from the postings', async () => {
    const result = await runKillRounds({ dataFile: join(dir, 'strict.json'), durability: 'strict', rounds: 20, checkAccount })
    expect(result.problems).toEqual([])
    // How many get acknowledged before each kill depends on the machine's fsync speed; a loaded
    // machine acknowledges fewer. Enough that the rounds prove something, not a throughput target.
    expect(result.acknowledged).toBeGreaterThan(20)
    expect(result.lost).toEqual([])
  }, 150_000)

  it('batched: the file always loads, adds up and recomputes from the postings; only payments acknowledged in the last 100 ms are lost', async () => {
    const result = await runKillRounds({ dataFile: join(dir, 'batched.json'), durability: 'batched', rounds: 5, checkAccount })
    expect(result.problems).toEqual([])
    expect(result.acknowledged).toBeGreaterThan(20)
    console.log(`batched: ${result.lost.length} of ${result.acknowledged} acknowledged payments lost over ${result.rounds} kills; oldest ${Math.max(0, ...result.lost.map((l) => l.ageMs)).toFixed(0)} ms before the kill`)
    expect(result.lost.filter((l) => l.ageMs > 100)).toEqual([])
  }, 90_000)
})
