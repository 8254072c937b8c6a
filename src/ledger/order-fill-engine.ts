import type { Clock } from '../clock.js'
import { ApiError } from '../errors.js'
import type { TradingPair, TradingPairs } from '../market/pairs.js'
import type { PriceModel } from '../market/prices.js'
import type { OrderRecord } from '../model/records.js'
import { formatAmount } from '../money.js'
import type { AccountState } from '../store/account-state.js'
import type { Change } from '../store/changes.js'
import { fill, release } from './balances.js'
import type { OrderCommit } from './order-commit.js'
import { assertOpen } from './order-endings.js'
import { crosses, planFill } from './order-fills.js'
import { normalisePrice, scalePrice } from './order-math.js'
import { parseAmountFor } from './wallets.js'

/**
 * The fills of an order (CONTRACT.md sections 15 and 19), with postings through the trading desk: at
 * a given price, against a price tick when it reaches a limit, or forced by the control API. The
 * amounts of a fill are `planFill`'s (`order-fills.ts`).
 */
export function createOrderFillEngine(deps: { clock: Clock; prices: PriceModel; pairs: TradingPairs; orderCommit: OrderCommit }) {
  const { clock, prices, pairs } = deps
  const { commit, copyOf } = deps.orderCommit

  const engine = {
    /**
     * Fills `amount` base units at `price` now: one transaction through the trading desk, another
     * releasing what a better price left locked. Callers check the amount and the price.
     */
    fill(account: AccountState, order: OrderRecord, amount: bigint, price: string): OrderRecord {
      const plan = planFill(order, price, amount)
      const now = clock.nowIso(account.account.id)
      const payer = copyOf(account, order.side === 'buy' ? order.quote_wallet : order.base_wallet)
      const receiver = copyOf(account, order.side === 'buy' ? order.base_wallet : order.quote_wallet)
      const changes: Change[] = []
      const reason = { ref: order.id, at: clock.now(account.account.id) }
      fill(account, { cause: 'order.filled', ...reason }, { payer, paid: plan.paid, receiver, received: plan.received, fee: plan.fee, side: order.side }, changes)
      if (plan.release > 0n) release(account, payer, plan.release, { cause: 'order.released', ...reason }, changes)
      const next: OrderRecord = {
        ...order,
        ...plan.next,
        fills: [...order.fills, { price, amount, fee: plan.fee, timestamp: now }],
        updated_at: now,
        completed_at: plan.next.status === 'filled' ? now : null,
      }
      commit(account, next, plan.next.status === 'filled' ? 'order.filled' : 'order.partially_filled', [payer, receiver], changes)
      return account.orders.get(order.id)!
    },

    /**
     * A limit order against the price at `atMs` (a tick, or its creation): fills up to the pair's
     * liquidity per tick when the ask (buy) or bid (sell) reaches its limit.
     */
    match(account: AccountState, order: OrderRecord, atMs: number): OrderRecord {
      const { bid, ask } = prices.quote(order.pair, atMs, account.account.id)
      if (!crosses(order, bid, ask)) return order
      const liquidity = liquidityOf(pairs.get(order.pair)!, order.base_decimals)
      const remaining = order.amount_units - order.filled_units
      return engine.fill(account, order, remaining < liquidity ? remaining : liquidity, order.side === 'buy' ? ask : bid)
    },

    /** `POST /_sandbox/orders/{id}/fill`: now, whatever the price, up to the remainder. */
    forceFill(account: AccountState, order: OrderRecord, amount: string | undefined, price: string | undefined): OrderRecord {
      assertOpen(order, 'be filled')
      const remaining = order.amount_units - order.filled_units
      const units = amount === undefined ? remaining : parseAmountFor(amount, order.base_decimals, `${order.base} (the base wallet)`)
      if (units > remaining) {
        throw new ApiError('parameter_invalid', `amount ${amount} is more than the order's remaining ${formatAmount(remaining, order.base_decimals)} ${order.base}.`, { param: 'amount' })
      }
      const now = prices.quote(order.pair, clock.now(account.account.id), account.account.id)
      const at = price === undefined ? (order.side === 'buy' ? now.ask : now.bid) : normalisePrice(price)
      if (order.side === 'buy' && order.limit_price !== null && scalePrice(at) > scalePrice(order.limit_price)) {
        throw new ApiError('parameter_invalid', `price ${at} is above the buy order's limit_price ${order.limit_price}; a fill never costs more than the limit.`, { param: 'price' })
      }
      if (order.side === 'sell' && order.limit_price !== null && scalePrice(at) < scalePrice(order.limit_price)) {
        throw new ApiError('parameter_invalid', `price ${at} is below the sell order's limit_price ${order.limit_price}; a fill never pays less than the limit.`, { param: 'price' })
      }
      return engine.fill(account, order, units, at)
    },
  }
  return engine
}

/** Per pair, its liquidity per tick in units of each number of decimals: asked for every fill on a tick. */
const liquidities = new WeakMap<TradingPair, bigint[]>()

/** The pair's liquidity per tick in the base wallet's units (extra decimals dropped, never below one unit). */
function liquidityOf(pair: TradingPair, decimals: number): bigint {
  let known = liquidities.get(pair)
  if (!known) liquidities.set(pair, (known = []))
  let units = known[decimals]
  if (units === undefined) {
    const [whole = '0', fraction = ''] = pair.liquidity_per_tick.split('.')
    units = BigInt(whole + fraction.slice(0, decimals).padEnd(decimals, '0'))
    if (units <= 0n) units = 1n
    known[decimals] = units
  }
  return units
}
