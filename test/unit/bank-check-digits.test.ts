import { describe, expect, it } from 'vitest'
import { isValidRoutingNumber, routingCheckDigit } from '../../src/banking/aba.js'
import { clabeCheckDigit, isValidClabe } from '../../src/banking/clabe.js'
import { ibanCheckDigits, ibanProblem, isValidSepaIban, SEPA_IBAN_LENGTHS } from '../../src/banking/iban.js'
import { isValidUkAccountNumber, normaliseSortCode } from '../../src/banking/uk-account.js'

/** Every variant of `value` with one digit replaced by another digit. */
function singleDigitChanges(value: string): string[] {
  const out: string[] = []
  for (let i = 0; i < value.length; i++) {
    if (!/\d/.test(value[i]!)) continue
    for (let d = 0; d <= 9; d++) if (String(d) !== value[i]) out.push(value.slice(0, i) + d + value.slice(i + 1))
  }
  return out
}

/** Every swap of two neighbouring, different digits between `from` and `to` (exclusive), with the two digits. */
function adjacentSwaps(value: string, from = 0, to = value.length): Array<{ swapped: string; a: number; b: number }> {
  const out: Array<{ swapped: string; a: number; b: number }> = []
  for (let i = from; i + 1 < to; i++) {
    const [a, b] = [value[i]!, value[i + 1]!]
    if (a === b || !/\d/.test(a) || !/\d/.test(b)) continue
    out.push({ swapped: value.slice(0, i) + b + a + value.slice(i + 2), a: Number(a), b: Number(b) })
  }
  return out
}

// Published examples: Wikipedia's ABA article (111000025, Bank of America) and widely published ones (021000021 JPMorgan Chase, 011000015 Federal Reserve Bank of Boston).
const ROUTING_NUMBERS = ['111000025', '021000021', '011000015']
// Wikipedia's CLABE article (032180000118359719) and the worked example of a published CLABE check-digit calculator.
const CLABES = ['032180000118359719', '012180026050783858']
// The IBAN registry's and Wikipedia's example IBANs.
const IBANS = [
  'GB82WEST12345698765432', 'DE89370400440532013000', 'FR1420041010050500013M02606', 'NL91ABNA0417164300', 'BE68539007547034',
  'CH9300762011623852957', 'ES9121000418450200051332', 'IT60X0542811101000000123456', 'AT611904300234573201', 'NO9386011117947',
  'MT84MALT011000012345MTLCAST001S', 'PL61109010140000071219812874', 'SE4550000000058398257466', 'FI2112345600000785',
  'IE29AIBK93115212345678', 'DK5000400440116243', 'LU280019400644750000', 'PT50000201231234567890154',
]

describe('ABA routing numbers', () => {
  it.each(ROUTING_NUMBERS)('accepts the published routing number %s', (value) => {
    expect(isValidRoutingNumber(value)).toBe(true)
    expect(routingCheckDigit(value.slice(0, 8))).toBe(value[8])
  })
  it.each(ROUTING_NUMBERS)('refuses every single-digit change of %s', (value) => {
    for (const changed of singleDigitChanges(value)) expect(isValidRoutingNumber(changed), changed).toBe(false)
  })
  it.each(ROUTING_NUMBERS)('refuses every swap of neighbours of %s unless the digits differ by 5', (value) => {
    for (const { swapped, a, b } of adjacentSwaps(value)) expect(isValidRoutingNumber(swapped), swapped).toBe(Math.abs(a - b) === 5)
  })
  it.each(['', '11100002', '1110000250', '11100002a', ' 111000025'])('refuses the malformed %j', (value) => {
    expect(isValidRoutingNumber(value)).toBe(false)
  })
})

describe('CLABE', () => {
  it.each(CLABES)('accepts the published CLABE %s', (value) => {
    expect(isValidClabe(value)).toBe(true)
    expect(clabeCheckDigit(value.slice(0, 17))).toBe(value[17])
  })
  it.each(CLABES)('refuses every single-digit change of %s', (value) => {
    for (const changed of singleDigitChanges(value)) expect(isValidClabe(changed), changed).toBe(false)
  })
  it.each(CLABES)('refuses every swap of neighbours of %s unless the digits differ by 5', (value) => {
    for (const { swapped, a, b } of adjacentSwaps(value)) expect(isValidClabe(swapped), swapped).toBe(Math.abs(a - b) === 5)
  })
  it.each(['03218000011835971', '0321800001183597190', '03218000011835971X'])('refuses the malformed %j', (value) => {
    expect(isValidClabe(value)).toBe(false)
  })
})

describe('IBAN', () => {
  it.each(IBANS)('accepts the published IBAN %s', (value) => {
    expect(ibanProblem(value)).toBeUndefined()
    expect(ibanCheckDigits(value.slice(0, 2), value.slice(4))).toBe(value.slice(2, 4))
  })
  it('accepts spaces between groups', () => {
    expect(isValidSepaIban('DE89 3704 0044 0532 0130 00')).toBe(true)
  })
  it.each(IBANS)('refuses every single-digit change of %s', (value) => {
    for (const changed of singleDigitChanges(value)) expect(ibanProblem(changed), changed).toBe('checksum')
  })
  it.each(IBANS)('refuses every swap of neighbouring digits of %s inside its check digits or its account number', (value) => {
    for (const { swapped } of [...adjacentSwaps(value, 2, 4), ...adjacentSwaps(value, 4)]) expect(ibanProblem(swapped), swapped).toBe('checksum')
  })
  it('knows the length of every SEPA country it lists, and the published examples fit them', () => {
    for (const iban of IBANS) expect(iban.length).toBe(SEPA_IBAN_LENGTHS[iban.slice(0, 2)])
    expect(Object.keys(SEPA_IBAN_LENGTHS)).toHaveLength(37)
  })
  it('names what is wrong', () => {
    expect(ibanProblem('de89370400440532013000')).toBe('format')
    expect(ibanProblem('DE8937040044053201300')).toBe('length')
    expect(ibanProblem('DE893704004405320130000')).toBe('length')
    // Brazil has IBANs, but is not in SEPA.
    expect(ibanProblem('BR1800360305000010009795493C1')).toBe('country')
    expect(ibanProblem('DE88370400440532013000')).toBe('checksum')
  })
})

describe('UK sort codes and account numbers', () => {
  it.each([
    ['200000', '200000'],
    ['20-00-00', '200000'],
    ['20 00 00', '200000'],
  ])('accepts the sort code %j as %s', (value, digits) => {
    expect(normaliseSortCode(value)).toBe(digits)
  })
  it.each(['20000', '2000000', '20-0000', '20-00 00', 'ab-cd-ef', ''])('refuses the sort code %j', (value) => {
    expect(normaliseSortCode(value)).toBeUndefined()
  })
  it('takes 8-digit account numbers only', () => {
    expect(isValidUkAccountNumber('31926819')).toBe(true)
    for (const value of ['3192681', '319268190', '3192681a']) expect(isValidUkAccountNumber(value)).toBe(false)
  })
})
