import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ASSETS, NETWORKS } from '../../src/model/networks.js'
import { AMOUNT_PATTERN, amountText, formatAmount, fractionDigits, toBaseUnits } from '../../src/money.js'

// Every precision the sandbox knows: USDC/USDT 6, stellar 7, SOL 9, ETH/MATIC 18.
const PRECISIONS = [...new Set(NETWORKS.flatMap((network) => Object.values(ASSETS[network])))].sort((a, b) => a - b)

describe('toBaseUnits', () => {
  it.each([
    ['10', 6, 10_000_000n],
    ['10.00', 6, 10_000_000n],
    ['0.50', 6, 500_000n],
    ['0.000001', 6, 1n],
    ['12.5', 7, 125_000_000n],
    ['0.0000001', 7, 1n],
    ['0.000000001', 9, 1n],
    ['5000', 9, 5_000_000_000_000n],
    ['0.000000000000000001', 18, 1n],
    ['1', 18, 1_000_000_000_000_000_000n],
    // Far beyond Number's 2^53: must stay exact.
    ['123456789012345678.123456789012345678', 18, 123456789012345678123456789012345678n],
    ['0', 6, 0n],
  ])('reads %s with %i decimals as %s base units', (amount, decimals, units) => {
    expect(toBaseUnits(amount, decimals)).toBe(units)
  })

  it('reads every well-formed amount as the digits parsed whole, on both sides of the 15 digits read as a double', () => {
    const amount = fc.tuple(fc.stringMatching(/^(0|[1-9][0-9]{0,17})$/), fc.option(fc.stringMatching(/^[0-9]{1,18}$/), { nil: undefined }))
    fc.assert(
      fc.property(amount, fc.constantFrom(...PRECISIONS), ([whole, fraction], decimals) => {
        fc.pre((fraction?.length ?? 0) <= decimals)
        const text = fraction === undefined ? whole : `${whole}.${fraction}`
        expect(toBaseUnits(text, decimals)).toBe(BigInt(whole + (fraction ?? '').padEnd(decimals, '0')))
      }),
      { numRuns: 2000 },
    )
  })

  it.each([
    ['0.0000001', 6],
    ['1.12345678', 7],
    ['0.0000000001', 9],
    ['0.0000000000000000001', 18],
  ])('refuses %s, which has more fraction digits than %i', (amount, decimals) => {
    expect(() => toBaseUnits(amount, decimals)).toThrow(RangeError)
  })
})

describe('amountText', () => {
  it.each([
    ['10.00', 6, '10.00'],
    ['0.000001', 6, '0.000001'],
    ['10', 6, '10.00'],
    ['10.5', 6, '10.50'],
    ['10.500', 6, '10.50'],
    ['0.10', 7, '0.10'],
    ['5.000000000', 9, '5.00'],
  ])('writes %s at %i decimals as formatAmount does: %s', (amount, decimals, text) => {
    expect(amountText(amount, toBaseUnits(amount, decimals), decimals)).toBe(text)
  })

  it.each(['01.00', '00.50', '1.0a', '-1.00', '1..00', '.50', '1.', '1.500', '1.0000000'])('never answers a text not written as formatAmount writes it: %s', (text) => {
    expect(amountText(text, 1_500_000n, 6)).toBe('1.50')
  })

  it('answers formatAmount of the units for every well-formed amount', () => {
    const amount = fc.tuple(fc.stringMatching(/^(0|[1-9][0-9]{0,17})$/), fc.option(fc.stringMatching(/^[0-9]{0,18}$/), { nil: undefined }))
    fc.assert(
      fc.property(amount, fc.constantFrom(...PRECISIONS), ([whole, fraction], decimals) => {
        const text = fraction === undefined ? whole : `${whole}.${fraction.slice(0, decimals)}`
        const units = toBaseUnits(text, decimals)
        expect(amountText(text, units, decimals)).toBe(formatAmount(units, decimals))
      }),
    )
  })

  it('answers its own text only when that text is formatAmount of the amount it spells, whatever else it is given', () => {
    // Texts near the amounts' shape: leading zeros, no point or two, stray characters.
    const texts = fc.tuple(fc.stringMatching(/^[0-9a-]{0,4}$/), fc.constantFrom('', '.', '..'), fc.stringMatching(/^[0-9a.]{0,10}$/)).map((parts) => parts.join(''))
    fc.assert(
      fc.property(texts, fc.bigInt(0n, 10n ** 20n), fc.constantFrom(...PRECISIONS), (text, units, decimals) => {
        const answer = amountText(text, units, decimals)
        if (answer === formatAmount(units, decimals)) return
        expect(answer).toBe(text)
        expect(text).toMatch(AMOUNT_PATTERN)
        expect(formatAmount(toBaseUnits(text, decimals), decimals)).toBe(text)
      }),
    )
  })
})

describe('formatAmount', () => {
  it.each([
    [10_000_000n, 6, '10.00'],
    [500_000n, 6, '0.50'],
    [1n, 6, '0.000001'],
    [0n, 6, '0.00'],
    [1_234_500n, 6, '1.2345'],
    [125_000_000n, 7, '12.50'],
    [1n, 7, '0.0000001'],
    [1n, 9, '0.000000001'],
    [5_000_000_000_000n, 9, '5000.00'],
    [1n, 18, '0.000000000000000001'],
    [250n * 10n ** 18n, 18, '250.00'],
    [750_000_000_000_000_000n, 18, '0.75'],
    [123456789012345678123456789012345678n, 18, '123456789012345678.123456789012345678'],
    [-500_000n, 6, '-0.50'],
    [5n, 0, '5.00'],
    [5n, 1, '0.50'],
    [120n, 1, '12.00'],
    [1_000_000n, 6, '1.00'],
  ])('renders %s base units with %i decimals as %s', (units, decimals, text) => {
    expect(formatAmount(units, decimals)).toBe(text)
  })

  it.each(PRECISIONS)('round-trips amounts at %i decimals without losing a unit', (decimals) => {
    for (const units of [0n, 1n, 10n ** BigInt(decimals), 10n ** BigInt(decimals) * 999_999n + 1n, 2n ** 70n + 3n]) {
      expect(toBaseUnits(formatAmount(units, decimals), decimals)).toBe(units)
    }
  })

  it('covers the four precisions of the contract', () => {
    expect(PRECISIONS).toEqual([6, 7, 9, 18])
  })
})

describe('the amount grammar', () => {
  it.each(['0', '10', '10.5', '0.000001', '1000000.00'])('accepts %s', (text) => {
    expect(AMOUNT_PATTERN.test(text)).toBe(true)
  })

  it.each(['', '1e3', '-5', '+5', '01', '1.', '.5', ' 1', '1 ', '1,5', '0x10', 'NaN', 'Infinity', '1.2.3'])('refuses %j', (text) => {
    expect(AMOUNT_PATTERN.test(text)).toBe(false)
  })

  it.each([
    ['10', 0],
    ['10.5', 1],
    ['0.000001', 6],
  ])('counts the fraction digits of %s as %i', (text, digits) => {
    expect(fractionDigits(text)).toBe(digits)
  })
})
