// Two kinds of cold start timed in turns, A B A B …, each a whole process (bench/fixtures/start-once.mjs:
// start, what a test sends first, exit), and their ratio taken pair by pair, so that a machine whose
// speed drifts during the run slows both sides of each pair alike. How each speed-up of issue 33 was
// measured against the build before it, and the sandbox against a bare node:http server
// (docs/benchmarks.md, "Where a cold start's time goes").
//
//   node bench/start-pairs.mjs cli:. cli:/tmp/before          # this build's CLI against another build's
//   node bench/start-pairs.mjs library:. bare                 # the library's import + first start against the floor
//   PAIRS=30 FIRST=payment node bench/start-pairs.mjs cli:. bare   # 30 pairs, each start until its first payment
//
// A side is `cli:<package folder>`, `library:<package folder>` (a built package: dist/, fixtures/)
// or `bare`. Prints wall ms (spawn → exit) and CPU ms (the process's own, until its last answer) of
// each side, p50, p99 and max, and the ratios A/B of the pairs.
import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { FIXTURE, fixed, percentile, printTable } from './lib.mjs'

const PAIRS = Number(process.env.PAIRS ?? 20)
const FIRST = process.env.FIRST === 'payment' ? 'payment' : 'health'
const sides = process.argv.slice(2, 4).map((side) => {
  const [kind, dir = ''] = side.split(/:(.*)/s)
  if (!['cli', 'library', 'bare'].includes(kind) || (kind !== 'bare' && !dir)) throw new Error(`a side is cli:<folder>, library:<folder> or bare, not ${side}`)
  return { name: side, args: [FIXTURE('start-once.mjs'), kind, resolve(dir || '.'), FIRST] }
})
if (sides.length !== 2) throw new Error('usage: node bench/start-pairs.mjs <A> <B>')

function once(side) {
  return new Promise((done, fail) => {
    const started = performance.now()
    const child = spawn(process.execPath, side.args, { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (chunk) => (out += chunk))
    child.on('error', fail)
    child.on('exit', (code) => {
      const wall = performance.now() - started
      if (code !== 0) return fail(new Error(`${side.name} exited with ${code}`))
      done({ wall, cpu: JSON.parse(out.trim().split('\n').at(-1)).cpuMs })
    })
  })
}

for (const side of sides) await once(side) // one untimed start each: the disk cache, a code cache made on first use
const runs = sides.map(() => [])
for (let i = 0; i < PAIRS; i++) for (const [index, side] of sides.entries()) runs[index].push(await once(side))

const row = (name, values) => [name, ...[50, 99, 100].map((p) => fixed(percentile(values, p), 2))]
printTable(
  `Cold starts in turns, ${PAIRS} pairs, each until its first ${FIRST === 'payment' ? 'payment' : 'health answer'} and exit (node ${process.version})`,
  ['measure', 'p50', 'p99', 'max'],
  [
    ...sides.flatMap((side, index) => [row(`${side.name}: wall ms`, runs[index].map((r) => r.wall)), row(`${side.name}: CPU ms`, runs[index].map((r) => r.cpu))]),
    row('A/B wall', runs[0].map((r, i) => r.wall / runs[1][i].wall)),
    row('A/B CPU', runs[0].map((r, i) => r.cpu / runs[1][i].cpu)),
  ],
)
