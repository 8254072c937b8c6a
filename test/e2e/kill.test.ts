import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runKillRounds } from '../../bench/kill-rounds.mjs'

/** kill -9 under a stream of payments, restart on the same data file (CONTRACT.md section 18). The long run: npm run bench:reliability. */

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
let dir: string

beforeAll(() => {
  execFileSync(process.execPath, ['scripts/build-if-needed.mjs'], { cwd: ROOT, stdio: 'inherit' })
  dir = mkdtempSync(join(tmpdir(), 'wallet-sandbox-kill-'))
}, 180_000)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('kill -9 at random moments', () => {
  it('strict: every acknowledged payment survives 20 kills, with its status, and the balances add up', async () => {
    const result = await runKillRounds({ dataFile: join(dir, 'strict.json'), durability: 'strict', rounds: 20 })
    expect(result.problems).toEqual([])
    expect(result.acknowledged).toBeGreaterThan(100)
    expect(result.lost).toEqual([])
  }, 150_000)

  it('batched: the file always loads and adds up; only payments acknowledged in the last 100 ms are lost', async () => {
    const result = await runKillRounds({ dataFile: join(dir, 'batched.json'), durability: 'batched', rounds: 5 })
    expect(result.problems).toEqual([])
    expect(result.acknowledged).toBeGreaterThan(20)
    console.log(`batched: ${result.lost.length} of ${result.acknowledged} acknowledged payments lost over ${result.rounds} kills; oldest ${Math.max(0, ...result.lost.map((l) => l.ageMs)).toFixed(0)} ms before the kill`)
    expect(result.lost.filter((l) => l.ageMs > 100)).toEqual([])
  }, 90_000)
})
