/**
 * Exact arithmetic of order fills (CONTRACT.md section 15): quote paid rounds up, quote received
 * rounds down, fees round up, to the quote wallet's decimals. Prices are decimal strings; inside
 * they are integers scaled by 10^18. An order keeps the exact value of all its fills so far
 * (`quote_num` = Σ base units × scaled price × 10^quote decimals) and rounds the running total,
 * not each fill: the amounts of several fills add up to the rounded total, so a buy's lock (the
 * total at its limit price) always covers them, and rounding can never create money.
 */

import { formatAmount, PRICE_DECIMALS, scalePrice } from '../money.js'

// In money.ts, so that the store's book of resting orders sorts limits the way fills compare them.
export { PRICE_DECIMALS, scalePrice }

const PRICE_SCALE = 10n ** BigInt(PRICE_DECIMALS)
const BPS = 10_000n

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b
// Every fill asks for a few powers of ten: computed once (decimals are at most 18, prices' 18 too).
const POWERS = Array.from({ length: 2 * PRICE_DECIMALS + 1 }, (_, n) => 10n ** BigInt(n))
const pow10 = (n: number) => POWERS[n] ?? 10n ** BigInt(n)

/** What an order's decimals and fee rate make of exact values. */
export interface OrderScale {
  base_decimals: number
  quote_decimals: number
  fee_bps: number
}

/** The exact quote value of `baseUnits` at `price`, in the units `quote_num` counts. */
export const valueOf = (scale: OrderScale, baseUnits: bigint, price: string): bigint => baseUnits * scalePrice(price) * pow10(scale.quote_decimals)

const denominator = (scale: OrderScale) => pow10(scale.base_decimals) * PRICE_SCALE

/** Quote units of an exact value: rounded up when the customer pays, down when it receives. */
export const quoteUnits = (scale: OrderScale, num: bigint, side: 'buy' | 'sell'): bigint =>
  side === 'buy' ? ceilDiv(num, denominator(scale)) : num / denominator(scale)

/** The taker fee on an exact value, rounded up. */
export const feeUnits = (scale: OrderScale, num: bigint): bigint => ceilDiv(num * BigInt(scale.fee_bps), denominator(scale) * BPS)

/** The most a buy of an exact value costs: the quote paid plus its fee. */
export const buyCost = (scale: OrderScale, num: bigint): bigint => quoteUnits(scale, num, 'buy') + feeUnits(scale, num)

/** The average price of the fills, rendered with `decimals` (rounded down), or null before any fill. */
export function averagePrice(scale: OrderScale, num: bigint, filledUnits: bigint, decimals: number): string | null {
  if (filledUnits === 0n) return null
  const scaled = num / (filledUnits * pow10(scale.quote_decimals) * pow10(PRICE_DECIMALS - decimals))
  return renderScaled(scaled, decimals)
}

/** Integer units of 10^-decimals → a decimal string with at least two fraction digits (as an amount is rendered). */
export const renderScaled = (units: bigint, decimals: number): string => formatAmount(units, decimals)

/** A price string in its shortest form (`"3000.50"`, `"0.000123"`). */
export const normalisePrice = (price: string): string => renderScaled(scalePrice(price), PRICE_DECIMALS)
