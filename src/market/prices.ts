import * as z from 'zod'
import { readFixture } from '../fixtures.js'
import { currencyDecimals, isWalletAsset } from '../model/currencies.js'
import { AMOUNT_PATTERN, fractionDigits } from '../money.js'
import { createRng } from '../rng.js'

/**
 * The deterministic price model behind the `prices` stream channel and `GET /v1/prices`.
 *
 * Every asset's USD price is `start_price · exp(X(t))` where X is a Brownian motion of the asset's
 * volatility that is pulled back to 0 every `reversion_seconds` (rounded down to 2^J seconds):
 *
 * - the time line is cut into blocks of 2^J seconds (aligned on the Unix epoch); at every block edge
 *   X takes an independent normal value of variance σ²·2^J/2, and inside a block X is the straight
 *   line between its two edge values plus a Brownian bridge;
 * - the bridge is built with Lévy's construction: one "tent" per level j = J … 1 of width 2^j seconds
 *   whose height is a normal shock of standard deviation σ·√(2^j)/2. A time lies in exactly one tent
 *   of each level, so X(t) costs J + 2 hashed normals, whatever t is: no iteration over earlier steps.
 *
 * Sampled on whole seconds this is an exact Brownian motion inside a block (linear between seconds), the
 * variance of X is σ²·2^J/2 at every time (so the price never drifts off), and every shock is a hash of
 * (seed, asset, level, index): prices are a pure function of the seed, the pair and the time.
 * Pegged assets (stablecoins) squeeze the same walk into `start_price · (1 ± peg_band)` with tanh.
 * A cross BASE/QUOTE is the ratio of the two USD prices; USD itself is always 1.
 *
 * Price pins (`POST /_sandbox/prices`) replace an asset's USD walk by a fixed mid and spread; every
 * pair with that leg follows. `cross` prices any two legs, listed as a pair or not.
 */

const SECONDS_PER_YEAR = 31_557_600
const MAX_DECIMALS = 12
const PAIR_PATTERN = /^([A-Z0-9]{2,12})\/([A-Z0-9]{2,12})$/
const USD = 'USD'

const AssetModelSchema = z.object({
  start_price: z.number().positive().finite(),
  volatility: z.number().min(0).max(5),
  reversion_seconds: z
    .number()
    .int()
    .min(2)
    .max(2 ** 30),
  peg_band_bp: z.number().positive().max(10_000).optional(),
  spread_bp: z.number().positive().max(10_000),
  decimals: z.number().int().min(0).max(MAX_DECIMALS),
})

const BaseAmount = z.string().regex(AMOUNT_PATTERN, 'expected a decimal string such as "0.01"').refine((value) => /[1-9]/.test(value), 'must be greater than zero')
const TradingPairFixtureSchema = z.strictObject({ min_amount: BaseAmount, liquidity_per_tick: BaseAmount })

export const PriceFixtureSchema = z
  .object({
    $comment: z.union([z.string(), z.array(z.string())]).optional(),
    pairs: z.array(z.string().regex(PAIR_PATTERN, 'a pair is BASE/QUOTE in upper case, e.g. ETH/USD')).min(1),
    assets: z.record(z.string().regex(/^[A-Z0-9]{2,12}$/), AssetModelSchema),
    /** Pairs whose two legs are wallet assets trade; each needs its order limits, in the base asset. */
    trading_pairs: z.record(z.string(), TradingPairFixtureSchema).default({}),
  })
  .superRefine((fixture, ctx) => {
    if (Object.hasOwn(fixture.assets, USD)) {
      ctx.addIssue({ code: 'custom', path: ['assets', USD], message: 'USD is the unit of account (always 1), not a modelled asset' })
    }
    const seen = new Set<string>()
    fixture.pairs.forEach((pair, index) => {
      if (seen.has(pair)) ctx.addIssue({ code: 'custom', path: ['pairs', index], message: `${pair} is listed twice` })
      seen.add(pair)
      const [base, quote] = pair.split('/') as [string, string]
      if (base === quote) ctx.addIssue({ code: 'custom', path: ['pairs', index], message: `${pair} quotes an asset against itself` })
      for (const leg of [base, quote]) {
        if (leg !== USD && !Object.hasOwn(fixture.assets, leg)) {
          ctx.addIssue({ code: 'custom', path: ['pairs', index], message: `${pair}: ${leg} is not in assets (nor USD)` })
        }
      }
      if (isWalletAsset(base) && isWalletAsset(quote) && !Object.hasOwn(fixture.trading_pairs, pair)) {
        ctx.addIssue({ code: 'custom', path: ['trading_pairs'], message: `${pair} trades (both legs are wallet assets) and needs an entry {min_amount, liquidity_per_tick}` })
      }
    })
    for (const [pair, limits] of Object.entries(fixture.trading_pairs)) {
      const [base = '', quote = ''] = pair.split('/')
      if (!seen.has(pair) || !isWalletAsset(base) || !isWalletAsset(quote)) {
        ctx.addIssue({ code: 'custom', path: ['trading_pairs', pair], message: `${pair} is not a listed pair whose two legs are wallet assets` })
        continue
      }
      const decimals = currencyDecimals(base)!
      for (const field of ['min_amount', 'liquidity_per_tick'] as const) {
        if (fractionDigits(limits[field]) > decimals) ctx.addIssue({ code: 'custom', path: ['trading_pairs', pair, field], message: `${base} amounts have at most ${decimals} decimals` })
      }
    }
  })

export type PriceFixture = z.output<typeof PriceFixtureSchema>
export type AssetModel = z.output<typeof AssetModelSchema>

/** One price of one pair at one time. Prices are decimal strings with the pair's fixed decimals. */
export interface Quote {
  readonly pair: string
  readonly price: string
  readonly bid: string
  readonly ask: string
  /** ISO 8601 UTC with milliseconds, of the time asked for. */
  readonly timestamp: string
}

export interface PriceModel {
  /** The pairs served, in fixture order. */
  readonly pairs: readonly string[]
  /** Exact, case-sensitive: `ETH/USD` is a pair, `eth/usd` is not. */
  isPair(pair: string): boolean
  /** Decimals the pair's prices are rendered with; undefined for an unknown pair. */
  decimals(pair: string): number | undefined
  /**
   * The pair's quote at sandbox time `atMs` (ms since the epoch; fractions of a ms are dropped).
   * Throws RangeError for an unknown pair or a time that is not a valid date. The result is frozen;
   * the same (pair, time) asked again in a row is answered from a one-entry cache per pair.
   */
  quote(pair: string, atMs: number): Quote
  /** USD and every asset of the fixture: the legs `cross` takes. */
  readonly currencies: readonly string[]
  /**
   * BASE/QUOTE for any two different legs, listed as a pair or not (EUR/ETH is priced through USD,
   * with the listed pairs' rules for decimals and spread). RangeError for an unknown leg or time.
   */
  cross(base: string, quote: string, atMs: number): Quote
  /** Decimals `cross(base, quote)` renders with; undefined for an unknown leg. */
  crossDecimals(base: string, quote: string): number | undefined
  /** An asset's spread in the fixture (bp); undefined for USD and unknown codes. */
  spreadBp(code: string): number | undefined
}

/** Reads and validates `prices.json` of `fixturesDir` (FixturesError naming the file and problem). */
export function readPriceFixture(fixturesDir: string): PriceFixture {
  return readFixture(fixturesDir, 'prices.json', PriceFixtureSchema)
}

/** `readPriceFixture` + `createPriceModel`. */
export function loadPriceModel(fixturesDir: string, seed: string, pins?: PinSource): PriceModel {
  return createPriceModel(readPriceFixture(fixturesDir), seed, pins)
}

// ---------------------------------------------------------------------------------------------------
// Hashing: a 32-bit integer finaliser (xorshift-multiply rounds), keyed per asset from the seeded rng.

function mix32(x: number): number {
  x ^= x >>> 16
  x = Math.imul(x, 0x7feb352d)
  x ^= x >>> 15
  x = Math.imul(x, 0x846ca68b)
  x ^= x >>> 16
  return x >>> 0
}

const TWO_POW_32 = 4294967296
const TWO_PI = 2 * Math.PI
/** Level tag of the block-edge values, apart from the tent levels 1 … 30. */
const EDGE_LEVEL = 63

/** A standard normal, a pure function of (key, level, index) (Box-Muller on two hashed uniforms). */
function hashedNormal(k0: number, k1: number, k2: number, k3: number, level: number, index: number): number {
  const lo = index >>> 0
  const hi = Math.floor(index / TWO_POW_32) | 0
  let h = mix32(k0 ^ Math.imul(level + 1, 0x9e3779b9))
  h = mix32(h ^ lo)
  h = mix32(h ^ hi ^ k1)
  const a = mix32(h ^ k2)
  const b = mix32(h ^ k3)
  return Math.sqrt(-2 * Math.log((a + 0.5) / TWO_POW_32)) * Math.cos((TWO_PI * b) / TWO_POW_32)
}

interface Leg {
  /** Price in USD at `atMs` (integer ms), before rounding. */
  usd(atMs: number): number
  readonly startPrice: number
  readonly spreadBp: number
  /** Significant digits of the ASSET/USD rendering. */
  readonly significantDigits: number
}

const USD_LEG: Leg = { usd: () => 1, startPrice: 1, spreadBp: 0, significantDigits: 6 }

function magnitude(value: number): number {
  // log10 of 1000 may come out as 2.9999999999999996; nudge before flooring.
  return Math.floor(Math.log10(value) + 1e-12)
}

function createLeg(seed: string, code: string, model: AssetModel): Leg {
  const rng = createRng(seed, 'prices', code)
  const k0 = rng.uint32()
  const k1 = rng.uint32()
  const k2 = rng.uint32()
  const k3 = rng.uint32()
  const top = Math.min(30, Math.floor(Math.log2(model.reversion_seconds)))
  const sigmaPerSqrtSecond = model.volatility / Math.sqrt(SECONDS_PER_YEAR)
  const blockMs = 2 ** top * 1000
  const edgeStd = sigmaPerSqrtSecond * Math.sqrt(2 ** top / 2)
  // Level j (1 … top): tents of width 2^j s, height std σ·√(2^j)/2.
  const widthsMs = new Float64Array(top + 1)
  const amplitudes = new Float64Array(top + 1)
  for (let j = 1; j <= top; j++) {
    widthsMs[j] = 2 ** j * 1000
    amplitudes[j] = (sigmaPerSqrtSecond * Math.sqrt(2 ** j)) / 2
  }
  const logDeviation = (atMs: number): number => {
    const block = Math.floor(atMs / blockMs)
    const u = (atMs - block * blockMs) / blockMs
    const left = hashedNormal(k0, k1, k2, k3, EDGE_LEVEL, block)
    const right = hashedNormal(k0, k1, k2, k3, EDGE_LEVEL, block + 1)
    let x = edgeStd * (left + (right - left) * u)
    for (let j = top; j >= 1; j--) {
      const width = widthsMs[j]!
      const cell = Math.floor(atMs / width)
      const v = (atMs - cell * width) / width
      const tent = 1 - Math.abs(2 * v - 1)
      if (tent > 0) x += amplitudes[j]! * tent * hashedNormal(k0, k1, k2, k3, j, cell)
    }
    return x
  }
  const start = model.start_price
  const band = model.peg_band_bp === undefined ? undefined : model.peg_band_bp / 10_000
  const usd =
    band === undefined
      ? (atMs: number) => start * Math.exp(logDeviation(atMs))
      : (atMs: number) => start * (1 + band * Math.tanh(logDeviation(atMs) / band))
  return {
    usd,
    startPrice: start,
    spreadBp: model.spread_bp,
    significantDigits: model.decimals + magnitude(start) + 1,
  }
}

/** Integer units of 10^-decimals → fixed-point decimal string, never with an exponent. */
function renderUnits(units: number, decimals: number): string {
  const digits = units.toFixed(0).padStart(decimals + 1, '0')
  if (decimals === 0) return digits
  return `${digits.slice(0, digits.length - decimals)}.${digits.slice(digits.length - decimals)}`
}

interface PairModel {
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

/** A leg's USD mid and spread fixed by a price pin (`POST /_sandbox/prices`). */
export interface PinnedLeg {
  readonly price: number
  readonly spreadBp: number
}

/** Pinned legs by asset code; read on every quote, so a pin shows at once. */
export type PinSource = () => ReadonlyMap<string, PinnedLeg>

const NO_PINS_MAP: ReadonlyMap<string, PinnedLeg> = new Map()
const NO_PINS: PinSource = () => NO_PINS_MAP

/** The model for `fixture` under `seed`: a pure function of (seed, pair, time) and the pins. */
export function createPriceModel(fixture: PriceFixture, seed: string, pins: PinSource = NO_PINS): PriceModel {
  const parsed = PriceFixtureSchema.parse(fixture)
  const legs = new Map<string, Leg>([[USD, USD_LEG]])
  for (const [code, model] of Object.entries(parsed.assets)) legs.set(code, createLeg(seed, code, model))

  const pairModel = (pair: string, baseCode: string, quoteCode: string): PairModel => {
    const base = legs.get(baseCode)!
    const quote = legs.get(quoteCode)!
    const significant = baseCode === USD ? quote.significantDigits : base.significantDigits
    const reference = base.startPrice / quote.startPrice
    const decimals = Math.min(MAX_DECIMALS, Math.max(0, significant - 1 - magnitude(reference)))
    return { pair, baseCode, quoteCode, base, quote, decimals, scale: 10 ** decimals, lastAt: Number.NaN, last: undefined }
  }
  const models = new Map<string, PairModel>()
  for (const pair of parsed.pairs) {
    const [baseCode, quoteCode] = pair.split('/') as [string, string]
    models.set(pair, pairModel(pair, baseCode, quoteCode))
  }
  /** Pairs that are not listed, built on first use (at most legs² of them). */
  const crosses = new Map<string, PairModel>()
  const pairs = Object.freeze([...parsed.pairs])
  const currencies = Object.freeze([...legs.keys()])

  const compute = (m: PairModel, atMs: number, pinned: ReadonlyMap<string, PinnedLeg>): Quote => {
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
      timestamp: new Date(atMs).toISOString(),
    })
  }

  const quoteOf = (m: PairModel, atMs: number): Quote => {
    const at = Math.floor(atMs)
    if (!Number.isFinite(at) || Number.isNaN(new Date(at).getTime())) throw new RangeError(`Invalid time ${atMs}`)
    const pinned = pins()
    // A pinned quote is not cached: the pin may go before the same time is asked again.
    if (pinned.has(m.baseCode) || pinned.has(m.quoteCode)) return compute(m, at, pinned)
    if (m.lastAt === at && m.last !== undefined) return m.last
    const result = compute(m, at, pinned)
    m.lastAt = at
    m.last = result
    return result
  }

  const crossModel = (base: string, quote: string): PairModel | undefined => {
    if (!legs.has(base) || !legs.has(quote) || base === quote) return undefined
    const pair = `${base}/${quote}`
    const listed = models.get(pair) ?? crosses.get(pair)
    if (listed) return listed
    const created = pairModel(pair, base, quote)
    crosses.set(pair, created)
    return created
  }

  return {
    pairs,
    currencies,
    isPair: (pair) => models.has(pair),
    decimals: (pair) => models.get(pair)?.decimals,
    crossDecimals: (base, quote) => crossModel(base, quote)?.decimals,
    spreadBp: (code) => (code === USD ? undefined : legs.get(code)?.spreadBp),
    quote(pair, atMs) {
      const m = models.get(pair)
      if (m === undefined) throw new RangeError(`Unknown pair ${JSON.stringify(pair)}; valid pairs: ${pairs.join(', ')}`)
      return quoteOf(m, atMs)
    },
    cross(base, quote, atMs) {
      const m = crossModel(base, quote)
      if (m === undefined) throw new RangeError(`Cannot price ${base}/${quote}; known currencies: ${currencies.join(', ')}`)
      return quoteOf(m, atMs)
    },
  }
}
