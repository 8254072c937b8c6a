import { MAX_DECIMALS, USD } from './price-fixture.js'
import { magnitude, type Leg } from './price-walk.js'
import { isoOf } from '../date-text.js'

/**
 * One pair's quotes from the USD prices of its two legs: BASE/QUOTE is their ratio, rendered with
 * the pair's fixed decimals and spread either side; a pinned leg gives its fixed mid and spread
 * instead of its walk.
 */

/** One price of one pair at one time. Prices are decimal strings with the pair's fixed decimals. */
export interface Quote {
  readonly pair: string
  readonly price: string
  readonly bid: string
  readonly ask: string
  /** ISO 8601 UTC with milliseconds, of the time asked for. */
  readonly timestamp: string
}

/** A leg's USD mid and spread fixed by a price pin (`POST /_sandbox/prices`). */
export interface PinnedLeg {
  readonly price: number
  readonly spreadBp: number
}

/**
 * Pinned legs by asset code, for one account (or for every account); read on every quote, so a pin
 * shows at once. For an account without pins of its own it answers the very map it answers without
 * an account, which is how the model tells them apart.
 */
export type PinSource = (account?: string) => ReadonlyMap<string, PinnedLeg>

export interface PairModel {
  readonly pair: string
  readonly baseCode: string
  readonly quoteCode: string
  readonly base: Leg
  readonly quote: Leg
  readonly decimals: number
  readonly scale: number
  lastAt: number
  last: Quote | undefined
}

/** BASE/QUOTE of two legs of `legs`: its decimals follow the non-USD side's significant digits at the start prices. */
export function createPairModel(pair: string, baseCode: string, quoteCode: string, legs: ReadonlyMap<string, Leg>): PairModel {
  const base = legs.get(baseCode)!
  const quote = legs.get(quoteCode)!
  const significant = baseCode === USD ? quote.significantDigits : base.significantDigits
  const reference = base.startPrice / quote.startPrice
  const decimals = Math.min(MAX_DECIMALS, Math.max(0, significant - 1 - magnitude(reference)))
  return { pair, baseCode, quoteCode, base, quote, decimals, scale: 10 ** decimals, lastAt: Number.NaN, last: undefined }
}

/**
 * The pair's quote at `atMs` (fractions of a ms dropped; RangeError for a time that is not a valid
 * date), frozen, answered from the pair's one-entry cache when the same time is asked again in a row.
 */
export function quotePair(m: PairModel, atMs: number, pins: PinSource, account?: string): Quote {
  const at = Math.floor(atMs)
  if (!Number.isFinite(at) || Number.isNaN(new Date(at).getTime())) throw new RangeError(`Invalid time ${atMs}`)
  const pinned = pins(account)
  // A pinned quote is not cached: the pin may go before the same time is asked again.
  if (pinned.has(m.baseCode) || pinned.has(m.quoteCode)) return computeQuote(m, at, pinned)
  if (m.lastAt === at && m.last !== undefined) return m.last
  const result = computeQuote(m, at, pinned)
  m.lastAt = at
  m.last = result
  return result
}

function computeQuote(m: PairModel, atMs: number, pinned: ReadonlyMap<string, PinnedLeg>): Quote {
  const basePin = pinned.get(m.baseCode)
  const quotePin = pinned.get(m.quoteCode)
  const price = (basePin?.price ?? m.base.usd(atMs)) / (quotePin?.price ?? m.quote.usd(atMs))
  const halfSpread = ((basePin?.spreadBp ?? m.base.spreadBp) + (quotePin?.spreadBp ?? m.quote.spreadBp)) / 20_000
  // At least one unit of the last decimal either side, unless pins asked for no spread at all.
  const half = halfSpread === 0 ? 0 : Math.max(1, Math.round(price * halfSpread * m.scale))
  // Keeps the bid strictly positive however small a price gets.
  const units = Math.max(half + 1, Math.round(price * m.scale))
  return Object.freeze({
    pair: m.pair,
    price: renderUnits(units, m.decimals),
    bid: renderUnits(units - half, m.decimals),
    ask: renderUnits(units + half, m.decimals),
    timestamp: isoOf(atMs),
  })
}

/** Integer units of 10^-decimals → fixed-point decimal string, never with an exponent. */
function renderUnits(units: number, decimals: number): string {
  const digits = units.toFixed(0).padStart(decimals + 1, '0')
  if (decimals === 0) return digits
  return `${digits.slice(0, digits.length - decimals)}.${digits.slice(digits.length - decimals)}`
}
