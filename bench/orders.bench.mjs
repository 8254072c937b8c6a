// Orders (issue 13's target): the cost of one price tick with 1,000 open limit orders across the
// trading pairs (target ≤ 5 ms), and the rate at which the ledger places orders. In process, on a
// manual clock, in memory: the tick is what `POST /_sandbox/clock/advance` runs per price interval
// (the ticker and the order matching), without HTTP. Two books: orders that rest (their limits far
// from the price: each tick checks them all) and orders that cross on every tick (each tick fills
// them all, one transaction and one event each).
//
// Knobs: BENCH_ORDERS (1,000), BENCH_TICKS (200), BENCH_STRICT=1 (exit 1 when the target is missed).
import { loadConfig } from '../dist/config.js'
import { createSandbox } from '../dist/sandbox.js'
import { silentLogger } from '../dist/logger.js'
import { fixed, percentile, printTable } from './lib.mjs'

const ORDERS = Number(process.env.BENCH_ORDERS ?? 1_000)
const TICKS = Number(process.env.BENCH_TICKS ?? 200)
const TARGET_MS = 5

async function book(crossing) {
  const config = loadConfig({ flags: { port: 0, quiet: true, settle: 'manual', rateLimit: 0, clock: 'manual', seed: 'bench-orders' } })
  const sandbox = await createSandbox(config, { logger: silentLogger })
  const { services, store, clock, pairs, prices } = sandbox
  const account = store.accounts.get('acct_sandboxDefaultAccount000')
  const walletOf = (currency) => [...account.wallets.values()].find((w) => w.currency === currency && w.network === 'ethereum') ?? [...account.wallets.values()].find((w) => w.currency === currency)
  for (const currency of ['ETH', 'SOL', 'MATIC', 'XLM', 'USDC', 'USDT']) services.wallets.deposit(account, walletOf(currency).id, '10000000000000', undefined)

  const all = pairs.all
  const started = performance.now()
  for (let i = 0; i < ORDERS; i++) {
    const pair = all[i % all.length]
    const { price } = prices.quote(pair.pair, clock.now())
    // Resting: half the price (never reached). Crossing: twice the price, a tiny amount that fills over many ticks.
    const limit = (Number(price) * (crossing ? 2 : 0.5)).toFixed(6)
    const amount = String(Number(pair.liquidity_per_tick) * (crossing ? TICKS + 10 : 1))
    services.orders.create(account, { pair: pair.pair, side: 'buy', type: 'limit', amount, limit_price: limit, time_in_force: 'gtc', base_wallet: walletOf(pair.base).id, quote_wallet: walletOf(pair.quote).id, metadata: {} })
  }
  const placeMs = performance.now() - started

  const perTick = []
  for (let i = 0; i < TICKS; i++) {
    const t = performance.now()
    await clock.advance(config.priceInterval)
    perTick.push(performance.now() - t)
  }
  const open = account.orders.open().length
  await sandbox.close()
  return { placeMs, perTick, open }
}

let missed = 0
const rows = []
for (const crossing of [false, true]) {
  const { placeMs, perTick, open } = await book(crossing)
  const median = percentile(perTick, 50)
  const ok = median <= TARGET_MS
  if (!ok) missed++
  rows.push([crossing ? 'every order fills each tick' : 'orders rest (checked)', ORDERS, open, fixed(ORDERS / (placeMs / 1000), 0), fixed(median, 2), fixed(percentile(perTick, 90), 2), `≤ ${TARGET_MS}`, ok ? 'ok' : 'MISSED'])
}
printTable(
  `Orders: ${ORDERS} open limit orders across the trading pairs, ${TICKS} ticks (in process, manual clock; node ${process.version})`,
  ['book', 'orders', 'open after', 'placed/s (ledger)', 'tick median ms', 'tick p90 ms', 'target', 'result'],
  rows,
)
if (missed > 0 && process.env.BENCH_STRICT === '1') process.exit(1)
