import type { PriceModel } from '../market/prices.js'
import { divideRate, RATE_DECIMALS } from './settlement-pricing.js'

/**
 * The conversion rate of a settlement at a sandbox instant, from the price feed: what one unit of
 * the source currency buys of the destination currency, on the side against the customer (the
 * source sold at its USD bid, the destination bought at its USD ask), rounded down to 8 decimals.
 * Undefined when the feed has no USD price for one of the two.
 */
export function createRateSource(model: PriceModel) {
  const usd = (currency: string, atMs: number, side: 'bid' | 'ask'): string | undefined => {
    if (currency === 'USD') return '1'
    const pair = `${currency}/USD`
    return model.isPair(pair) ? model.quote(pair, atMs)[side] : undefined
  }
  return function rate(from: string, to: string, atMs: number): bigint | undefined {
    if (from === to) return 10n ** BigInt(RATE_DECIMALS)
    const sell = usd(from, atMs, 'bid')
    const buy = usd(to, atMs, 'ask')
    return sell === undefined || buy === undefined ? undefined : divideRate(sell, buy)
  }
}

export type RateSource = ReturnType<typeof createRateSource>
