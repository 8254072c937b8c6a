import * as z from 'zod'
import { readFixture, SHIPPED_FIXTURES_DIR } from '../fixtures.js'
import { lazily } from '../lazily.js'
import { currencyDecimals, isWalletAsset } from '../model/currencies.js'
import { AMOUNT_PATTERN, fractionDigits } from '../money.js'

/** `prices.json`: the pairs the feed serves, each asset's price model, and the order limits of the pairs that trade. */

/** The unit of account: always 1, never a modelled asset. */
export const USD = 'USD'
/** The most decimals an asset or a pair is rendered with. */
export const MAX_DECIMALS = 12
const PAIR_PATTERN = /^([A-Z0-9]{2,12})\/([A-Z0-9]{2,12})$/

/** The schema of `prices.json`, built only to read a fixtures folder's (src/fixtures.ts: the package's own is not validated). */
export const priceFixtureSchema = lazily(() => {
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

  return z
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
})

export type PriceFixture = z.output<ReturnType<typeof priceFixtureSchema>>
export type AssetModel = PriceFixture['assets'][string]

/** Reads and validates `prices.json` of `fixturesDir` (FixturesError naming the file and problem). */
export function readPriceFixture(fixturesDir: string): PriceFixture {
  return readFixture(fixturesDir, 'prices.json', priceFixtureSchema)
}

/**
 * `prices.json` of `fixturesDir` as a start takes it: the package's own read on its first use (the
 * first price, pair, quote or order: a start until its first answer asks for none, and reading it
 * with the model and pairs made from it was about 45 of `createSandbox`'s 532 profile samples,
 * issue 33, round 10), a `--fixtures` folder's read and validated at once, so that a bad file still
 * stops the start (as `loadFixtures` does with the other files).
 */
export function priceFixtureOf(fixturesDir: string): () => PriceFixture {
  if (fixturesDir !== SHIPPED_FIXTURES_DIR) {
    const fixture = readPriceFixture(fixturesDir)
    return () => fixture
  }
  return lazily(() => readPriceFixture(fixturesDir))
}
