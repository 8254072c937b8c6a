import fc from 'fast-check'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { convertAmount, destinationUnitsFor, divideDecimal, feeUnits, sidedPrice, sourceUnitsFor, type SidedPrice } from '../../src/market/conversion.js'
import type { PinnedLeg } from '../../src/market/pair-quotes.js'
import { readPriceFixture } from '../../src/market/price-fixture.js'
import { createPriceModel } from '../../src/market/prices.js'

const fixture = readPriceFixture(join(import.meta.dirname, '../../fixtures'))
const START = Date.parse('2026-01-01T00:00:00.000Z')
const pinned = (legs: Record<string, PinnedLeg>) => createPriceModel(fixture, 'conversion-test', () => new Map(Object.entries(legs)))

describe('sidedPrice', () => {
  const model = pinned({ ETH: { price: 3000, spreadBp: 20 }, USDC: { price: 1, spreadBp: 0 }, EUR: { price: 1.25, spreadBp: 0 } })

  it('sells a base at the bid of the listed pair', () => {
    expect(sidedPrice(model, 'ETH', 'USDC', START)).toEqual({ pair: 'ETH/USDC', side: 'sell', price: '2997.00', rate: '2997.00', timestamp: '2026-01-01T00:00:00.000Z' })
  })

  it('buys a base at the ask of the listed pair; the rate is 1 / ask rounded down', () => {
    expect(sidedPrice(model, 'USDC', 'ETH', START)).toMatchObject({ pair: 'ETH/USDC', side: 'buy', price: '3003.00', rate: '0.000333000333000' })
  })

  it('prices two currencies that no pair lists through USD, selling the source at its bid', () => {
    expect(sidedPrice(model, 'ETH', 'EUR', START)).toMatchObject({ pair: 'ETH/EUR', side: 'sell', price: '2397.60', rate: '2397.60' })
    expect(sidedPrice(model, 'EUR', 'ETH', START)).toMatchObject({ pair: 'EUR/ETH', side: 'sell' })
  })

  it('throws a RangeError for a currency the model does not price', () => {
    expect(() => sidedPrice(model, 'DOGE', 'USD', START)).toThrow(RangeError)
    expect(() => sidedPrice(model, 'ETH', 'ETH', START)).toThrow(RangeError)
  })

  it('prices every two priced currencies of the shipped fixture with 0 < bid ≤ ask', () => {
    const live = createPriceModel(fixture, 'conversion-test')
    for (const base of live.currencies) {
      for (const quote of live.currencies) {
        if (base === quote) continue
        const q = live.cross(base, quote, START + 7_919_377)
        expect(Number(q.bid), `${base}/${quote}`).toBeGreaterThan(0)
        expect(Number(q.bid)).toBeLessThanOrEqual(Number(q.ask))
      }
    }
  })
})

describe('exact conversion', () => {
  it('multiplies and divides by a decimal price with the rounding asked for', () => {
    expect(convertAmount(1_500_000n, 6, '2997.13', 6, 'down')).toBe(4_495_695_000n)
    expect(convertAmount(1n, 18, '2997.13', 6, 'down')).toBe(0n)
    expect(convertAmount(1n, 18, '2997.13', 6, 'up')).toBe(1n)
    expect(divideDecimal(1_000_000n, 6, '3', 6, 'down')).toBe(333_333n)
    expect(divideDecimal(1_000_000n, 6, '3', 6, 'up')).toBe(333_334n)
  })

  it('rounds a fee up to the next base unit', () => {
    expect(feeUnits(10_000n, 10)).toBe(10n)
    expect(feeUnits(10_001n, 10)).toBe(11n)
    expect(feeUnits(0n, 10)).toBe(0n)
  })

  const sided = fc.record({
    side: fc.constantFrom<'buy' | 'sell'>('buy', 'sell'),
    units: fc.bigInt({ min: 1n, max: 10n ** 12n }),
    decimals: fc.integer({ min: 0, max: 6 }),
  }).map(({ side, units, decimals }): SidedPrice => {
    const digits = units.toString().padStart(decimals + 1, '0')
    const price = decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`
    return { pair: 'A/B', side, price, rate: price, timestamp: '' }
  })

  it('never gives more than the price allows: the smallest source for a target yields it, one unit less does not', () => {
    fc.assert(
      fc.property(sided, fc.bigInt({ min: 1n, max: 10n ** 15n }), fc.integer({ min: 0, max: 18 }), fc.integer({ min: 0, max: 18 }), (priced, target, sourceDecimals, targetDecimals) => {
        const source = sourceUnitsFor(priced, target, targetDecimals, sourceDecimals)
        expect(destinationUnitsFor(priced, source, sourceDecimals, targetDecimals)).toBeGreaterThanOrEqual(target)
        if (source > 0n) expect(destinationUnitsFor(priced, source - 1n, sourceDecimals, targetDecimals)).toBeLessThan(target)
      }),
      { numRuns: 300 },
    )
  })
})
