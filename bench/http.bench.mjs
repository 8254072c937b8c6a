// Throughput of the sandbox's hot endpoints against their limit, a bare node:http server
// (bench/fixtures/bare-http.mjs; issue 33's goals): GET /v1/wallets/{id}/balance against its GET (a
// fixed body, the hello), POST /v1/payments against its POST (the body sent back, the echo). Each
// server runs in its own child process and autocannon runs here, on loopback, with the sandbox's
// rate limit off. The two sides of a comparison take turns in short slices, so that a machine that
// gets busier or quieter during the run affects both alike.
//
// A third comparison runs POST /v1/payments on a sandbox with a data file (`--durability batched`)
// that already holds BENCH_STORED payments (100,000), seeded through the store's bulk path, against
// the echo measured again beside it.
//
// Beside each row's requests per second, its server's CPU time per request, read from /proc around
// each slice: autocannon runs on the same machine, so on two cores the load generator's own work
// and the servers' collector threads move the ratio of requests per second; the ratio of CPU time
// is what the server itself spends on a request.
//
// Knobs: BENCH_DURATION (8 s measured per scenario), BENCH_WARMUP (2 s), BENCH_STORED (payments in
// the data file), BENCH_STRICT=1 (exit 1 when a target is missed).
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { createRng } from '../dist/rng.js'
import { generateAddress } from '../dist/chain/networks.js'
import { FIXTURE, SANDBOX_BIN, cpuMs, fetchJson, fixed, maximum, percentile, printTable, startScaleServer, startServer, stopScaleServer } from './lib.mjs'

const DURATION_S = Number(process.env.BENCH_DURATION ?? 8)
const WARMUP_S = Number(process.env.BENCH_WARMUP ?? 2)
const SLICES = 4
const CONNECTIONS = 10
const API_KEY = 'sk_test_sandbox_default_key'
const STORED = Number(process.env.BENCH_STORED ?? 100_000)

/** One autocannon run; any error or non-2xx answer fails the benchmark. */
async function run(scenario, seconds, latencies) {
  const cpuBefore = cpuMs(scenario.pid)
  const instance = autocannon({ connections: CONNECTIONS, pipelining: 1, ...scenario.request, duration: seconds })
  if (latencies) instance.on('response', (_client, _status, _bytes, ms) => latencies.push(ms))
  const result = await instance
  result.cpuMs = cpuMs(scenario.pid) - cpuBefore
  const failures = result.errors + result.timeouts + result.non2xx
  if (failures > 0) {
    throw new Error(`${scenario.name}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts out of ${result.requests.total}`)
  }
  return result
}

/** Warms both up, then measures them in alternating slices. */
async function compare(baseline, candidate) {
  for (const scenario of [baseline, candidate]) await run(scenario, WARMUP_S)
  const totals = new Map([baseline, candidate].map((s) => [s, { requests: 0, seconds: 0, cpuMs: 0, latencies: [] }]))
  for (let slice = 0; slice < SLICES; slice++) {
    for (const scenario of slice % 2 === 0 ? [baseline, candidate] : [candidate, baseline]) {
      const total = totals.get(scenario)
      const result = await run(scenario, DURATION_S / SLICES, total.latencies)
      total.requests += result.requests.total
      total.seconds += result.duration
      total.cpuMs += result.cpuMs
    }
  }
  return [baseline, candidate].map((scenario) => {
    const { requests, seconds, cpuMs: cpu, latencies } = totals.get(scenario)
    return { name: scenario.name, rps: requests / seconds, cpuMicros: (cpu * 1000) / requests, p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: maximum(latencies), requests }
  })
}

function paymentBody(sourceWallet, recipient) {
  // One base unit of USDC (6 decimals) from a wallet holding 1,000,000 USDC: it never runs dry.
  return { amount: '0.000001', currency: 'USDC', source_wallet: sourceWallet, recipient, description: 'bench' }
}

/** The default account's polygon USDC treasury, checked with one request of each kind. */
async function prepareSandbox(port) {
  const auth = { authorization: `Bearer ${API_KEY}` }
  const wallets = await fetchJson(port, '/v1/wallets?limit=100', { headers: auth })
  const source = wallets.body?.data?.find((w) => w.type === 'institutional' && w.network === 'polygon' && w.currency === 'USDC')
  if (!source) throw new Error(`no institutional polygon USDC wallet in the default account: ${JSON.stringify(wallets.body).slice(0, 300)}`)
  const body = paymentBody(source.id, generateAddress('polygon', createRng('bench', 'recipient')))
  const balancePath = `/v1/wallets/${source.id}/balance`
  // A broken request shows its error here instead of a count of non-2xx answers later.
  for (const [path, options, expected] of [
    [balancePath, { headers: auth }, 200],
    ['/v1/payments', { method: 'POST', headers: auth, body }, 201],
  ]) {
    const answer = await fetchJson(port, path, options)
    if (answer.status !== expected) throw new Error(`sandbox answered ${options.method ?? 'GET'} ${path} with ${answer.status}: ${JSON.stringify(answer.body)}`)
  }
  return { auth, body, balancePath }
}

/** A data file holding `count` payments, written (and compacted) by bench/scale-server.mjs. */
async function seededDataFile(directory, count) {
  const file = join(directory, 'ledger.json')
  const writer = await startScaleServer(['--data-file', file, '--seed', String(count), '--compact'])
  await stopScaleServer(writer.child)
  return file
}

const directory = mkdtempSync(join(tmpdir(), 'wallet-sandbox-http-bench-'))
const bare = await startServer(FIXTURE('bare-http.mjs'), [], '/')
const SANDBOX_FLAGS = ['--rate-limit', '0', '--quiet', '--settle', 'manual']
const sandbox = await startServer(SANDBOX_BIN, SANDBOX_FLAGS, '/_sandbox/health')
const fileSandbox = await startServer(SANDBOX_BIN, [...SANDBOX_FLAGS, '--data-file', await seededDataFile(directory, STORED), '--durability', 'batched'], '/_sandbox/health')
const loadBefore = loadavg()[0]
let rows
let after
try {
  const { auth, body, balancePath } = await prepareSandbox(sandbox.port)
  await prepareSandbox(fileSandbox.port)
  const bareUrl = `http://127.0.0.1:${bare.port}/`
  const sandboxUrl = `http://127.0.0.1:${sandbox.port}`
  const json = { 'content-type': 'application/json' }
  const echo = (name) => ({ name, pid: bare.child.pid, request: { url: bareUrl, method: 'POST', headers: json, body: JSON.stringify(body) } })
  const [hello, balance] = await compare(
    { name: 'node:http hello (GET, fixed body)', pid: bare.child.pid, request: { url: bareUrl } },
    { name: 'sandbox GET /v1/wallets/{id}/balance', pid: sandbox.child.pid, request: { url: sandboxUrl + balancePath, headers: auth } },
  )
  const [echoed, payment] = await compare(
    echo('node:http echo (POST, body sent back)'),
    { name: 'sandbox POST /v1/payments', pid: sandbox.child.pid, request: { url: `${sandboxUrl}/v1/payments`, method: 'POST', headers: { ...auth, ...json }, body: JSON.stringify(body) } },
  )
  const [echoedAgain, filePayment] = await compare(
    echo('node:http echo, again'),
    {
      name: `sandbox POST /v1/payments, data file (batched, ${STORED.toLocaleString('en')} stored)`,
      pid: fileSandbox.child.pid,
      request: { url: `http://127.0.0.1:${fileSandbox.port}/v1/payments`, method: 'POST', headers: { ...auth, ...json }, body: JSON.stringify(body) },
    },
  )
  rows = [
    [hello],
    [balance, hello, 0.5],
    [echoed],
    [payment, echoed, 0.45],
    [echoedAgain],
    [filePayment, echoedAgain],
  ]
  after = (await fetchJson(sandbox.port, balancePath, { headers: auth })).body.data
  after.payments = payment.requests
} finally {
  await Promise.all([bare.stop(), sandbox.stop(), fileSandbox.stop()])
  rmSync(directory, { recursive: true, force: true })
}

let missed = 0
printTable(
  `HTTP throughput against a bare node:http server (autocannon, ${CONNECTIONS} connections, pipelining 1, loopback; ${WARMUP_S} s warm-up, then ${DURATION_S} s per scenario in ${SLICES} alternating slices; load ${loadBefore.toFixed(1)} → ${loadavg()[0].toFixed(1)}; node ${process.version})`,
  ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'vs node:http', 'goal', 'result', 'server CPU µs/req', 'CPU: node:http ÷ this'],
  rows.map(([m, baseline, goal]) => {
    // Each sandbox row is compared with the bare server's row measured in turns with it.
    const ratio = baseline ? m.rps / baseline.rps : undefined
    const pass = goal === undefined || ratio >= goal
    if (!pass) missed++
    return [
      m.name,
      fixed(m.rps, 0),
      m.p50.toFixed(2),
      m.p99.toFixed(2),
      m.max.toFixed(2),
      ratio === undefined ? '—' : `${ratio.toFixed(2)}×`,
      goal === undefined ? '—' : `≥ ${goal}×`,
      goal === undefined ? '' : pass ? 'pass' : 'FAIL',
      // NaN where /proc cannot be read (not Linux).
      Number.isFinite(m.cpuMicros) ? m.cpuMicros.toFixed(1) : '—',
      // As the throughput ratio reads: the bare server's CPU a request over this one's (1× = as cheap).
      baseline && Number.isFinite(baseline.cpuMicros / m.cpuMicros) ? `${(baseline.cpuMicros / m.cpuMicros).toFixed(2)}×` : '—',
    ]
  }),
)
console.log(
  `Sandbox run with --rate-limit 0 --settle manual --quiet; ${after.payments} payments of 0.000001 USDC measured, ` +
    `the source wallet ends with ${after.available_balance} available and ${after.locked_balance} locked.\n`,
)
if (missed > 0 && process.env.BENCH_STRICT === '1') process.exitCode = 1
