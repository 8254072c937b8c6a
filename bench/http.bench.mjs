// Throughput of the sandbox's hot endpoints next to a minimal express 5 app (targets of issue 12):
// GET /v1/wallets/{id}/balance against the app's GET, POST /v1/payments against its POST with
// express.json(). Each server runs in its own child process and autocannon runs here, on loopback,
// with the sandbox's rate limit off. The two sides of a comparison take turns in short slices, so
// that a machine that gets busier or quieter during the run affects both alike.
//
// A third comparison runs POST /v1/payments on a sandbox with a data file (`--durability batched`)
// that already holds BENCH_STORED payments (100,000), seeded through the store's bulk path.
//
// Knobs: BENCH_DURATION (8 s measured per scenario), BENCH_WARMUP (2 s), BENCH_STORED (payments in
// the data file), BENCH_STRICT=1 (exit 1 when a target is missed).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { createRng } from '../dist/rng.js'
import { generateAddress } from '../dist/chain/networks.js'
import { FIXTURE, SANDBOX_BIN, fetchJson, fixed, percentile, printTable, startScaleServer, startServer, stopScaleServer } from './lib.mjs'

const DURATION_S = Number(process.env.BENCH_DURATION ?? 8)
const WARMUP_S = Number(process.env.BENCH_WARMUP ?? 2)
const SLICES = 4
const CONNECTIONS = 10
const API_KEY = 'sk_test_sandbox_default_key'
const STORED = Number(process.env.BENCH_STORED ?? 100_000)

/** One autocannon run; any error or non-2xx answer fails the benchmark. */
async function run(scenario, seconds, latencies) {
  const instance = autocannon({ connections: CONNECTIONS, pipelining: 1, ...scenario.request, duration: seconds })
  if (latencies) instance.on('response', (_client, _status, _bytes, ms) => latencies.push(ms))
  const result = await instance
  const failures = result.errors + result.timeouts + result.non2xx
  if (failures > 0) {
    throw new Error(`${scenario.name}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts out of ${result.requests.total}`)
  }
  return result
}

/** Warms both up, then measures them in alternating slices. */
async function compare(baseline, candidate) {
  for (const scenario of [baseline, candidate]) await run(scenario, WARMUP_S)
  const totals = new Map([baseline, candidate].map((s) => [s, { requests: 0, seconds: 0, latencies: [] }]))
  for (let slice = 0; slice < SLICES; slice++) {
    for (const scenario of slice % 2 === 0 ? [baseline, candidate] : [candidate, baseline]) {
      const total = totals.get(scenario)
      const result = await run(scenario, DURATION_S / SLICES, total.latencies)
      total.requests += result.requests.total
      total.seconds += result.duration
    }
  }
  return [baseline, candidate].map((scenario) => {
    const { requests, seconds, latencies } = totals.get(scenario)
    return { name: scenario.name, rps: requests / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), requests }
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
const express = await startServer(FIXTURE('express-app.mjs'), [], '/')
const SANDBOX_FLAGS = ['--rate-limit', '0', '--quiet', '--settle', 'manual']
const sandbox = await startServer(SANDBOX_BIN, SANDBOX_FLAGS, '/_sandbox/health')
const fileSandbox = await startServer(SANDBOX_BIN, [...SANDBOX_FLAGS, '--data-file', await seededDataFile(directory, STORED), '--durability', 'batched'], '/_sandbox/health')
let rows
let after
try {
  const { auth, body, balancePath } = await prepareSandbox(sandbox.port)
  await prepareSandbox(fileSandbox.port)
  const expressUrl = `http://127.0.0.1:${express.port}/`
  const sandboxUrl = `http://127.0.0.1:${sandbox.port}`
  const json = { 'content-type': 'application/json' }
  const [expressGet, balance] = await compare(
    { name: 'express GET (fixed body)', request: { url: expressUrl } },
    { name: 'sandbox GET /v1/wallets/{id}/balance', request: { url: sandboxUrl + balancePath, headers: auth } },
  )
  const [expressPost, payment] = await compare(
    { name: 'express POST (express.json)', request: { url: expressUrl, method: 'POST', headers: json, body: JSON.stringify(body) } },
    { name: 'sandbox POST /v1/payments', request: { url: `${sandboxUrl}/v1/payments`, method: 'POST', headers: { ...auth, ...json }, body: JSON.stringify(body) } },
  )
  const [expressPostAgain, filePayment] = await compare(
    { name: 'express POST (express.json), again', request: { url: expressUrl, method: 'POST', headers: json, body: JSON.stringify(body) } },
    {
      name: `sandbox POST /v1/payments, data file (batched, ${STORED.toLocaleString('en')} stored)`,
      request: { url: `http://127.0.0.1:${fileSandbox.port}/v1/payments`, method: 'POST', headers: { ...auth, ...json }, body: JSON.stringify(body) },
    },
  )
  rows = [
    [expressGet],
    [expressPost],
    [balance, expressGet, 90],
    [payment, expressPost, 75],
    [expressPostAgain],
    [filePayment, expressPostAgain, 50],
  ]
  after = (await fetchJson(sandbox.port, balancePath, { headers: auth })).body.data
  after.payments = payment.requests
} finally {
  await Promise.all([express.stop(), sandbox.stop(), fileSandbox.stop()])
  rmSync(directory, { recursive: true, force: true })
}

let missed = 0
printTable(
  `HTTP throughput (autocannon, ${CONNECTIONS} connections, pipelining 1, loopback; ${WARMUP_S} s warm-up, then ${DURATION_S} s per scenario in ${SLICES} alternating slices; node ${process.version})`,
  ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'vs express', 'target', 'result'],
  rows.map(([m, baseline, target]) => {
    // The data-file row is compared with the express POST measured next to it, in its own turns.
    const percent = baseline ? (m.rps / baseline.rps) * 100 : undefined
    const pass = target === undefined || percent >= target
    if (!pass) missed++
    return [
      m.name,
      fixed(m.rps, 0),
      m.p50.toFixed(2),
      m.p99.toFixed(2),
      percent === undefined ? '—' : `${fixed(percent, 0)}%`,
      target === undefined ? '—' : `≥ ${target}%`,
      target === undefined ? '' : pass ? 'pass' : 'FAIL',
    ]
  }),
)
console.log(
  `Sandbox run with --rate-limit 0 --settle manual --quiet; ${after.payments} payments of 0.000001 USDC measured, ` +
    `the source wallet ends with ${after.available_balance} available and ${after.locked_balance} locked.\n`,
)
if (missed > 0 && process.env.BENCH_STRICT === '1') process.exitCode = 1
