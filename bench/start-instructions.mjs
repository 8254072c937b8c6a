// Instructions a cold start executes until its first health answer, counted by valgrind's callgrind
// over every thread (issue 33): unlike wall or CPU time, a count that does not move with the load
// of a shared machine, so a start's figure against the bare node:http server's is steady within
// about 1 %. Each side runs bench/fixtures/start-until-health.cjs once per round under
// `valgrind --tool=callgrind`, with the code cache as a real start finds it (no --single-threaded:
// other V8 flags make V8 reject the cache). Prints each side's mean and its ratio to bare's.
//
//   node bench/start-instructions.mjs cli:. library:. cli:/work/main   # any sides; bare is always counted
//   node bench/start-instructions.mjs import:. import:/work/main       # the library through its import entry (dist/library.mjs)
// Knobs: ROUNDS (2).
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { FIXTURE, printTable } from './lib.mjs'

const ROUNDS = Number(process.env.ROUNDS ?? 2)
const sides = ['bare', ...process.argv.slice(2)].map((side) => {
  const [kind, dir = ''] = side.split(/:(.*)/s)
  if (!['cli', 'library', 'import', 'bare'].includes(kind) || (kind !== 'bare' && !dir)) throw new Error(`a side is cli:<folder>, library:<folder>, import:<folder> or bare, not ${side}`)
  if (kind === 'import') return { name: side, args: [FIXTURE('import-until-health.mjs'), resolve(dir)] }
  return { name: side, args: [FIXTURE('start-until-health.cjs'), kind, resolve(dir || '.')] }
})

function count(side) {
  const dir = mkdtempSync(join(tmpdir(), 'start-instructions-'))
  try {
    execFileSync('valgrind', ['--tool=callgrind', `--callgrind-out-file=${join(dir, 'out')}`, `--log-file=${join(dir, 'log')}`, process.execPath, ...side.args], { stdio: 'ignore' })
    return Number(/Collected : (\d+)/.exec(readFileSync(join(dir, 'log'), 'utf8'))[1])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const counts = sides.map(() => [])
for (let round = 0; round < ROUNDS; round++) for (const [index, side] of sides.entries()) counts[index].push(count(side))
const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length
const bare = mean(counts[0])
printTable(
  `Instructions until the first health answer, every thread (callgrind, ${ROUNDS} rounds, node ${process.version})`,
  ['side', 'mean (millions)', 'lowest', 'highest', '× bare'],
  sides.map((side, index) => {
    const average = mean(counts[index])
    return [side.name, (average / 1e6).toFixed(1), (Math.min(...counts[index]) / 1e6).toFixed(1), (Math.max(...counts[index]) / 1e6).toFixed(1), `${(average / bare).toFixed(3)}×`]
  }),
)
