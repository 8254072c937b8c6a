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

export function createTradingPairs(fixture: PriceFixture): TradingPairs {
  const all = fixture.pairs
    .filter((pair) => Object.hasOwn(fixture.trading_pairs, pair))
    .map((pair): TradingPair => {
      const [base, quote] = pair.split('/') as [string, string]
      return Object.freeze({ pair, base, quote, ...fixture.trading_pairs[pair]! })
    })
  const byPair = new Map(all.map((entry) => [entry.pair, entry]))
  return {
    all: Object.freeze(all),
    get: (pair) => byPair.get(pair),
    between: (a, b) => byPair.get(`${a}/${b}`) ?? byPair.get(`${b}/${a}`),
  }
}
