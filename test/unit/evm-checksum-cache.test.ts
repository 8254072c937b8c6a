import fc from 'fast-check'
import { expect, it } from 'vitest'
import { isValidEvmAddress, toChecksumAddress } from '../../src/chain/evm.js'

it('gives the same answer for an address checked before, valid or not', () => {
  const valid = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'
  const wrong = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD'
  for (let i = 0; i < 3; i++) {
    expect(isValidEvmAddress(valid)).toBe(true)
    expect(isValidEvmAddress(wrong)).toBe(false)
  }
  expect(toChecksumAddress(wrong.toLowerCase())).toBe(valid)
})

it('keeps answering correctly once more addresses were checked than it remembers', () => {
  const many = Array.from({ length: 1500 }, (_, i) => toChecksumAddress(`0x${i.toString(16).padStart(40, 'a')}`))
  for (const address of many) expect(isValidEvmAddress(address)).toBe(true)
  const flipped = many.map((a) => `0x${[...a.slice(2)].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('')}`).filter((a) => /[a-f]/.test(a) && /[A-F]/.test(a))
  for (const address of flipped.slice(0, 50)) expect(isValidEvmAddress(address)).toBe(false)
})

it('takes exactly 0x and 40 hex digits, single-case or with a valid checksum, whatever else the text holds', () => {
  // The definition it reads in one pass: the pattern, then the case of its letters, then EIP-55.
  const byDefinition = (address: string) => {
    if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return false
    const hex = address.slice(2)
    return hex === hex.toLowerCase() || hex === hex.toUpperCase() || toChecksumAddress(address) === address
  }
  const near = fc.tuple(fc.constantFrom('0x', '0X', '', '0', 'x0', '00x'), fc.array(fc.constantFrom(...'0123456789abcdefABCDEFgG x\n'), { minLength: 38, maxLength: 42 }))
  const text = fc.oneof(near.map(([prefix, chars]) => prefix + chars.join('')), fc.string({ maxLength: 44 }))
  const checksummed = fc.array(fc.constantFrom(...'0123456789abcdef'), { minLength: 40, maxLength: 40 }).map((hex) => toChecksumAddress(`0x${hex.join('')}`))
  fc.assert(fc.property(fc.oneof(text, checksummed), (address) => isValidEvmAddress(address) === byDefinition(address)), { numRuns: 3000 })
})
