import type * as z from 'zod'
import type { OrderFill, OrderRecord } from '../model/records.js'
import { formatAmount, fractionDigits } from '../money.js'
import type { OrderFillSchema, OrderSchema } from '../schemas/order.js'
import { averagePrice } from './order-math.js'

type PresentedFill = z.input<typeof OrderFillSchema>

/**
 * An order's fills as presented, per stored order. A fill never changes once made and each new one
 * is appended (`[...order.fills, fill]`), so an order that fills on every tick would otherwise have
 * all its earlier fills rendered again for each event: with a few hundred fills, that was most of a
 * tick's time. `last` is the last fill rendered: where the list has it at the same place, it grew
 * by appends (render the new ones); otherwise it was replaced (a replayed journal decodes new fill
 * objects: render them all).
 */
interface RenderedFills {
  last: OrderFill | undefined
  fills: PresentedFill[]
  /** The most decimals of any fill's price (at least 2): what the average price is rendered with. */
  priceDecimals: number
}

const rendered = new WeakMap<OrderRecord, RenderedFills>()

function renderedFills(order: OrderRecord): RenderedFills {
  const cached = rendered.get(order)
  const { fills } = order
  const count = cached?.fills.length ?? 0
  if (cached && count <= fills.length && (count === 0 || fills[count - 1] === cached.last)) {
    for (let i = count; i < fills.length; i++) add(cached, order, fills[i]!)
    return cached
  }
  const fresh: RenderedFills = { last: undefined, fills: [], priceDecimals: 2 }
  for (const fill of fills) add(fresh, order, fill)
  rendered.set(order, fresh)
  return fresh
}

function add(into: RenderedFills, order: OrderRecord, fill: OrderFill): void {
  into.last = fill
  into.fills.push({ price: fill.price, amount: formatAmount(fill.amount, order.base_decimals), fee: formatAmount(fill.fee, order.quote_decimals), timestamp: fill.timestamp })
  into.priceDecimals = Math.max(into.priceDecimals, fractionDigits(fill.price))
}

/**
 * The wire shape of an order (CONTRACT.md section 15). Each answer gets its own `fills` array; the
 * fill objects in it are shared between the answers and events of one order, and nobody changes them.
 */
export function presentOrder(order: OrderRecord): z.input<typeof OrderSchema> {
  const base = (units: bigint) => formatAmount(units, order.base_decimals)
  const quote = (units: bigint) => formatAmount(units, order.quote_decimals)
  const fills = renderedFills(order)
  // An order that can no longer fill gets no fill to add: what was kept for it is let go.
  if (order.status !== 'open' && order.status !== 'partially_filled') rendered.delete(order)
  return {
    id: order.id,
    object: 'order' as const,
    pair: order.pair,
    side: order.side,
    type: order.type,
    status: order.status,
    amount: base(order.amount_units),
    filled_amount: base(order.filled_units),
    remaining_amount: base(order.amount_units - order.filled_units),
    limit_price: order.limit_price,
    // The average keeps as many decimals as the prices it averages.
    average_price: averagePrice(order, order.quote_num, order.filled_units, fills.priceDecimals),
    quote_amount: quote(order.quote_units),
    fee: quote(order.fee_units),
    fee_currency: order.quote,
    time_in_force: order.time_in_force,
    expires_at: order.expires_at,
    base_wallet: order.base_wallet,
    quote_wallet: order.quote_wallet,
    quote_id: order.quote_id,
    fills: fills.fills.slice(),
    reject_reason: order.reject_reason,
    metadata: { ...order.metadata },
    created_at: order.created_at,
    updated_at: order.updated_at,
    completed_at: order.completed_at,
  }
}
