// `npm run bench:reliability [-- --rounds N]`: the long kill -9 run (100 rounds per durability mode
// by default) of test/e2e/kill.test.ts. Strict must lose nothing; batched reports what it lost.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { runKillRounds } from './kill-rounds.mjs'
import { fixed, printTable } from './lib.mjs'

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '100' } } })
const rounds = Number(values.rounds)
const dir = mkdtempSync(join(tmpdir(), 'wallet-sandbox-reliability-'))
const rows = []
let failed = false
try {
  for (const durability of ['strict', 'batched']) {
    const started = performance.now()
    const result = await runKillRounds({ dataFile: join(dir, `${durability}.json`), durability, rounds, log: (line) => process.stderr.write(`${durability} ${line}\n`) })
    const oldest = Math.max(0, ...result.lost.map((l) => l.ageMs))
    rows.push([durability, rounds, result.acknowledged, result.lost.length, `${fixed(oldest, 0)} ms`, result.problems.length, `${fixed((performance.now() - started) / 1000, 0)} s`])
    for (const problem of result.problems) console.error(`${durability}: ${problem}`)
    if (result.problems.length > 0 || (durability === 'strict' && result.lost.length > 0) || oldest > 100) failed = true
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
printTable('kill -9 under a stream of payments, restart on the same data file', ['durability', 'kills', 'acknowledged', 'lost', 'oldest lost', 'problems', 'time'], rows)
if (failed) process.exit(1)
