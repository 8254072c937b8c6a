import type { Metadata } from './metadata.js'

/** Quotes and orders (CONTRACT.md section 15). */

export type QuoteStatus = 'active' | 'used' | 'expired'

/**
 * A price promise (CONTRACT.md section 15). Its status is not stored: `used_at` and the sandbox
 * clock against `expires_at` decide it (src/ledger/quotes.ts).
 */
export interface QuoteRecord {
  id: string
  source_currency: string
  destination_currency: string
  /** Decimal strings in each currency's amount decimals (src/model/currencies.ts). */
  source_amount: string
  destination_amount: string
  /** Destination units per source unit, on the side against the customer. */
  rate: string
  fee_amount: string
  fee_currency: string
  /** The pair whose bid or ask gave the rate (`ETH/USDC`), and the customer's side of it. */
  pair: string
  side: 'buy' | 'sell'
  /** That bid or ask, in the pair's quote currency per base unit. */
  price: string
  expires_at: string
  created_at: string
  used_at: string | null
  /** The id of what used it (an order or a settlement). */
  used_by: string | null
}

export type OrderSide = 'buy' | 'sell'
export type OrderType = 'market' | 'limit'
export type TimeInForce = 'gtc' | 'ioc' | 'gtd'
export type OrderStatus = 'open' | 'partially_filled' | 'filled' | 'cancelled' | 'expired' | 'rejected'

export interface OrderFill {
  /** The tick's ask (buy) or bid (sell), as the feed rendered it. */
  price: string
  /** Base units. */
  amount: bigint
  /** Quote units charged as the taker fee of this fill. */
  fee: bigint
  timestamp: string
}

/**
 * An order to exchange the pair's base against its quote currency (CONTRACT.md section 15). Money
 * amounts are base units of the order's wallets; `quote_num` keeps the exact quote value of all
 * fills so far, so that rounding happens once on the total and never drifts (ledger/order-math.ts).
 */
export interface OrderRecord {
  id: string
  /** Creation order within the account; indexes are sorted on it. */
  seq: number
  pair: string
  base: string
  quote: string
  side: OrderSide
  type: OrderType
  status: OrderStatus
  time_in_force: TimeInForce
  /** In the base wallet's units. */
  amount_units: bigint
  filled_units: bigint
  /** Normalised decimal string; null for market orders. */
  limit_price: string | null
  expires_at: string | null
  base_wallet: string
  quote_wallet: string
  base_decimals: number
  quote_decimals: number
  quote_id: string | null
  /** The taker fee in basis points when the order was placed (a restart with another --trading-fee-bps keeps it). */
  fee_bps: number
  /** Σ fill amount × price, scaled (ledger/order-math.ts). */
  quote_num: bigint
  /** Quote units paid (buy, rounded up) or received before the fee (sell, rounded down) so far. */
  quote_units: bigint
  fee_units: bigint
  /** Still locked for the order: quote units in the quote wallet (buy), base units in the base wallet (sell). */
  locked_units: bigint
  fills: OrderFill[]
  reject_reason: string | null
  metadata: Metadata
  created_at: string
  updated_at: string
  completed_at: string | null
}
