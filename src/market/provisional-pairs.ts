import { CURRENCIES } from '../model/networks.js'
import type { PriceModel } from './prices.js'

/**
 * The trading pairs orders use until the market's own pair list (GET /v1/pairs) is wired: the
 * price-feed pairs whose two legs are wallet assets, with a minimum and a liquidity per tick by
 * base asset.
 */
const SIZES: Record<string, { min_amount: string; liquidity_per_tick: string }> = {
  ETH: { min_amount: '0.001', liquidity_per_tick: '5' },
  SOL: { min_amount: '0.01', liquidity_per_tick: '100' },
  MATIC: { min_amount: '1', liquidity_per_tick: '50000' },
  XLM: { min_amount: '1', liquidity_per_tick: '100000' },
}
const DEFAULT_SIZE = { min_amount: '1', liquidity_per_tick: '100000' }

export function provisionalMarket(model: PriceModel) {
  const pairs = model.pairs
    .map((pair) => pair.split('/') as [string, string])
    .filter(([base, quote]) => CURRENCIES.includes(base) && CURRENCIES.includes(quote))
    .map(([base, quote]) => ({ pair: `${base}/${quote}`, base, quote, ...(SIZES[base] ?? DEFAULT_SIZE) }))
  const byName = new Map(pairs.map((pair) => [pair.pair, pair]))
  return {
    pair: (name: string) => byName.get(name),
    pairs: () => pairs,
    price: (pair: string, atMs: number) => model.quote(pair, atMs),
  }
}
