import { lazily } from '../lazily.js'
import type { PriceFixture } from './price-fixture.js'

/**
 * The trading pairs (CONTRACT.md section 15): the price-feed pairs whose two legs are both wallet
 * assets, with their order limits from `trading_pairs` of prices.json (which the fixture's schema
 * makes sure every such pair has). Amounts are decimal strings in the base asset.
 */
export interface TradingPair {
  readonly pair: string
  readonly base: string
  readonly quote: string
  /** The smallest order amount. */
  readonly min_amount: string
  /** The most a limit order fills per price tick. */
  readonly liquidity_per_tick: string
}

export interface TradingPairs {
  /** In the feed's order. */
  readonly all: readonly TradingPair[]
  get(pair: string): TradingPair | undefined
  /** The trading pair of two currencies in either order (`USDC`, `ETH` → ETH/USDC), if there is one. */
  between(a: string, b: string): TradingPair | undefined
}

/**
 * The trading pairs of `fixture`; given as a function (`priceFixtureOf`), read and made on their
 * first use (issue 33, round 10: a start until its first answer needs none).
 */
export function createTradingPairs(fixture: PriceFixture | (() => PriceFixture)): TradingPairs {
  const made = lazily(() => {
    const read = typeof fixture === 'function' ? fixture() : fixture
    const all = read.pairs
      .filter((pair) => Object.hasOwn(read.trading_pairs, pair))
      .map((pair): TradingPair => {
        const [base, quote] = pair.split('/') as [string, string]
        return Object.freeze({ pair, base, quote, ...read.trading_pairs[pair]! })
      })
    return { all: Object.freeze(all), byPair: new Map(all.map((entry) => [entry.pair, entry])) }
  })
  return {
    get all() {
      return made().all
    },
    get: (pair) => made().byPair.get(pair),
    between: (a, b) => made().byPair.get(`${a}/${b}`) ?? made().byPair.get(`${b}/${a}`),
  }
}
