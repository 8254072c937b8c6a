import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { afterAll, describe, expect, it } from 'vitest'
import { CURRENCIES } from '../../src/model/networks.js'
import { FixturesError } from '../../src/fixtures.js'
import type { Quote } from '../../src/market/pair-quotes.js'
import { readPriceFixture, type PriceFixture } from '../../src/market/price-fixture.js'
import { createPriceModel, loadPriceModel } from '../../src/market/prices.js'

const FIXTURES = join(import.meta.dirname, '../../fixtures')
const fixture = readPriceFixture(FIXTURES)
const model = createPriceModel(fixture, 'prices-test')

const START = Date.parse('2026-01-01T00:00:00.000Z')
const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
const YEAR = 365 * DAY

const STABLECOINS = ['USDC/USD', 'USDT/USD']
const VOLATILE = [
  { pair: 'ETH/USD', volatility: fixture.assets.ETH!.volatility },
  { pair: 'SOL/USD', volatility: fixture.assets.SOL!.volatility },
  { pair: 'MATIC/USD', volatility: fixture.assets.MATIC!.volatility },
  { pair: 'XLM/USD', volatility: fixture.assets.XLM!.volatility },
]

const num = (value: string): number => Number(value)
const fractionDigits = (value: string): number => (value.includes('.') ? value.length - value.indexOf('.') - 1 : 0)
/** Times spread over several years, not aligned on anything. */
const scatteredTimes = (count: number): number[] => Array.from({ length: count }, (_, i) => START + i * 7_919_377 + (i % 7) * 131)

describe('price fixture', () => {
  it('serves every asset and fiat leg against USD, the trading pairs, and about eighteen pairs', () => {
    for (const currency of [...CURRENCIES, 'EUR', 'GBP', 'MXN']) expect(fixture.pairs).toContain(`${currency}/USD`)
    for (const cross of ['ETH/USDC', 'SOL/USDC', 'MATIC/USDC', 'XLM/USDC', 'ETH/USDT', 'SOL/USDT', 'USDT/USDC', 'ETH/SOL', 'ETH/MATIC']) expect(fixture.pairs).toContain(cross)
    expect(fixture.pairs.length).toBeGreaterThanOrEqual(12)
    expect(fixture.pairs.length).toBeLessThanOrEqual(20)
    expect(model.pairs).toEqual(fixture.pairs)
  })

  const broken: Array<[string, (f: PriceFixture) => unknown]> = [
    ['a pair naming an unknown asset', (f) => ({ ...f, pairs: [...f.pairs, 'DOGE/USD'] })],
    ['a pair listed twice', (f) => ({ ...f, pairs: [...f.pairs, 'ETH/USD'] })],
    ['a pair against itself', (f) => ({ ...f, pairs: ['ETH/ETH'] })],
    ['a lower-case pair', (f) => ({ ...f, pairs: ['eth/usd'] })],
    ['a negative start price', (f) => ({ ...f, assets: { ...f.assets, ETH: { ...f.assets.ETH, start_price: -1 } } })],
    ['an asset without decimals', (f) => ({ ...f, assets: { ...f.assets, ETH: { ...f.assets.ETH, decimals: undefined } } })],
    ['a trading pair without its limits', (f) => ({ ...f, trading_pairs: Object.fromEntries(Object.entries(f.trading_pairs).filter(([pair]) => pair !== 'ETH/SOL')) })],
    ['limits for a pair that is not listed', (f) => ({ ...f, trading_pairs: { ...f.trading_pairs, 'SOL/MATIC': { min_amount: '1', liquidity_per_tick: '1' } } })],
    ['limits for a pair with a fiat leg', (f) => ({ ...f, trading_pairs: { ...f.trading_pairs, 'EUR/USD': { min_amount: '1', liquidity_per_tick: '1' } } })],
    ['a min_amount finer than the base asset', (f) => ({ ...f, trading_pairs: { ...f.trading_pairs, 'USDT/USDC': { min_amount: '0.0000001', liquidity_per_tick: '1' } } })],
    ['a zero liquidity_per_tick', (f) => ({ ...f, trading_pairs: { ...f.trading_pairs, 'USDT/USDC': { min_amount: '1', liquidity_per_tick: '0' } } })],
  ]
  const dirs: string[] = []
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  })
  it.each(broken)('rejects %s with a FixturesError naming prices.json', (_name, breakIt) => {
    const dir = mkdtempSync(join(tmpdir(), 'prices-fixture-'))
    dirs.push(dir)
    writeFileSync(join(dir, 'prices.json'), JSON.stringify(breakIt(structuredClone(fixture))))
    expect(() => loadPriceModel(dir, 'x')).toThrow(FixturesError)
    expect(() => loadPriceModel(dir, 'x')).toThrow(/prices\.json/)
  })
})

describe('determinism', () => {
  it.each(fixture.pairs)('gives %s the same quote for the same seed and time, from any model instance and in any order', (pair) => {
    const times = scatteredTimes(20)
    const first = times.map((t) => model.quote(pair, t))
    const other = createPriceModel(fixture, 'prices-test')
    const backwards = [...times].reverse().map((t) => other.quote(pair, t)).reverse()
    expect(backwards).toEqual(first)
    expect(loadPriceModel(FIXTURES, 'prices-test').quote(pair, times[3]!)).toEqual(first[3])
  })

  it.each(fixture.pairs)('gives %s different prices under a different seed', (pair) => {
    const other = createPriceModel(fixture, 'prices-test-2')
    const times = scatteredTimes(10)
    const a = times.map((t) => model.quote(pair, t).price)
    const b = times.map((t) => other.quote(pair, t).price)
    expect(b).not.toEqual(a)
  })
})

describe('quotes', () => {
  it.each(fixture.pairs)('renders %s as plain decimals with fixed decimals and the time as ISO 8601 with ms', (pair) => {
    const decimals = model.decimals(pair)!
    for (const t of scatteredTimes(50)) {
      const q = model.quote(pair, t)
      expect(q.pair).toBe(pair)
      expect(q.timestamp).toBe(new Date(t).toISOString())
      expect(q.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
      for (const value of [q.price, q.bid, q.ask]) {
        expect(value).toMatch(/^(0|[1-9][0-9]*)(\.[0-9]+)?$/)
        expect(fractionDigits(value)).toBe(decimals)
      }
    }
  })

  it.each(fixture.pairs)('keeps 0 < bid < price < ask for %s at many times', (pair) => {
    for (let i = 0; i < 400; i++) {
      const q = model.quote(pair, START + i * 3_607_311)
      expect(num(q.bid)).toBeGreaterThan(0)
      expect(num(q.bid)).toBeLessThan(num(q.price))
      expect(num(q.price)).toBeLessThan(num(q.ask))
    }
  })

  it.each([
    { pair: 'ETH/USD', decimals: 2 },
    { pair: 'SOL/USD', decimals: 2 },
    { pair: 'MATIC/USD', decimals: 5 },
    { pair: 'XLM/USD', decimals: 6 },
    { pair: 'USDC/USD', decimals: 5 },
    { pair: 'ETH/USDC', decimals: 2 },
    { pair: 'XLM/USDC', decimals: 6 },
    { pair: 'ETH/SOL', decimals: 4 },
    { pair: 'ETH/MATIC', decimals: 2 },
  ])('renders $pair with $decimals decimals (the base asset significant digits)', ({ pair, decimals }) => {
    expect(model.decimals(pair)).toBe(decimals)
  })

  it('starts volatile assets near their fixture price', () => {
    for (const { pair } of VOLATILE) {
      const start = fixture.assets[pair.split('/')[0]!]!.start_price
      const price = num(model.quote(pair, START).price)
      expect(price).toBeGreaterThan(start / 3)
      expect(price).toBeLessThan(start * 3)
    }
  })

  it('drops fractions of a millisecond', () => {
    expect(model.quote('ETH/USD', START + 0.75)).toEqual(model.quote('ETH/USD', START))
  })

  it('answers a repeated (pair, time) with the same frozen object', () => {
    const q = model.quote('SOL/USD', START + 42 * SECOND)
    expect(model.quote('SOL/USD', START + 42 * SECOND)).toBe(q)
    expect(Object.isFrozen(q)).toBe(true)
  })
})

describe('pairs', () => {
  it.each(fixture.pairs)('knows %s', (pair) => {
    expect(model.isPair(pair)).toBe(true)
    expect(() => model.quote(pair, START)).not.toThrow()
  })

  it.each(['DOGE/USD', 'eth/usd', 'USD/ETH', 'ETH-USD', 'ETH', '', 'toString', '__proto__'])('does not know %j', (pair) => {
    expect(model.isPair(pair)).toBe(false)
    expect(model.decimals(pair)).toBeUndefined()
    expect(() => model.quote(pair, START)).toThrow(RangeError)
  })

  it('names the valid pairs when asked for an unknown one', () => {
    expect(() => model.quote('DOGE/USD', START)).toThrow(/ETH\/USD/)
  })

  it('rejects a time that is not a date', () => {
    expect(() => model.quote('ETH/USD', Number.NaN)).toThrow(RangeError)
    expect(() => model.quote('ETH/USD', Number.POSITIVE_INFINITY)).toThrow(RangeError)
  })
})

describe('crosses', () => {
  const crosses = fixture.pairs.filter((pair) => !pair.endsWith('/USD'))
  it.each(crosses)('prices %s as the ratio of its USD legs, within rounding', (pair) => {
    const [base, quote] = pair.split('/') as [string, string]
    for (const t of scatteredTimes(100)) {
      const cross = num(model.quote(pair, t).price)
      const b = num(model.quote(`${base}/USD`, t).price)
      const q = num(model.quote(`${quote}/USD`, t).price)
      // Each rendered leg is off by at most half a unit of its last decimal.
      const legError = (0.5 * 10 ** -model.decimals(`${base}/USD`)!) / b + (0.5 * 10 ** -model.decimals(`${quote}/USD`)!) / q
      const crossError = (0.5 * 10 ** -model.decimals(pair)!) / cross
      expect(Math.abs(cross / (b / q) - 1)).toBeLessThanOrEqual(legError + crossError + 1e-12)
    }
  })
})

describe('stablecoins', () => {
  it.each(STABLECOINS)('keeps %s within 5 bp of 1 over a simulated day', (pair) => {
    let min = Number.POSITIVE_INFINITY
    let max = Number.NEGATIVE_INFINITY
    for (let t = START; t <= START + DAY; t += 5 * SECOND) {
      const price = num(model.quote(pair, t).price)
      min = Math.min(min, price)
      max = Math.max(max, price)
    }
    expect(min).toBeGreaterThanOrEqual(0.9995)
    expect(max).toBeLessThanOrEqual(1.0005)
    // …but it is not a flat line either.
    expect(max).toBeGreaterThan(min)
  })

  it.each(STABLECOINS)('keeps %s within 5 bp of 1 at any time over years', (pair) => {
    for (const t of scatteredTimes(2000)) expect(Math.abs(num(model.quote(pair, t).price) - 1)).toBeLessThanOrEqual(0.0005)
  })
})

describe('volatile assets', () => {
  it.each(VOLATILE.map((v) => v.pair))('moves %s between most consecutive seconds, by well under 1 %', (pair) => {
    let changed = 0
    const steps = 1000
    let previous = num(model.quote(pair, START).price)
    for (let i = 1; i <= steps; i++) {
      const price = num(model.quote(pair, START + i * SECOND).price)
      if (price !== previous) changed++
      expect(Math.abs(Math.log(price / previous))).toBeLessThan(0.01)
      previous = price
    }
    expect(changed / steps).toBeGreaterThan(0.7)
  })

  it.each(VOLATILE)('moves $pair over a day by a plausible amount (volatility $volatility a year)', ({ pair, volatility }) => {
    const returns: number[] = []
    for (let d = 0; d < 300; d++) {
      const t = START + d * DAY + (d % 24) * HOUR
      returns.push(Math.log(num(model.quote(pair, t + DAY).price) / num(model.quote(pair, t).price)))
    }
    const rms = Math.sqrt(returns.reduce((sum, r) => sum + r * r, 0) / returns.length)
    const expected = volatility / Math.sqrt(365.25)
    expect(rms).toBeGreaterThan(expected / 2)
    expect(rms).toBeLessThan(expected * 2)
    for (const r of returns) expect(Math.abs(r)).toBeLessThan(Math.log(2))
  })

  it.each(VOLATILE)('keeps $pair within a plausible band of its start price over years', ({ pair }) => {
    const start = fixture.assets[pair.split('/')[0]!]!.start_price
    for (const t of scatteredTimes(2000)) {
      const price = num(model.quote(pair, t).price)
      expect(price).toBeGreaterThan(start / 5)
      expect(price).toBeLessThan(start * 5)
    }
  })

  it('moves continuously between whole seconds', () => {
    const at = (t: number) => num(model.quote('ETH/USD', t).price)
    for (let i = 0; i < 50; i++) {
      const t = START + i * 17 * SECOND
      const mid = at(t + 500)
      expect(mid).toBeGreaterThanOrEqual(Math.min(at(t), at(t + SECOND)) - 0.011)
      expect(mid).toBeLessThanOrEqual(Math.max(at(t), at(t + SECOND)) + 0.011)
    }
  })
})

describe('cost', () => {
  /** Mean µs per quote over `count` distinct times from `from` (distinct, so the one-entry cache never answers). */
  function microsPerQuote(pair: string, from: number, count: number): number {
    let sink: Quote | undefined
    const started = performance.now()
    for (let i = 0; i < count; i++) sink = model.quote(pair, from + i * SECOND)
    const elapsed = performance.now() - started
    expect(sink?.pair).toBe(pair)
    return (elapsed * 1000) / count
  }

  it('computes a quote a year later as fast as one a second later (no iteration over earlier steps)', () => {
    microsPerQuote('ETH/SOL', START, 5000) // warm-up
    const soon: number[] = []
    const late: number[] = []
    for (let round = 0; round < 5; round++) {
      soon.push(microsPerQuote('ETH/SOL', START + SECOND, 4000))
      late.push(microsPerQuote('ETH/SOL', START + YEAR, 4000))
      late.push(microsPerQuote('ETH/SOL', START + 10 * YEAR, 4000))
    }
    const best = (xs: number[]) => Math.min(...xs)
    expect(best(late)).toBeLessThan(best(soon) * 3)
  })

  it('computes a cross quote in well under 20 µs', () => {
    microsPerQuote('ETH/MATIC', START, 5000)
    const runs = Array.from({ length: 5 }, (_, i) => microsPerQuote('ETH/MATIC', START + (i + 1) * DAY, 5000))
    expect(Math.min(...runs)).toBeLessThan(20)
  })
})
