// The users' loop (issues 12 and 33): what a test suite does most, timed end to end. One lifecycle
// is POST /v1/payments → POST /_sandbox/payments/{id}/complete → the three webhooks (created,
// processing, succeeded) received by a local receiver and verified with `standardwebhooks`.
// Two scenarios: 100 lifecycles one after the other on one key, and 8 clients on 8 keys (8
// accounts) doing 25 each in parallel. Each runs against the sandbox (the CLI in a child process:
// manual clock, manual settlement, no rate limit, quiet) and against the floor
// (bench/fixtures/loop-floor.mjs: a node:http server doing only what the loop needs, honestly), in
// turns, each run on fresh keys; the clients and the receiver run here, on loopback. Reported per
// scenario: wall time and server CPU (from /proc) of both, median, p99 and max, and the sandbox's
// medians as ratios of the floor's, against issue 33's goals.
//
// Knobs: BENCH_LOOP_ROUNDS (9 measured rounds per scenario and server), BENCH_STRICT=1 (exit 1 when
// a goal is missed).
import { loadavg } from 'node:os'
import { closeLoopClients, prepareLoopClient, runLoop, startLoopReceiver } from './loop-driver.mjs'
import { FIXTURE, SANDBOX_BIN, cpuMs, percentile, printTable, startServer } from './lib.mjs'

const ROUNDS = Number(process.env.BENCH_LOOP_ROUNDS ?? 9)
const GOALS = { wall: 1.15, cpu: 1.3 }
const SCENARIOS = [
  { name: '100 lifecycles, 1 client', clients: 1, each: 100 },
  { name: '8 clients × 25, 8 keys', clients: 8, each: 25 },
]

const servers = [
  { name: 'floor', ...(await startServer(FIXTURE('loop-floor.mjs'), [], '/_sandbox/health')) },
  { name: 'sandbox', ...(await startServer(SANDBOX_BIN, ['--clock', 'manual', '--settle', 'manual', '--rate-limit', '0', '--quiet'], '/_sandbox/health')) },
]
const receiver = await startLoopReceiver()
/** Per scenario and server: wall ms and server CPU ms of each measured run. */
const runs = new Map(SCENARIOS.map((s) => [s, new Map(servers.map((server) => [server, { wall: [], cpu: [] }]))]))
const paymentIds = []
let keys = 0
const loadBefore = loadavg()[0]

/** One run of a scenario on keys never used before (so on fresh accounts), checked after the clock stops. */
async function measure(scenario, server) {
  const run = keys++
  const base = `http://127.0.0.1:${server.port}`
  const clients = await Promise.all(Array.from({ length: scenario.clients }, (_, i) => prepareLoopClient(base, receiver, run * 100 + i, `sk_test_loop_${run}_${i}`)))
  try {
    const cpuBefore = cpuMs(server.child.pid)
    const started = performance.now()
    const ids = await runLoop(clients, scenario.each)
    const wall = performance.now() - started
    const cpu = cpuMs(server.child.pid) - cpuBefore
    paymentIds.push(...ids)
    return { wall, cpu }
  } finally {
    closeLoopClients(clients)
  }
}

try {
  // One untimed run of each warms both servers' code up.
  for (const scenario of SCENARIOS) for (const server of servers) await measure(scenario, server)
  for (let round = 0; round < ROUNDS; round++) {
    for (const scenario of round % 2 === 0 ? SCENARIOS : [...SCENARIOS].reverse()) {
      for (const server of round % 2 === 0 ? servers : [...servers].reverse()) {
        const { wall, cpu } = await measure(scenario, server)
        const into = runs.get(scenario).get(server)
        into.wall.push(wall)
        into.cpu.push(cpu)
      }
    }
  }
  const problems = receiver.check(paymentIds)
  if (problems.length > 0) throw new Error(`the loop went wrong:\n${problems.slice(0, 20).join('\n')}`)
} finally {
  await Promise.all([...servers.map((server) => server.stop()), receiver.close()])
}

let missed = 0
const rows = []
for (const scenario of SCENARIOS) {
  const [floor, sandbox] = servers.map((server) => runs.get(scenario).get(server))
  for (const [measureName, goal] of [['wall', GOALS.wall], ['cpu', GOALS.cpu]]) {
    const figures = (list) => [percentile(list, 50), percentile(list, 99), Math.max(...list)].map((v) => v.toFixed(0))
    const ratio = percentile(sandbox[measureName], 50) / percentile(floor[measureName], 50)
    const pass = ratio <= goal
    if (!pass) missed++
    rows.push([scenario.name, measureName === 'wall' ? 'wall ms' : 'server CPU ms', ...figures(sandbox[measureName]), ...figures(floor[measureName]), `${ratio.toFixed(2)}×`, `≤ ${goal}×`, pass ? 'pass' : 'FAIL'])
  }
}
printTable(
  `Users' loop: create → control complete → 3 verified webhooks, sandbox against the floor (${ROUNDS} rounds each, taking turns, fresh keys each run; load ${loadBefore.toFixed(1)} → ${loadavg()[0].toFixed(1)}; node ${process.version})`,
  ['scenario', 'measure', 'sandbox p50', 'p99', 'max', 'floor p50', 'p99', 'max', 'ratio (p50)', 'goal', 'result'],
  rows,
)
console.log(`Sandbox run with --clock manual --settle manual --rate-limit 0 --quiet; ${paymentIds.length} lifecycles, ${receiver.received()} webhooks received and verified.\n`)
if (missed > 0 && process.env.BENCH_STRICT === '1') process.exitCode = 1
