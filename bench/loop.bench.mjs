// The users' loop (issue 12): what a test suite does most, timed end to end. One lifecycle is
// POST /v1/payments → POST /_sandbox/payments/{id}/complete → the three webhooks (created,
// processing, succeeded) received by a local receiver and verified with `standardwebhooks`.
// Two scenarios: 100 lifecycles one after the other on one key, and 8 clients on 8 keys (8
// accounts) doing 25 each in parallel. The sandbox is the CLI in a child process (manual clock,
// manual settlement, no rate limit, quiet); the clients and the receiver run here, on loopback.
// The scenarios take turns, each run on fresh keys, and the median of the rounds is reported.
//
// Knobs: BENCH_LOOP_ROUNDS (7 measured rounds per scenario), BENCH_STRICT=1 (exit 1 when a target
// is missed).
import { closeLoopClients, prepareLoopClient, runLoop, startLoopReceiver } from './loop-driver.mjs'
import { SANDBOX_BIN, cpuMs, fixed, percentile, printTable, startServer } from './lib.mjs'

const ROUNDS = Number(process.env.BENCH_LOOP_ROUNDS ?? 7)
const SCENARIOS = [
  { name: '100 lifecycles, 1 client', clients: 1, each: 100, targetMs: 300 },
  { name: '8 clients × 25, 8 keys', clients: 8, each: 25, targetMs: 600 },
]

const sandbox = await startServer(SANDBOX_BIN, ['--clock', 'manual', '--settle', 'manual', '--rate-limit', '0', '--quiet'], '/_sandbox/health')
const receiver = await startLoopReceiver()
const base = `http://127.0.0.1:${sandbox.port}`
const times = new Map(SCENARIOS.map((s) => [s, []]))
/** The sandbox's own CPU ms per lifecycle: steadier than wall time on a busy machine. */
const cpu = new Map(SCENARIOS.map((s) => [s, []]))
const paymentIds = []
let keys = 0

/** One run of a scenario on keys never used before (so on fresh accounts), checked after the clock stops. */
async function measure(scenario) {
  const run = keys++
  const clients = await Promise.all(Array.from({ length: scenario.clients }, (_, i) => prepareLoopClient(base, receiver, run * 100 + i, `sk_test_loop_${run}_${i}`)))
  try {
    const started = performance.now()
    const cpuBefore = cpuMs(sandbox.child.pid)
    const ids = await runLoop(clients, scenario.each)
    const ms = performance.now() - started
    cpu.get(scenario).push((cpuMs(sandbox.child.pid) - cpuBefore) / ids.length)
    paymentIds.push(...ids)
    return ms
  } finally {
    closeLoopClients(clients)
  }
}

try {
  // One untimed run of each warms the sandbox's code up.
  for (const scenario of SCENARIOS) await measure(scenario)
  for (let round = 0; round < ROUNDS; round++) {
    for (const scenario of round % 2 === 0 ? SCENARIOS : [...SCENARIOS].reverse()) times.get(scenario).push(await measure(scenario))
  }
  const problems = receiver.check(paymentIds)
  if (problems.length > 0) throw new Error(`the loop went wrong:\n${problems.slice(0, 20).join('\n')}`)
} finally {
  await Promise.all([sandbox.stop(), receiver.close()])
}

let missed = 0
printTable(
  `Users' loop: create → control complete → 3 verified webhooks (${ROUNDS} rounds each, alternating, fresh keys each round; node ${process.version})`,
  ['scenario', 'lifecycles', 'median ms', 'min ms', 'max ms', 'per lifecycle ms', 'sandbox CPU ms per lifecycle', 'target', 'result'],
  SCENARIOS.map((scenario) => {
    const list = times.get(scenario)
    const median = percentile(list, 50)
    const pass = median < scenario.targetMs
    if (!pass) missed++
    const count = scenario.clients * scenario.each
    return [scenario.name, count, fixed(median, 0), fixed(Math.min(...list), 0), fixed(Math.max(...list), 0), (median / count).toFixed(2), Number.isNaN(percentile(cpu.get(scenario), 50)) ? '—' : percentile(cpu.get(scenario), 50).toFixed(2), `< ${scenario.targetMs} ms`, pass ? 'pass' : 'FAIL']
  }),
)
console.log(`Sandbox run with --clock manual --settle manual --rate-limit 0 --quiet; ${paymentIds.length} lifecycles, ${receiver.received()} webhooks received and verified.\n`)
if (missed > 0 && process.env.BENCH_STRICT === '1') process.exitCode = 1
