import type { OrderRecord } from '../model/records.js'
import { buyCost, feeUnits, quoteUnits, scalePrice, valueOf } from './order-math.js'

/** What one fill of `amount` base units at `price` does to an order and its wallets (CONTRACT.md section 15). */
export interface FillPlan {
  /** Leaves the paying wallet's locked balance for the desk: quote (buy) or base (sell) units. */
  paid: bigint
  /** Arrives from the desk before the fee: base (buy) or quote (sell) units. */
  received: bigint
  fee: bigint
  /** What stays locked but is no longer needed (a buy filled below its limit), back to available. */
  release: bigint
  /** The order's fields after the fill. */
  next: Pick<OrderRecord, 'filled_units' | 'quote_num' | 'quote_units' | 'fee_units' | 'locked_units' | 'status'>
}

/** Does a tick's ask (buy) or bid (sell) reach the order's limit? */
export function crosses(order: Pick<OrderRecord, 'side' | 'limit_price'>, bid: string, ask: string): boolean {
  if (order.limit_price === null) return true
  const limit = scalePrice(order.limit_price)
  return order.side === 'buy' ? scalePrice(ask) <= limit : scalePrice(bid) >= limit
}

/**
 * The rounding rules applied to running totals: a buy pays ceil(total value) and ceil(total fee)
 * so far minus what it paid before; a sell receives floor(total value) minus what it received, and
 * its fee (ceil of the total) is taken out of that. What a buy keeps locked is what the remainder
 * could still cost at the limit; the rest is released. `price` must not be worse than the limit.
 */
export function planFill(order: OrderRecord, price: string, amount: bigint): FillPlan {
  const quote_num = order.quote_num + valueOf(order, amount, price)
  const filled_units = order.filled_units + amount
  const remaining = order.amount_units - filled_units
  const status = remaining === 0n ? 'filled' : 'partially_filled'
  if (order.side === 'buy') {
    const quote_units = quoteUnits(order, quote_num, 'buy')
    const fee_units = feeUnits(order, quote_num)
    const paid = quote_units - order.quote_units
    const fee = fee_units - order.fee_units
    const stillNeeded = remaining === 0n ? 0n : buyCost(order, quote_num + valueOf(order, remaining, order.limit_price ?? price)) - quote_units - fee_units
    const release = order.locked_units - paid - fee - stillNeeded
    if (release < 0n) throw new RangeError(`order ${order.id}: a fill at ${price} costs more than the order locked`)
    return { paid, received: amount, fee, release, next: { filled_units, quote_num, quote_units, fee_units, locked_units: stillNeeded, status } }
  }
  const quote_units = quoteUnits(order, quote_num, 'sell')
  const received = quote_units - order.quote_units
  // Never more fee than this fill brings in: a seller's wallet is never charged on top.
  const fee = minBig(feeUnits(order, quote_num) - order.fee_units, received)
  return { paid: amount, received, fee, release: 0n, next: { filled_units, quote_num, quote_units, fee_units: order.fee_units + fee, locked_units: order.locked_units - amount, status } }
}

const minBig = (a: bigint, b: bigint) => (a < b ? a : b)
