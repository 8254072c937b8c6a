// How much of a POST /v1/payments is node:http's own work (issue 33): the sandbox against three
// floors in the same run, each sent the same POSTs in turns (autocannon, 10 connections), its server
// CPU time a request read from /proc around each round:
//
// - the bare echo of bench/http.bench.mjs (bench/fixtures/bare-http.mjs: the POST goal's limit);
// - node:http reading the body, parsing its JSON and answering the sandbox's own answer (its body
//   as the sandbox sent it, its headers): what node:http costs for the sandbox's request and answer;
// - a minimal HTTP/1.1 layer on node:net doing the same (bench/fixtures/post-floor-servers.mjs).
//
// The difference between the last two is what a layer of the sandbox's own in front of node:http
// could save at most; docs/benchmarks.md, "Issue 33, round 10: the lead's measures", weighs it.
//
//   node bench/post-floor.mjs
// Requests per second are not printed: here the load generator shares the process and the two
// cores, and the CPU time a request is the server's own cost.
// Knobs: FLOOR_ROUNDS (7, the first of them untimed), FLOOR_REQUESTS (40,000 POSTs a round).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { FIXTURE, SANDBOX_BIN, cpuMs, fetchJson, fixed, percentile, printTable, startServer } from './lib.mjs'

const ROUNDS = Number(process.env.FLOOR_ROUNDS ?? 7)
const REQUESTS = Number(process.env.FLOOR_REQUESTS ?? 40_000)
const KEY = 'sk_test_sandbox_default_key'
const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }

const work = mkdtempSync(join(tmpdir(), 'post-floor-'))
const sandbox = await startServer(SANDBOX_BIN, ['--clock', 'manual', '--settle', 'manual', '--rate-limit', '0', '--quiet'], '/_sandbox/health')
// Every server started is stopped however the run ends (a floor that fails to start, a round's errors).
const started = [sandbox]
process.on('exit', () => {
  for (const server of started) server.child.kill('SIGTERM')
  rmSync(work, { recursive: true, force: true })
})
const wallets = await fetchJson(sandbox.port, '/v1/wallets?type=institutional&network=polygon&currency=USDC', { headers })
const payment = { amount: '0.000001', currency: 'USDC', source_wallet: wallets.body.data[0].id, recipient: '0x000000000000000000000000000000000000dEaD', description: 'bench' }
const body = JSON.stringify(payment)
const first = await fetchJson(sandbox.port, '/v1/payments', { method: 'POST', headers, body: payment })
if (first.status !== 201) throw new Error(`the sandbox answered ${first.status}: ${JSON.stringify(first.body)}`)
const answerFile = join(work, 'answer.json')
writeFileSync(answerFile, JSON.stringify(first.body), 'latin1')

/** Starts a floor, kept for the exit's stop from the moment it runs. */
const floor = async (script, args) => {
  const server = await startServer(FIXTURE(script), args, '/')
  started.push(server)
  return server
}
const servers = [
  { name: 'node:http echo (the POST goal\'s limit)', server: await floor('bare-http.mjs', []) },
  { name: 'node:http: body, JSON.parse, the sandbox\'s answer', server: await floor('post-floor-servers.mjs', ['--kind', 'node-http', '--answer', answerFile]) },
  { name: 'minimal HTTP/1.1 on node:net: the same', server: await floor('post-floor-servers.mjs', ['--kind', 'minimal', '--answer', answerFile]) },
  { name: 'sandbox POST /v1/payments', server: sandbox },
].map((entry) => ({ ...entry, cpu: [] }))

const loadBefore = loadavg()[0]
for (let round = 0; round < ROUNDS; round++) {
  for (const entry of servers) {
    const before = cpuMs(entry.server.child.pid)
    const result = await autocannon({ url: `http://127.0.0.1:${entry.server.port}/v1/payments`, method: 'POST', headers, body, connections: 10, amount: REQUESTS })
    const after = cpuMs(entry.server.child.pid)
    if (result.non2xx + result.errors > 0) throw new Error(`${entry.name}: ${result.non2xx} non-2xx, ${result.errors} errors`)
    if (round === 0) continue // warm-up
    entry.cpu.push(((after - before) * 1000) / REQUESTS)
  }
}
for (const entry of servers) await entry.server.stop()

const echo = percentile(servers[0].cpu, 50)
printTable(
  `POST /v1/payments against its floors (${ROUNDS - 1} rounds of ${REQUESTS} POSTs each, in turns, 10 connections; load ${loadBefore.toFixed(1)} → ${loadavg()[0].toFixed(1)}; node ${process.version})`,
  ['server', 'CPU µs/req p50', 'p99', 'max', 'echo ÷ this (CPU)'],
  servers.map((entry) => {
    const p50 = percentile(entry.cpu, 50)
    return [entry.name, fixed(p50), fixed(percentile(entry.cpu, 99)), fixed(Math.max(...entry.cpu)), `${(echo / p50).toFixed(2)}×`]
  }),
)
