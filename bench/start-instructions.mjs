// Instructions a cold start executes until its first health answer, counted by valgrind's callgrind
// over every thread (issue 33): unlike wall or CPU time, a count that does not move with the load
// of a shared machine. Each side runs bench/fixtures/start-until-health.cjs once per round under
// `valgrind --tool=callgrind`, with the code cache as a real start finds it (no --single-threaded:
// other V8 flags make V8 reject the cache). Prints each side's mean and its ratio to its bare
// server's: the CommonJS one for `cli:` and `library:` sides, the ES module one
// (bench/fixtures/bare-until-health.mjs, counted when an `import:` side is given) for `import:`
// sides, as the cold-start bench compares bench/fixtures/library-start.mjs with node-http.mjs.
//
// Two things made the counts of one side differ by up to 20 M from run to run (issue 33, round 9),
// both left out here:
// - V8 (node 20.20) picks its string hash secret at random as it starts and looks for primes near
//   it (v8::internal::HashSeed::InitializeRoots), 4-22 M instructions by luck: the column "counted"
//   is without that function (read back with callgrind_annotate), "raw" with it.
// - The code cache's temp folder: another process of this user with other V8 flags (a profiler)
//   replaces the cache there, and a start that finds a rejected one compiles the bundle (about
//   +130 M). Each side runs with a TMPDIR of its own, filled by one start outside valgrind first.
//
//   node bench/start-instructions.mjs cli:. library:. cli:/work/main   # any sides; bare is always counted
//   node bench/start-instructions.mjs import:. import:/work/main       # the library imported by name (dist/library.mjs)
// Knobs: ROUNDS (2).
import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { FIXTURE, printTable } from './lib.mjs'

const ROUNDS = Number(process.env.ROUNDS ?? 2)
const work = mkdtempSync(join(tmpdir(), 'start-instructions-'))
process.on('exit', () => rmSync(work, { recursive: true, force: true }))
const given = process.argv.slice(2)
const withEsmBare = given.some((side) => side.startsWith('import:'))
const sides = ['bare', ...(withEsmBare ? ['bare-esm'] : []), ...given].map((side, index) => {
  const [kind, dir = ''] = side.split(/:(.*)/s)
  if (!['cli', 'library', 'import', 'bare', 'bare-esm'].includes(kind) || (!kind.startsWith('bare') && !dir)) throw new Error(`a side is cli:<folder>, library:<folder>, import:<folder> or bare, not ${side}`)
  const home = join(work, String(index))
  mkdirSync(join(home, 'tmp'), { recursive: true })
  const common = { name: side, env: { ...process.env, TMPDIR: join(home, 'tmp') }, bare: kind === 'import' ? 'bare-esm' : 'bare' }
  if (kind === 'bare-esm') return { ...common, args: [FIXTURE('bare-until-health.mjs')] }
  if (kind === 'import') {
    // The fixture in a folder of its own, the package as its node_modules/wallet-sandbox.
    mkdirSync(join(home, 'node_modules'))
    symlinkSync(resolve(dir), join(home, 'node_modules', 'wallet-sandbox'))
    copyFileSync(FIXTURE('import-until-health.mjs'), join(home, 'import-until-health.mjs'))
    return { ...common, args: [join(home, 'import-until-health.mjs')] }
  }
  return { ...common, args: [FIXTURE('start-until-health.cjs'), kind, resolve(dir || '.')] }
})

// One start each outside valgrind: its TMPDIR then holds what a later start finds there (the bundle's checksum remembered).
for (const side of sides) execFileSync(process.execPath, side.args, { env: side.env, stdio: 'ignore' })

/** The side's instructions, and those of V8's search for its hash secret among them (see the header). */
function count(side) {
  const dir = mkdtempSync(join(work, 'run-'))
  try {
    execFileSync('valgrind', ['--tool=callgrind', `--callgrind-out-file=${join(dir, 'out')}`, `--log-file=${join(dir, 'log')}`, process.execPath, ...side.args], { env: side.env, stdio: 'ignore' })
    const raw = Number(/Collected : (\d+)/.exec(readFileSync(join(dir, 'log'), 'utf8'))[1])
    const annotated = execFileSync('callgrind_annotate', ['--inclusive=yes', '--threshold=100', join(dir, 'out')], { encoding: 'utf8', maxBuffer: 256 << 20 })
    const seed = /^\s*([\d,]+) .*v8::internal::HashSeed::InitializeRoots/m.exec(annotated)
    return { raw, counted: raw - (seed ? Number(seed[1].replaceAll(',', '')) : 0) }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const counts = sides.map(() => [])
for (let round = 0; round < ROUNDS; round++) for (const [index, side] of sides.entries()) counts[index].push(count(side))
const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length
const means = new Map(sides.map((side, index) => [side.name, mean(counts[index].map((c) => c.counted))]))
const millions = (value) => (value / 1e6).toFixed(1)
printTable(
  `Instructions until the first health answer, every thread, less V8's hash secret search (callgrind, ${ROUNDS} rounds, node ${process.version})`,
  ['side', 'counted (millions)', 'lowest', 'highest', 'raw mean', '× its bare'],
  sides.map((side, index) => {
    const counted = counts[index].map((c) => c.counted)
    const ratio = side.name.startsWith('bare') ? '' : ` (${side.bare})`
    return [side.name, millions(mean(counted)), millions(Math.min(...counted)), millions(Math.max(...counted)), millions(mean(counts[index].map((c) => c.raw))), `${(mean(counted) / means.get(side.bare)).toFixed(3)}×${ratio}`]
  }),
)
