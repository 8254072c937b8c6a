// Instructions per request of one or two builds, counted by valgrind's callgrind (issue 33): a
// figure that does not move with the machine's load, for each optimisation's commit. Each build's
// CLI runs under `valgrind --tool=callgrind --instr-atstart=no` with `node --single-threaded` (the
// compiler and the collector on the main thread, so their work is counted where it happens); it is
// warmed up uninstrumented, then for each batch the counters are zeroed, instrumentation turned on
// with callgrind_control, a batch of GET /v1/wallets/{id}/balance, POST /v1/payments (one
// connection) or payment lifecycles (bench/loop-driver.mjs) driven, and the counts dumped.
// Prints the median, lowest and highest of the batches per build, and the medians' ratio.
//
//   node bench/instructions-per-request.mjs /work/before /work/after
// Knobs: INSTR_BATCHES (3), INSTR_REQUESTS (2,000 per batch), INSTR_LIFECYCLES (200 per batch), INSTR_KINDS (get,post,loop).
import { spawn, execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import autocannon from 'autocannon'
import { closeLoopClients, LOOP_RECIPIENT, prepareLoopClient, runLoop, startLoopReceiver } from './loop-driver.mjs'
import { fetchJson, freePort, percentile, printTable, stop, waitUntilAnswering } from './lib.mjs'

const BATCHES = Number(process.env.INSTR_BATCHES ?? 3)
const REQUESTS = Number(process.env.INSTR_REQUESTS ?? 2000)
const LIFECYCLES = Number(process.env.INSTR_LIFECYCLES ?? 200)
const KINDS = (process.env.INSTR_KINDS ?? 'get,post,loop').split(',')
const KEY = 'sk_test_sandbox_default_key'
const checkouts = process.argv.slice(2).map((dir) => resolve(dir))
if (checkouts.length === 0) throw new Error('usage: node bench/instructions-per-request.mjs <checkout> [<checkout>]')

// Between batches callgrind_control takes seconds: longer than node's 5 s keep-alive, so the receiver
// would close the sandbox's idle connection just as the next batch's first delivery reuses it.
const receiver = await startLoopReceiver({ keepAliveTimeoutMs: 600_000 })
let run = 0

async function measureBuild(dir) {
  const out = mkdtempSync(join(tmpdir(), 'wallet-sandbox-callgrind-'))
  const port = await freePort()
  const child = spawn('valgrind', ['--tool=callgrind', '--instr-atstart=no', '--smc-check=all-non-file', `--callgrind-out-file=${out}/cg.out`, process.execPath, '--single-threaded', `${dir}/bin/wallet-sandbox.js`, '--port', String(port), '--quiet', '--settle', 'manual', '--clock', 'manual', '--rate-limit', '0'], { stdio: ['ignore', 'ignore', 'pipe'] })
  child.stderr.resume()
  const control = (flag) => execFileSync('callgrind_control', [flag, String(child.pid)], { stdio: 'ignore' })
  try {
    await waitUntilAnswering(child, port, '/_sandbox/health', { intervalMs: 500, timeoutMs: 120_000 })
    const base = `http://127.0.0.1:${port}`
    const auth = { authorization: `Bearer ${KEY}` }
    const source = (await fetchJson(port, '/v1/wallets?type=institutional&network=polygon&currency=USDC', { headers: auth })).body.data[0].id
    const requests = {
      get: { url: `${base}/v1/wallets/${source}/balance`, headers: auth },
      post: { url: `${base}/v1/payments`, method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ amount: '0.000001', currency: 'USDC', source_wallet: source, recipient: LOOP_RECIPIENT, description: 'bench' }) },
    }
    const drive = async (kind, count) => {
      if (kind === 'loop') {
        const clients = [await prepareLoopClient(base, receiver, run, `sk_test_instructions_${run++}`)]
        await runLoop(clients, count)
        closeLoopClients(clients)
        return
      }
      const result = await autocannon({ ...requests[kind], connections: 1, amount: count, timeout: 60 })
      if (result.non2xx + result.errors > 0) throw new Error(`${kind}: ${result.non2xx} non-2xx, ${result.errors} errors`)
    }
    // Warm-up, uninstrumented: every path compiled and optimised before counting.
    for (const kind of KINDS) await drive(kind, kind === 'loop' ? LIFECYCLES * 2 : REQUESTS * 5)
    const counts = new Map(KINDS.map((kind) => [kind, []]))
    for (let batch = 0; batch < BATCHES; batch++) {
      for (const kind of KINDS) {
        control('--zero')
        control('--instr=on')
        await drive(kind, kind === 'loop' ? LIFECYCLES : REQUESTS)
        control('--dump')
        control('--instr=off')
        const dumps = readdirSync(out).filter((name) => name.startsWith('cg.out.')).sort((a, b) => Number(a.split('.').pop()) - Number(b.split('.').pop()))
        const totals = /^totals: (\d+)/m.exec(readFileSync(join(out, dumps.at(-1)), 'utf8'))
        counts.get(kind).push(Number(totals[1]) / (kind === 'loop' ? LIFECYCLES : REQUESTS))
      }
    }
    return counts
  } finally {
    await stop(child)
    rmSync(out, { recursive: true, force: true })
  }
}

const results = []
try {
  for (const dir of checkouts) results.push(await measureBuild(dir))
} finally {
  await receiver.close()
}
const NAMES = { get: 'GET /v1/wallets/{id}/balance', post: 'POST /v1/payments', loop: 'lifecycle (create, complete, 3 webhooks)' }
const k = (value) => `${(value / 1000).toFixed(0)}k`
printTable(
  `Instructions per request, callgrind, node --single-threaded (${BATCHES} batches of ${REQUESTS} requests or ${LIFECYCLES} lifecycles each)`,
  ['what', ...results.flatMap((_, i) => [`${i === 0 ? 'A' : 'B'} median`, 'min', 'max']), ...(results.length === 2 ? ['B/A (median)'] : [])],
  KINDS.map((kind) => [
    NAMES[kind],
    ...results.flatMap((counts) => [k(percentile(counts.get(kind), 50)), k(Math.min(...counts.get(kind))), k(Math.max(...counts.get(kind)))]),
    ...(results.length === 2 ? [`${(percentile(results[1].get(kind), 50) / percentile(results[0].get(kind), 50)).toFixed(2)}×`] : []),
  ]),
)
console.log(checkouts.map((dir, i) => `${i === 0 ? 'A' : 'B'}: ${dir}`).join('\n'))
