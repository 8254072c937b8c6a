import type * as z from 'zod'
import type { OrderRecord } from '../model/records.js'
import { formatAmount, fractionDigits } from '../money.js'
import type { OrderSchema } from '../schemas/order.js'
import { averagePrice } from './order-math.js'

/** The wire shape of an order (CONTRACT.md section 15). */
export function presentOrder(order: OrderRecord): z.input<typeof OrderSchema> {
  const base = (units: bigint) => formatAmount(units, order.base_decimals)
  const quote = (units: bigint) => formatAmount(units, order.quote_decimals)
  // The average keeps as many decimals as the prices it averages.
  const priceDecimals = Math.max(2, ...order.fills.map((fill) => fractionDigits(fill.price)))
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
    average_price: averagePrice(order, order.quote_num, order.filled_units, priceDecimals),
    quote_amount: quote(order.quote_units),
    fee: quote(order.fee_units),
    fee_currency: order.quote,
    time_in_force: order.time_in_force,
    expires_at: order.expires_at,
    base_wallet: order.base_wallet,
    quote_wallet: order.quote_wallet,
    quote_id: order.quote_id,
    fills: order.fills.map((fill) => ({ price: fill.price, amount: base(fill.amount), fee: quote(fill.fee), timestamp: fill.timestamp })),
    reject_reason: order.reject_reason,
    metadata: { ...order.metadata },
    created_at: order.created_at,
    updated_at: order.updated_at,
    completed_at: order.completed_at,
  }
}
