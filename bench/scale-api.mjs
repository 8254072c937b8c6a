// Payments as users create them (issue 22), measured from outside: the CLI in its own process on a
// data file (--durability batched), payments created through POST /v1/payments by concurrent
// clients, then the process's memory as the operating system counts it (VmRSS, /proc) and the
// latency of POST /v1/payments sent one after another right after the last of N, against the same
// POSTs to a second sandbox that holds a thousand, the two taking turns (so that a machine busier
// at one moment than another slows both alike). Used by bench/scale.bench.mjs (timed, up to a
// million) and test/e2e/scale-api.test.ts (short, untimed: the path, not the figures).
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { generateAddress } from '../dist/chain/networks.js'
import { createRng } from '../dist/rng.js'
import { cpuMs, freePort, maximum, percentile, ROOT, SANDBOX_BIN, stop, waitUntilAnswering } from './lib.mjs'

/** The account measured, and one that takes the warm-up payments (open auth: a key of its own is an account of its own). */
const KEY = 'sk_test_sandbox_default_key'
const WARMUP_KEY = 'sk_test_scale_api_warmup'
/** What the peer sandbox holds when the turns start. */
export const PEER_SIZE = 1000
/** POSTs a turn takes before the other sandbox's turn. */
const TURN = 250

/** The process's resident memory (VmRSS) in bytes, as the operating system counts it. */
export function rssOf(pid) {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024
}

async function startCli(dataFile) {
  const port = await freePort()
  const args = [SANDBOX_BIN, '--port', String(port), '--data-file', dataFile, '--durability', 'batched', '--rate-limit', '0', '--settle', 'manual', '--quiet']
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] })
  child.output = []
  child.stderr.setEncoding('utf8').on('data', (chunk) => child.output.length < 50 && child.output.push(chunk))
  await waitUntilAnswering(child, port, '/_sandbox/health', { intervalMs: 20, timeoutMs: 60_000 })
  return { child, port }
}

/** A client of one account: a kept-alive connection per concurrent request, its treasury wallets, 50 recipients each. */
async function prepareClient(port, key, concurrency) {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency })
  const client = { port, key, agent, made: 0 }
  const { data } = await send(client, 'GET', '/v1/wallets?limit=100', undefined, 200)
  client.wallets = data.filter((wallet) => wallet.type === 'institutional')
  const rng = createRng('scale-api', key)
  client.recipients = client.wallets.map((wallet) => Array.from({ length: 50 }, () => generateAddress(wallet.network, rng)))
  return client
}

/** One JSON request; rejects on any other status than `expect`. */
function send(client, method, path, body, expect) {
  return new Promise((resolve, reject) => {
    const text = body === undefined ? undefined : JSON.stringify(body)
    const headers = { authorization: `Bearer ${client.key}`, ...(text ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } : {}) }
    const req = request({ host: '127.0.0.1', port: client.port, path, method, agent: client.agent, headers }, (res) => {
      let data = ''
      res.setEncoding('utf8')
      res.on('data', (chunk) => (data += chunk))
      res.on('end', () => (res.statusCode === expect ? resolve(JSON.parse(data)) : reject(new Error(`${method} ${path} answered ${res.statusCode} (expected ${expect}): ${data.slice(0, 300)}`))))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(text)
  })
}

/** The client's next payment: a base unit's worth of every treasury in turn (none runs dry), to one of its 50 recipients. */
function nextPayment(client) {
  const i = client.made++
  const w = i % client.wallets.length
  const wallet = client.wallets[w]
  return { amount: '0.000001', currency: wallet.currency, source_wallet: wallet.id, recipient: client.recipients[w][Math.floor(i / client.wallets.length) % 50] }
}

/** Creates payments until the client has made `total`, `concurrency` requests at a time. */
async function createUpTo(client, total, concurrency) {
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (client.made < total) await send(client, 'POST', '/v1/payments', nextPayment(client), 201)
    }),
  )
}

/** `count` payments, each sent once the answer to the one before is in: their latencies (ms), pushed onto `times`. */
async function postSequentially(client, count, times) {
  for (let i = 0; i < count; i++) {
    const body = nextPayment(client)
    const started = performance.now()
    await send(client, 'POST', '/v1/payments', body, 201)
    times.push(performance.now() - started)
  }
}

const summary = (times, cpuMsUsed) => ({ p50: percentile(times, 50), p99: percentile(times, 99), max: maximum(times), cpuUs: cpuMsUsed === undefined ? undefined : (cpuMsUsed * 1000) / times.length })

/** A sandbox with `warmup` payments on another account (concurrent, then a tenth one after another, so that the code measured is the JIT's optimised code) and `size` on the account measured. */
async function startSandbox(dataFile, size, warmup, concurrency) {
  const { child, port } = await startCli(dataFile)
  const warm = await prepareClient(port, WARMUP_KEY, concurrency)
  await createUpTo(warm, warmup, concurrency)
  await postSequentially(warm, Math.ceil(warmup / 10), [])
  const client = await prepareClient(port, KEY, concurrency)
  await createUpTo(client, size, concurrency)
  return { child, warm, client, cpu: 0, times: [] }
}

/**
 * The scenario: the sandbox measured and its peer each get `warmup` payments on another account,
 * then a thousand on the account measured; the one grows to `payments` (concurrent); its RSS is
 * read at once; then both take `sequential` POSTs one after another, in turns of 250 (the grown
 * one first, then ABBA), each turn's server CPU read from /proc.
 */
export async function runApiScale({ dataFile, payments, sequential = 2000, warmup = 5000, concurrency = 8, log = () => {} }) {
  const sandboxes = []
  try {
    const big = await startSandbox(dataFile, PEER_SIZE, warmup, concurrency)
    sandboxes.push(big)
    const peer = await startSandbox(`${dataFile}.peer`, PEER_SIZE, warmup, concurrency)
    sandboxes.push(peer)
    const started = performance.now()
    const progress = setInterval(() => log(`  ${big.client.made.toLocaleString('en')} payments, RSS ${(rssOf(big.child.pid) / 1e6).toFixed(0)} MB`), 30_000)
    try {
      await createUpTo(big.client, payments, concurrency)
    } finally {
      clearInterval(progress)
    }
    const createMs = performance.now() - started
    const held = big.client.made + big.warm.made
    const rss = rssOf(big.child.pid)
    // Whether a compaction was writing its snapshot when the turns began (its temporary file).
    const compacting = existsSync(`${dataFile}.tmp`)
    // The peer sat idle meanwhile, and V8 drops the compiled code of functions not run for a while:
    // as many untimed requests as its warm-up, on its other account, compile it again.
    await postSequentially(peer.warm, warmup, [])
    for (let turn = 0; big.times.length < sequential; turn++) {
      for (const sandbox of turn % 2 === 0 ? [big, peer] : [peer, big]) {
        const before = cpuMs(sandbox.child.pid)
        await postSequentially(sandbox.client, Math.min(TURN, sequential - sandbox.times.length), sandbox.times)
        sandbox.cpu = before === undefined ? undefined : sandbox.cpu + cpuMs(sandbox.child.pid) - before
      }
    }
    const [first, last] = [summary(peer.times, peer.cpu), summary(big.times, big.cpu)]
    log(`peer (${peer.client.made} payments): POST p50 ${first.p50.toFixed(2)} ms, p99 ${first.p99.toFixed(2)} ms; ${big.client.made} payments: p50 ${last.p50.toFixed(2)} ms, p99 ${last.p99.toFixed(2)} ms${compacting ? ' (a compaction was running)' : ''}`)
    const { pagination } = await send(big.client, 'GET', '/v1/payments?limit=1', undefined, 200)
    return { payments: big.client.made, listed: pagination.total, held, rss, rssPerPayment: rss / held, createRate: (payments - PEER_SIZE) / (createMs / 1000), first, last, peerPayments: peer.client.made, compacting }
  } finally {
    for (const { child, warm, client } of sandboxes) {
      warm.agent.destroy()
      client.agent.destroy()
      await stop(child)
    }
  }
}
