import type { PriceModel } from './prices.js'

/**
 * Prices on the customer's side and exact conversions between currencies. Amounts are integer base
 * units (bigint) with their decimals; prices and rates are decimal strings as the feed renders them.
 * Every rounding is against the customer, so the sandbox never creates money: what the customer
 * receives rounds down, what it pays rounds up.
 */

export type Rounding = 'up' | 'down'

/**
 * An inverted rate (1 / ask) keeps this many decimals more than the feed would render SOURCE/DESTINATION
 * with: rounding it down then costs the customer about a millionth of a millionth, not a millionth.
 */
const INVERSE_EXTRA_DECIMALS = 6

/** The price a conversion from `source` to `destination` gets at one sandbox instant. */
export interface SidedPrice {
  /** The pair whose bid or ask applies: as the feed lists it (`ETH/USDC`), or `SOURCE/DESTINATION` when neither order is listed. */
  readonly pair: string
  /** `sell`: the source is the pair's base and the customer gets the bid; `buy`: the destination is the base and the customer pays the ask. */
  readonly side: 'buy' | 'sell'
  /** The bid (sell) or ask (buy), in the pair's quote currency per unit of its base. */
  readonly price: string
  /** Destination units per source unit: the bid (sell), or 1 / ask rounded down to 6 decimals more than the feed gives SOURCE/DESTINATION (buy). */
  readonly rate: string
  /** The instant priced (ISO 8601 with ms). */
  readonly timestamp: string
}

/**
 * The side against the customer (CONTRACT.md section 15): selling a base gets the bid, buying one
 * pays the ask. Two currencies that the feed does not list as a pair in either order are priced as
 * SOURCE/DESTINATION through their USD legs, and the customer sells at its bid. RangeError for a
 * currency the model does not price or a source equal to the destination.
 */
export function sidedPrice(model: PriceModel, source: string, destination: string, atMs: number, account?: string): SidedPrice {
  const reversed = `${destination}/${source}`
  if (!model.isPair(`${source}/${destination}`) && model.isPair(reversed)) {
    const quote = model.quote(reversed, atMs, account)
    const decimals = model.crossDecimals(source, destination)! + INVERSE_EXTRA_DECIMALS
    return { pair: reversed, side: 'buy', price: quote.ask, rate: renderFixed(divideDecimal(1n, 0, quote.ask, decimals, 'down'), decimals), timestamp: quote.timestamp }
  }
  const quote = model.cross(source, destination, atMs, account)
  return { pair: quote.pair, side: 'sell', price: quote.bid, rate: quote.bid, timestamp: quote.timestamp }
}

/**
 * What `sourceUnits` of the source buy at `priced`, in destination base units, rounded down: × bid
 * when the customer sells the base, ÷ ask when it buys the base. Exact: from the price, not the
 * rounded rate.
 */
export function destinationUnitsFor(priced: SidedPrice, sourceUnits: bigint, sourceDecimals: number, destinationDecimals: number): bigint {
  return priced.side === 'sell'
    ? convertAmount(sourceUnits, sourceDecimals, priced.price, destinationDecimals, 'down')
    : divideDecimal(sourceUnits, sourceDecimals, priced.price, destinationDecimals, 'down')
}

/** The fewest source base units that yield at least `destinationUnits` at `priced` (what the customer pays, rounded up). */
export function sourceUnitsFor(priced: SidedPrice, destinationUnits: bigint, destinationDecimals: number, sourceDecimals: number): bigint {
  return priced.side === 'sell'
    ? divideDecimal(destinationUnits, destinationDecimals, priced.price, sourceDecimals, 'up')
    : convertAmount(destinationUnits, destinationDecimals, priced.price, sourceDecimals, 'up')
}

/** `units` (with `decimals`) × `price`, to `toDecimals`, rounded as asked: the quote-currency amount of a base amount. */
export function convertAmount(units: bigint, decimals: number, price: string, toDecimals: number, rounding: Rounding): bigint {
  const p = parseDecimal(price)
  return divide(units * p.units * 10n ** BigInt(toDecimals), 10n ** BigInt(decimals + p.decimals), rounding)
}

/** A fee of `bps` basis points of `units`, rounded up (at least one base unit of a non-zero amount when bps > 0). */
export const feeUnits = (units: bigint, bps: number): bigint => divide(units * BigInt(bps), 10_000n, 'up')

/** `units` (with `decimals`) / `price`, to `toDecimals`, rounded as asked. */
export function divideDecimal(units: bigint, decimals: number, price: string, toDecimals: number, rounding: Rounding): bigint {
  const p = parseDecimal(price)
  return divide(units * 10n ** BigInt(toDecimals + p.decimals), p.units * 10n ** BigInt(decimals), rounding)
}

/** A non-negative decimal string as integer units and the count of its fraction digits. */
export function parseDecimal(value: string): { units: bigint; decimals: number } {
  const [whole = '0', fraction = ''] = value.split('.')
  return { units: BigInt(whole + fraction), decimals: fraction.length }
}

/** Units with exactly `decimals` fraction digits (prices and rates keep a fixed width, as the feed renders them). */
export function renderFixed(units: bigint, decimals: number): string {
  const digits = units.toString().padStart(decimals + 1, '0')
  return decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`
}

function divide(numerator: bigint, denominator: bigint, rounding: Rounding): bigint {
  const quotient = numerator / denominator
  return rounding === 'up' && quotient * denominator !== numerator ? quotient + 1n : quotient
}
