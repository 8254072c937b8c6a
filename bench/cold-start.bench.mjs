// Cold start (issue 12's target): from process spawn to the first answered health request, for a
// bare node:http server, a minimal express 5 app and the sandbox, each started the same way
// (`node <script> --port <free port>`) and polled every few milliseconds until it answers 200.
// The three take turns, so that a machine that gets busier during the run affects all alike. On
// Linux the CPU time each process used up to that answer is shown too: on a busy machine it moves
// less than the wall-clock time.
//
// Knobs: BENCH_STARTS (15 per server), BENCH_STRICT=1 (exit 1 when the target is missed).
import { FIXTURE, SANDBOX_BIN, cpuMs, fixed, freePort, percentile, printTable, spawnNode, stop, waitUntilAnswering } from './lib.mjs'

const STARTS = Number(process.env.BENCH_STARTS ?? 15)
const POLL_MS = 2
const TARGET = 1.1

const targets = [
  { name: 'node:http (bare)', script: FIXTURE('node-http.mjs'), args: [], path: '/' },
  { name: 'express 5 (minimal)', script: FIXTURE('express-app.mjs'), args: [], path: '/', baseline: true },
  { name: 'wallet-sandbox --quiet', script: SANDBOX_BIN, args: ['--quiet'], path: '/_sandbox/health', target: TARGET },
]

async function coldStart(target) {
  const port = await freePort()
  const started = performance.now()
  const child = spawnNode(target.script, ['--port', String(port), ...target.args])
  try {
    await waitUntilAnswering(child, port, target.path, { intervalMs: POLL_MS })
    return { ms: performance.now() - started, cpu: cpuMs(child.pid) }
  } finally {
    await stop(child)
  }
}

// One untimed start each fills the file-system cache; then the servers take turns.
for (const target of targets) await coldStart(target)
const samples = new Map(targets.map((t) => [t, []]))
for (let round = 0; round < STARTS; round++) {
  for (const target of targets) samples.get(target).push(await coldStart(target))
}

const median = (target) => percentile(samples.get(target).map((s) => s.ms), 50)
const meanCpu = (target) => {
  const cpu = samples.get(target).map((s) => s.cpu)
  return cpu.includes(undefined) ? undefined : cpu.reduce((a, b) => a + b, 0) / cpu.length
}
const baseline = targets.find((t) => t.baseline)
let missed = 0
printTable(
  `Cold start: spawn → first answered health request (${STARTS} starts each, interleaved, polled every ${POLL_MS} ms; node ${process.version})`,
  ['server', 'median ms', 'p90 ms', 'min ms', 'vs express', 'CPU ms (mean)', 'CPU vs express', 'target', 'result'],
  targets.map((target) => {
    const times = samples.get(target).map((s) => s.ms)
    const ratio = median(target) / median(baseline)
    const cpu = meanCpu(target)
    const pass = target.target === undefined || ratio <= target.target
    if (!pass) missed++
    return [
      target.name,
      fixed(median(target), 0),
      fixed(percentile(times, 90), 0),
      fixed(Math.min(...times), 0),
      `${ratio.toFixed(2)}×`,
      cpu === undefined ? '—' : fixed(cpu, 0),
      cpu === undefined ? '—' : `${(cpu / meanCpu(baseline)).toFixed(2)}×`,
      target.target === undefined ? '—' : `≤ ${target.target}×`,
      target.target === undefined ? '' : pass ? 'pass' : 'FAIL',
    ]
  }),
)
if (missed > 0 && process.env.BENCH_STRICT === '1') process.exitCode = 1
