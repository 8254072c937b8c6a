// `npm run bench:journal`: what the request journal costs POST /v1/payments (issue 31's target: at
// most 5 % of its throughput). Two sandboxes run side by side in child processes, one with the
// journal as shipped (--request-log-limit 1000: each request's headers and bodies kept) and one
// with --request-log-limit 0 (nothing kept, no listener); autocannon sends them the same POSTs at
// the same time, so that each moment of a shared machine, busy or quiet, falls on both alike. A process
// draws its own JIT and heap decisions, which moved one process's figures by several per cent
// against another's of the same build: so the pair is started BENCH_PAIRS times, the sides started
// in turns. Reported: requests per second (median of the slices), latency p50, p99 and max, and the
// sandbox's CPU time per request (from /proc). Judged: the throughput's ratio and that of the
// requests a second of the sandbox's own CPU serves, each the median of the pairs' (on a machine
// shared with other work the first measures the machine's mood more than the journal).
// Knobs: BENCH_PAIRS (5), BENCH_ROUNDS (6 slices a pair), BENCH_SLICE (2 s),
// BENCH_WARMUP (2 s), BENCH_STRICT=1 (exit 1 when a target is missed).
import { loadavg } from 'node:os'
import autocannon from 'autocannon'
import { createRng } from '../dist/rng.js'
import { generateAddress } from '../dist/chain/networks.js'
import { SANDBOX_BIN, cpuMs, fetchJson, fixed, percentile, printTable, startServer } from './lib.mjs'

const PAIRS = Number(process.env.BENCH_PAIRS ?? 5)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6)
const SLICE_S = Number(process.env.BENCH_SLICE ?? 2)
const WARMUP_S = Number(process.env.BENCH_WARMUP ?? 2)
const CONNECTIONS = 10
const TARGET = 0.95
const API_KEY = 'sk_test_sandbox_default_key'
const FLAGS = ['--rate-limit', '0', '--quiet', '--settle', 'manual']
const SIDES = [
  { name: 'journal on (--request-log-limit 1000)', limit: 1000 },
  { name: 'journal off (--request-log-limit 0)', limit: 0 },
].map((side) => ({ ...side, slices: [], latencies: [] }))
const [on, off] = SIDES

async function start(side) {
  const server = await startServer(SANDBOX_BIN, [...FLAGS, '--request-log-limit', String(side.limit)], '/_sandbox/health')
  const auth = { authorization: `Bearer ${API_KEY}` }
  const wallets = await fetchJson(server.port, '/v1/wallets?limit=100', { headers: auth })
  const source = wallets.body.data.find((w) => w.type === 'institutional' && w.network === 'polygon' && w.currency === 'USDC')
  // One base unit of USDC from a wallet holding 1,000,000: it never runs dry.
  const body = JSON.stringify({ amount: '0.000001', currency: 'USDC', source_wallet: source.id, recipient: generateAddress('polygon', createRng('bench', 'recipient')), description: 'bench' })
  return { side, server, request: { url: `http://127.0.0.1:${server.port}/v1/payments`, method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body }, slices: [] }
}

/** One slice of POSTs; any error or non-2xx answer fails the benchmark. */
async function slice(running, seconds, record = true) {
  const { side, server } = running
  const cpuBefore = cpuMs(server.child.pid)
  const instance = autocannon({ connections: CONNECTIONS, pipelining: 1, ...running.request, duration: seconds })
  if (record) instance.on('response', (_client, _status, _bytes, ms) => side.latencies.push(ms))
  const result = await instance
  const failures = result.errors + result.timeouts + result.non2xx
  if (failures > 0) throw new Error(`${side.name}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts out of ${result.requests.total}`)
  const cpuUs = cpuBefore === undefined ? undefined : ((cpuMs(server.child.pid) - cpuBefore) * 1000) / result.requests.total
  if (!record) return
  const measured = { rps: result.requests.total / result.duration, cpuUs, requests: result.requests.total }
  side.slices.push(measured)
  running.slices.push(measured)
}

const median = (values) => percentile(values, 50)
/** CPU a request over slices: their CPU time over their requests. */
const cpuOf = (slices) => (slices[0]?.cpuUs === undefined ? undefined : slices.reduce((sum, s) => sum + s.cpuUs * s.requests, 0) / slices.reduce((sum, s) => sum + s.requests, 0))
const pairs = []
const loadBefore = loadavg()
for (let pair = 0; pair < PAIRS; pair++) {
  const running = []
  try {
    for (const side of pair % 2 === 0 ? SIDES : [...SIDES].reverse()) running.push(await start(side))
    // Both at once: each moment of the machine, busy or quiet, falls on both alike.
    await Promise.all(running.map((one) => slice(one, WARMUP_S, false)))
    for (let round = 0; round < ROUNDS; round++) await Promise.all(running.map((one) => slice(one, SLICE_S)))
    const [withJournal, without] = SIDES.map((side) => running.find((one) => one.side === side))
    pairs.push({
      throughput: median(withJournal.slices.map((s) => s.rps)) / median(without.slices.map((s) => s.rps)),
      cpu: cpuOf(withJournal.slices) === undefined ? undefined : cpuOf(without.slices) / cpuOf(withJournal.slices),
    })
  } finally {
    await Promise.all(running.map((one) => one.server.stop()))
  }
}
const loadAfter = loadavg()

const rps = (side) => median(side.slices.map((s) => s.rps))
printTable(
  `POST /v1/payments with and without the request journal (autocannon, ${CONNECTIONS} connections each; ${PAIRS} pairs of processes, each ${ROUNDS} slices of ${SLICE_S} s, both at once; node ${process.version})`,
  ['sandbox', 'req/s (median)', 'p50 ms', 'p99 ms', 'max ms', 'CPU a request'],
  SIDES.map((side) => [side.name, fixed(rps(side), 0), percentile(side.latencies, 50).toFixed(2), percentile(side.latencies, 99).toFixed(2), side.latencies.reduce((a, b) => Math.max(a, b), 0).toFixed(2), cpuOf(side.slices) === undefined ? '—' : `${fixed(cpuOf(side.slices), 1)} µs`]),
)
const percent = (ratio) => `${fixed(ratio * 100, 1)} %`
const judged = [['throughput', pairs.map((p) => p.throughput)], ...(pairs[0].cpu === undefined ? [] : [['requests a CPU second', pairs.map((p) => p.cpu)]])]
let missed = 0
for (const [name, ratios] of judged) {
  const pass = median(ratios) >= TARGET
  if (!pass) missed++
  console.log(`${name} with the journal, of that without: ${percent(median(ratios))} (median of the pairs: ${ratios.map(percent).join(', ')}); target ≥ ${TARGET * 100} %: ${pass ? 'pass' : 'FAIL'}`)
}
console.log(`Load average ${loadBefore[0].toFixed(2)} before, ${loadAfter[0].toFixed(2)} after.\n`)
if (missed > 0 && process.env.BENCH_STRICT === '1') process.exitCode = 1
