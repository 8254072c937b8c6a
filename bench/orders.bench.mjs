// Orders (issue 22's targets): the cost of one price tick of the sandbox clock, which every other
// request waits behind. In process, on a manual clock, without HTTP: the tick is what
// `POST /_sandbox/clock/advance` runs per price interval (the ticker and the order matching).
//
// - 1,000 orders that fill on every tick (limits the price always crosses, amounts that take more
//   ticks than the run has): each tick makes 1,000 fills, each a transaction through the trading
//   desk, a release, a change set and an event carrying the order with all its fills so far (so
//   the events grow: by the last tick each order has as many fills as there were ticks).
//   Target ≤ 50 ms. The same again with `--data-file` (the journal on, batched), and with a
//   subscriber to the `orders` channel (in a process of its own: orders-stream-client.mjs), each
//   event then also a frame on a socket; shown beside it.
// - 10,000 orders that rest (limits the price never reaches on either side): a tick fills nothing
//   and should touch none of them. Target ≤ 5 ms.
// Half of each book buys and half sells, over every trading pair of the default account. The
// process's CPU time per tick is shown too: on a shared machine it moves less than the wall clock.
//
// Knobs: BENCH_FILLING (1,000), BENCH_RESTING (10,000), BENCH_TICKS (200), BENCH_BOOKS (some of
// fill,journal,stream,rest; all by default), BENCH_STRICT=1 (exit 1 when a target is missed).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fork } from 'node:child_process'
import { loadConfig } from '../dist/config.js'
import { createSandbox } from '../dist/sandbox.js'
import { silentLogger } from '../dist/logger.js'
import { fixed, percentile, printTable } from './lib.mjs'

const FILLING = Number(process.env.BENCH_FILLING ?? 1_000)
const RESTING = Number(process.env.BENCH_RESTING ?? 10_000)
const TICKS = Number(process.env.BENCH_TICKS ?? 200)

const DEFAULT_KEY = 'sk_test_sandbox_default_key'

/** A subscriber to the `orders` channel in another process; resolves once it has its snapshot. */
function subscribe(url) {
  const child = fork(new URL('./orders-stream-client.mjs', import.meta.url), [url, DEFAULT_KEY])
  const next = () => new Promise((resolve, reject) => child.once('message', (message) => (message.error ? reject(new Error(message.error)) : resolve(message))))
  return next().then(() => ({
    /** What it got so far: frames, bytes, and the close code if the sandbox closed it. */
    report: () => (child.send('report'), next()),
    stop: () => child.kill(),
  }))
}

/** Waits until the subscriber has stopped receiving (the sandbox has sent everything it will). */
async function settle(subscriber) {
  let last = await subscriber.report()
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 200))
    const now = await subscriber.report()
    if (now.frames === last.frames || now.closed !== null) return now
    last = now
  }
}

/** Places `count` orders, then runs TICKS ticks; the time of each tick (ms) and the fills it made. */
async function runBook({ count, crossing, dataFile, stream }) {
  const folder = dataFile ? mkdtempSync(join(tmpdir(), 'bench-orders-')) : undefined
  const flags = { port: 0, quiet: true, settle: 'manual', rateLimit: 0, clock: 'manual', seed: 'bench-orders', ...(folder ? { dataFile: join(folder, 'data.jsonl') } : {}) }
  const config = loadConfig({ flags })
  const sandbox = await createSandbox(config, { logger: silentLogger })
  try {
    const { services, store, clock, pairs, prices, bus } = sandbox
    const account = store.accounts.get('acct_sandboxDefaultAccount000')
    const walletOf = (currency) => [...account.wallets.values()].find((w) => w.currency === currency && w.network === 'ethereum') ?? [...account.wallets.values()].find((w) => w.currency === currency)
    for (const currency of ['ETH', 'SOL', 'MATIC', 'XLM', 'USDC', 'USDT']) services.wallets.deposit(account, walletOf(currency).id, '10000000000000', undefined)

    const all = pairs.all
    const started = performance.now()
    for (let i = 0; i < count; i++) {
      const pair = all[i % all.length]
      const side = Math.floor(i / all.length) % 2 === 0 ? 'buy' : 'sell'
      const { price } = prices.quote(pair.pair, clock.now())
      // Crossing: a buy at twice the price, a sell at half, for more than the run's ticks of liquidity.
      // Resting: a buy between 30 % and 60 % of the price, a sell between 1.7 and 3.4 times it, one tick's liquidity.
      const spread = (i % 97) / 97
      const factor = crossing ? (side === 'buy' ? 2 : 0.5) : side === 'buy' ? 0.3 + 0.3 * spread : 1.7 + 1.7 * spread
      const limit = (Number(price) * factor).toFixed(6)
      const amount = String(Number(pair.liquidity_per_tick) * (crossing ? TICKS + 10 : 1))
      services.orders.create(account, { pair: pair.pair, side, type: 'limit', amount, limit_price: limit, time_in_force: 'gtc', base_wallet: walletOf(pair.base).id, quote_wallet: walletOf(pair.quote).id, metadata: {} })
    }
    const placeMs = performance.now() - started
    let subscriber
    if (stream) {
      const { url } = await sandbox.listen()
      subscriber = await subscribe(`${url.replace(/^http/, 'ws')}/v1/stream`)
    }

    let fills = 0
    let events = 0
    const countFills = (notification) => {
      events++
      if (notification.event === 'order.partially_filled' || notification.event === 'order.filled') fills++
    }
    bus.on('order', countFills)
    const perTick = []
    const cpuPerTick = []
    const fillsPerTick = []
    for (let i = 0; i < TICKS; i++) {
      fills = 0
      const cpu = process.cpuUsage()
      const t = performance.now()
      await clock.advance(config.priceInterval)
      perTick.push(performance.now() - t)
      const used = process.cpuUsage(cpu)
      cpuPerTick.push((used.user + used.system) / 1000)
      fillsPerTick.push(fills)
      // Between ticks (untimed), the sockets write what the tick queued.
      if (subscriber) await new Promise((resolve) => setImmediate(resolve))
    }
    bus.off('order', countFills)
    let received
    if (subscriber) {
      received = { events, ...(await settle(subscriber)) }
      await subscriber.stop()
    }
    return { placeMs, perTick, cpuPerTick, fillsPerTick, received, open: account.orders.openCount() }
  } finally {
    await sandbox.close()
    if (folder) rmSync(folder, { recursive: true, force: true })
  }
}

const BOOKS = [
  { id: 'fill', name: `${FILLING} orders fill on every tick`, count: FILLING, crossing: true, target: 50 },
  { id: 'journal', name: `${FILLING} orders fill on every tick, --data-file`, count: FILLING, crossing: true, dataFile: true, target: 50 },
  { id: 'stream', name: `${FILLING} orders fill on every tick, orders channel`, count: FILLING, crossing: true, stream: true, target: 50 },
  { id: 'rest', name: `${RESTING} orders rest`, count: RESTING, crossing: false, target: 5 },
].filter((book) => !process.env.BENCH_BOOKS || process.env.BENCH_BOOKS.split(',').includes(book.id))

let missed = 0
const rows = []
const notes = []
for (const book of BOOKS) {
  const { placeMs, perTick, cpuPerTick, fillsPerTick, received, open } = await runBook(book)
  if (received) {
    // The acknowledgement and the snapshot came before the ticks.
    const frames = received.frames - 2
    notes.push(`${book.name}: the subscriber got ${frames} of the ticks' ${received.events} order events (${fixed(received.bytes / 1e6, 1)} MB)${received.closed === null ? '' : `, then was closed (${received.closed})`}`)
    if (frames !== received.events) missed++
  }
  const median = percentile(perTick, 50)
  const ok = median <= book.target
  if (!ok) missed++
  const fillsMedian = percentile(fillsPerTick, 50)
  rows.push([book.name, book.count, open, fixed(book.count / (placeMs / 1000), 0), fillsMedian, fixed(median, 2), fixed(percentile(perTick, 99), 2), fixed(Math.max(...perTick), 2), fixed(percentile(cpuPerTick, 50), 2), `≤ ${book.target}`, ok ? 'pass' : 'MISSED'])
}
printTable(
  `Orders: one price tick of the sandbox clock, ${TICKS} ticks per book (in process, manual clock, target on the median; node ${process.version})`,
  ['book', 'orders', 'open after', 'placed/s', 'fills/tick', 'median ms', 'p99 ms', 'max ms', 'CPU median ms', 'target ms', 'result'],
  rows,
)
for (const note of notes) console.log(note)
if (missed > 0 && process.env.BENCH_STRICT === '1') process.exit(1)
