// The domain's part of one POST /v1/payments (issue 33, round 5), in process, without HTTP: from the
// body's text to the answer's bytes — JSON.parse, the schema's parse, the ledger's checks and
// transaction, the store and its indexes, ids, the payment.created event (the event log writes its
// text) and the answer's text encoded. Runs the built dist/ of each checkout given (default: this
// one); with two, both in one process, their rounds taken in turns (the machine's load hits both
// alike), and the second's CPU as a ratio of the first's:
//
//   node --expose-gc --max-semi-space-size=64 bench/post-domain.mjs [checkout] [other checkout]
//
// Prints CPU µs per payment (min and median of the rounds) and bytes allocated per payment (the
// heap's growth over a round of its own that no collection interrupted; the large young generation
// lets most rounds have none). Knobs: POST_DOMAIN_ROUNDS (41), POST_DOMAIN_PER_ROUND (1,000).
// POST_DOMAIN_COUNT=n (one checkout): the warm-up, then n payments, and out, for instruction counts
// (valgrind's callgrind, `node --single-threaded`): run with n and with 0, the difference divided by n.
import { PerformanceObserver } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'
import { resolve } from 'node:path'

const roots = (process.argv.length > 2 ? process.argv.slice(2, 4) : ['.']).map((root) => resolve(root))
const ROUNDS = Number(process.env.POST_DOMAIN_ROUNDS ?? 41)
const PER_ROUND = Number(process.env.POST_DOMAIN_PER_ROUND ?? 1000)
const WARMUP = Number(process.env.POST_DOMAIN_WARMUP ?? 20_000)

/** One payment from the bench's body to its answer's bytes, on a sandbox of `root`'s build. */
async function paymentOf(root) {
  const dist = (path) => import(pathToFileURL(`${root}/dist/${path}`).href)
  const { createSandbox } = await dist('sandbox.js')
  const { loadConfig } = await dist('config.js')
  const { CreatePaymentSchema } = await dist('schemas/payment.js')
  const { renderResource } = await dist('http/respond.js')
  const { generateAddress } = await dist('chain/networks.js')
  const { createRng } = await dist('rng.js')
  const sandbox = await createSandbox(loadConfig({ flags: { port: 0, clock: 'manual', settle: 'manual', rateLimit: 0, quiet: true } }))
  const account = [...sandbox.store.accounts.values()][0]
  const source = [...account.wallets.values()].find((w) => w.type === 'institutional' && w.network === 'polygon' && w.currency === 'USDC')
  const recipient = generateAddress('polygon', createRng('bench', 'recipient'))
  // As bench/http.bench.mjs posts it: one base unit of USDC from a wallet holding 1,000,000.
  const text = JSON.stringify({ amount: '0.000001', currency: 'USDC', source_wallet: source.id, recipient, description: 'bench' })
  const requestIds = createRng('bench', 'requests')
  let bytes = 0
  const one = () => {
    const body = CreatePaymentSchema.parse(JSON.parse(text))
    const presented = sandbox.services.payments.createPresented(account, body)
    bytes += Buffer.byteLength(renderResource(201, presented, `req_${requestIds.base62(24)}`, 'wrapped').text)
  }
  return { one, close: () => sandbox.close() }
}

const builds = []
for (const root of roots) builds.push(await paymentOf(root))

if (process.env.POST_DOMAIN_COUNT !== undefined) {
  const { one, close } = builds[0]
  for (let i = 0; i < WARMUP; i++) one()
  for (let i = 0; i < Number(process.env.POST_DOMAIN_COUNT); i++) one()
  await close()
  process.exit(0)
}

for (const { one } of builds) for (let i = 0; i < WARMUP; i++) one()
const times = builds.map(() => [])
for (let round = 0; round < ROUNDS; round++) {
  // Each build first in every other round.
  for (const k of builds.map((_, i) => (round % 2 ? builds.length - 1 - i : i))) {
    const start = process.cpuUsage()
    for (let i = 0; i < PER_ROUND; i++) builds[k].one()
    const used = process.cpuUsage(start)
    times[k].push((used.user + used.system) / PER_ROUND)
  }
  await new Promise((r) => setImmediate(r))
}

let collections = 0
new PerformanceObserver((list) => (collections += list.getEntries().length)).observe({ entryTypes: ['gc'] })
/** Bytes per payment: rounds of 500 after a full collection, counted when none came in between. */
async function bytesPerPayment(one) {
  const bytes = []
  for (let round = 0; round < 7; round++) {
    globalThis.gc?.()
    // The observer hears of a collection a turn later: the forced one above before counting.
    await new Promise((r) => setTimeout(r, 5))
    const before = collections
    const heap = process.memoryUsage().heapUsed
    for (let i = 0; i < 500; i++) one()
    const grown = process.memoryUsage().heapUsed - heap
    await new Promise((r) => setTimeout(r, 5))
    if (collections === before) bytes.push(grown / 500)
  }
  return bytes.length ? `${median(bytes).toFixed(0)} bytes allocated per payment` : 'bytes unknown (every round collected: run with --expose-gc --max-semi-space-size=64)'
}

const sorted = (a) => [...a].sort((x, y) => x - y)
const median = (a) => sorted(a)[a.length >> 1]
for (let k = 0; k < builds.length; k++) {
  const ratio = k === 0 ? '' : `; ×${(median(times[k]) / median(times[0])).toFixed(2)} the first's median, ×${(sorted(times[k])[0] / sorted(times[0])[0]).toFixed(2)} its min`
  console.log(`${roots[k]}: CPU µs per payment min ${sorted(times[k])[0].toFixed(2)}, median ${median(times[k]).toFixed(2)} (${ROUNDS} rounds of ${PER_ROUND})${ratio}; ${await bytesPerPayment(builds[k].one)}`)
}
for (const { close } of builds) await close()
process.exit(0)
