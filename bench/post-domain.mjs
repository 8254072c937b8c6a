// The domain's part of one POST /v1/payments (issue 33, round 5), in process, without HTTP: from the
// body's text to the answer's bytes — JSON.parse, the schema's parse, the ledger's checks and
// transaction, the store and its indexes, ids, the payment.created event (the event log writes its
// text) and the answer's text encoded. Runs the built dist/ of the checkout given (default: this one):
//
//   node --expose-gc bench/post-domain.mjs [checkout] [rounds] [per round]
//
// Prints µs per payment (min and median of the rounds) and bytes allocated per payment (the heap's
// growth over a round that no collection interrupted: run with a large young generation,
// `--max-semi-space-size=64`, so that most rounds have none).
import { PerformanceObserver } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'
import { resolve } from 'node:path'

const root = resolve(process.argv[2] ?? '.')
const ROUNDS = Number(process.argv[3] ?? 21)
const PER_ROUND = Number(process.argv[4] ?? 2000)
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
const text = JSON.stringify({ amount: '0.000001', currency: 'USDC', source_wallet: source.id, recipient, description: 'bench' })
const requestIds = createRng('bench', 'requests')

let sink = 0
function one() {
  const body = CreatePaymentSchema.parse(JSON.parse(text))
  const presented = sandbox.services.payments.createPresented(account, body)
  const rendered = renderResource(201, presented, `req_${requestIds.base62(24)}`, 'wrapped')
  sink += Buffer.byteLength(rendered.text)
}

// POST_DOMAIN_COUNT=n: the warm-up, then n payments, and out: for instruction counts (valgrind's
// callgrind, `node --single-threaded`), run with n and with 0, the difference divided by n.
if (process.env.POST_DOMAIN_COUNT !== undefined) {
  for (let i = 0; i < Number(process.env.POST_DOMAIN_WARMUP ?? 5000); i++) one()
  for (let i = 0; i < Number(process.env.POST_DOMAIN_COUNT); i++) one()
  await sandbox.close()
  process.exit(0)
}

let collections = 0
new PerformanceObserver((list) => (collections += list.getEntries().length)).observe({ entryTypes: ['gc'] })
for (let i = 0; i < 20_000; i++) one()
const times = []
for (let round = 0; round < ROUNDS; round++) {
  const start = process.hrtime.bigint()
  for (let i = 0; i < PER_ROUND; i++) one()
  times.push(Number(process.hrtime.bigint() - start) / PER_ROUND / 1000)
  await new Promise((r) => setImmediate(r))
}
// Bytes: a few rounds of their own, each after a full collection, counted when none came in between.
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
const sorted = (a) => [...a].sort((x, y) => x - y)
const median = (a) => sorted(a)[a.length >> 1]
console.log(`${root}: ${ROUNDS} rounds of ${PER_ROUND}: µs per payment min ${sorted(times)[0].toFixed(2)} median ${median(times).toFixed(2)}; ` +
  `bytes allocated ${bytes.length ? median(bytes).toFixed(0) : '?'} (${bytes.length} rounds without a collection) [${sink > 0}]`)
await sandbox.close()
