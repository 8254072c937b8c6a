import { readPriceFixture, USD, type PriceFixture } from './price-fixture.js'
import { createLeg, USD_LEG, type Leg } from './price-walk.js'
import { lazily } from '../lazily.js'
import { createPairModel, quotePair, type PairModel, type PinnedLeg, type PinSource, type Quote } from './pair-quotes.js'

/**
 * The deterministic price model behind the `prices` stream channel and `GET /v1/prices`: each
 * asset's USD price follows its own walk (`price-walk.ts`), a pure function of the seed, the asset
 * and the time. A cross BASE/QUOTE is the ratio of the two USD prices (`pair-quotes.ts`); USD itself
 * is always 1.
 *
 * Price pins (`POST /_sandbox/prices`) replace an asset's USD walk by a fixed mid and spread; every
 * pair with that leg follows. `cross` prices any two legs, listed as a pair or not.
 */

export interface PriceModel {
  /** The pairs served, in fixture order. */
  readonly pairs: readonly string[]
  /** Exact, case-sensitive: `ETH/USD` is a pair, `eth/usd` is not. */
  isPair(pair: string): boolean
  /** Decimals the pair's prices are rendered with; undefined for an unknown pair. */
  decimals(pair: string): number | undefined
  /**
   * The pair's quote at time `atMs` (ms since the epoch; fractions of a ms are dropped), with the
   * pins of `account` (its own and every account's) or without one the pins of every account.
   * Throws RangeError for an unknown pair or a time that is not a valid date. The result is frozen;
   * the same (pair, time) asked again in a row is answered from a one-entry cache per pair.
   */
  quote(pair: string, atMs: number, account?: string): Quote
  /** USD and every asset of the fixture: the legs `cross` takes. */
  readonly currencies: readonly string[]
  /**
   * BASE/QUOTE for any two different legs, listed as a pair or not (EUR/ETH is priced through USD,
   * with the listed pairs' rules for decimals and spread). RangeError for an unknown leg or time.
   */
  cross(base: string, quote: string, atMs: number, account?: string): Quote
  /** Whether the account has price pins of its own (its quotes differ from every other account's). */
  hasOwnPins(account: string): boolean
  /** Decimals `cross(base, quote)` renders with; undefined for an unknown leg. */
  crossDecimals(base: string, quote: string): number | undefined
  /** An asset's spread in the fixture (bp); undefined for USD and unknown codes. */
  spreadBp(code: string): number | undefined
}

/** `readPriceFixture` + `createPriceModel`. */
export function loadPriceModel(fixturesDir: string, seed: string, pins?: PinSource): PriceModel {
  return createPriceModel(readPriceFixture(fixturesDir), seed, pins)
}

const NO_PINS_MAP: ReadonlyMap<string, PinnedLeg> = new Map()
const NO_PINS: PinSource = () => NO_PINS_MAP

/**
 * The model for `fixture` under `seed`: a pure function of (seed, pair, time) and the pins. The
 * fixture is what `readPriceFixture` read (validated there unless it is the package's own, which a
 * test checks is already what its schema makes of it): it is not parsed again at every start. Given
 * as a function (`priceFixtureOf`), it is read, and the legs and pairs made, on the model's first
 * use: they read neither a clock nor a generator, so made later they are the same (issue 33, round 10).
 */
export function createPriceModel(fixture: PriceFixture | (() => PriceFixture), seed: string, pins: PinSource = NO_PINS): PriceModel {
  const made = lazily(() => {
    const read = typeof fixture === 'function' ? fixture() : fixture
    const legs = new Map<string, Leg>([[USD, USD_LEG]])
    for (const [code, model] of Object.entries(read.assets)) legs.set(code, createLeg(seed, code, model))
    const models = new Map<string, PairModel>()
    for (const pair of read.pairs) {
      const [baseCode, quoteCode] = pair.split('/') as [string, string]
      models.set(pair, createPairModel(pair, baseCode, quoteCode, legs))
    }
    /** Pairs that are not listed, built on first use (at most legs² of them). */
    const crosses = new Map<string, PairModel>()
    return { legs, models, crosses, pairs: Object.freeze([...read.pairs]), currencies: Object.freeze([...legs.keys()]) }
  })

  const crossModel = (base: string, quote: string): PairModel | undefined => {
    const { legs, models, crosses } = made()
    if (!legs.has(base) || !legs.has(quote) || base === quote) return undefined
    const pair = `${base}/${quote}`
    const listed = models.get(pair) ?? crosses.get(pair)
    if (listed) return listed
    const created = createPairModel(pair, base, quote, legs)
    crosses.set(pair, created)
    return created
  }

  return {
    get pairs() {
      return made().pairs
    },
    get currencies() {
      return made().currencies
    },
    isPair: (pair) => made().models.has(pair),
    decimals: (pair) => made().models.get(pair)?.decimals,
    crossDecimals: (base, quote) => crossModel(base, quote)?.decimals,
    // A source answers every account without pins of its own with the one map of every account's pins.
    hasOwnPins: (account) => pins(account) !== pins(),
    spreadBp: (code) => (code === USD ? undefined : made().legs.get(code)?.spreadBp),
    quote(pair, atMs, account) {
      const m = made().models.get(pair)
      if (m === undefined) throw new RangeError(`Unknown pair ${JSON.stringify(pair)}; valid pairs: ${made().pairs.join(', ')}`)
      return quotePair(m, atMs, pins, account)
    },
    cross(base, quote, atMs, account) {
      const m = crossModel(base, quote)
      if (m === undefined) throw new RangeError(`Cannot price ${base}/${quote}; known currencies: ${made().currencies.join(', ')}`)
      return quotePair(m, atMs, pins, account)
    },
  }
}
