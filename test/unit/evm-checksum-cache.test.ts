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
