import { keccak256 } from './keccak.js'
import { boundedCache } from '../bounded-cache.js'
import type { Rng } from '../rng.js'

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/

/** Lower-case hex without a prefix. */
export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')
}

/** EIP-55: a letter is upper case when the matching nibble of keccak-256(lower-case hex) is >= 8. */
export function toChecksumAddress(address: string): string {
  if (!EVM_ADDRESS.test(address)) throw new TypeError(`not an EVM address: ${address}`)
  const lower = address.slice(2).toLowerCase()
  const hash = toHex(keccak256(new TextEncoder().encode(lower)))
  let out = '0x'
  for (let i = 0; i < lower.length; i++) {
    const char = lower[i]!
    out += parseInt(hash[i]!, 16) >= 8 ? char.toUpperCase() : char
  }
  return out
}

/** Mixed-case addresses already checked: clients send the same few again and again, and keccak in JS is not free. */
const checksumValid = boundedCache(1000, (address: string) => toChecksumAddress(address) === address)

/**
 * `0x` and 40 hex digits (EVM_ADDRESS), read in one pass that also tells which cases its letters
 * are: every payment to an address checks one, and the pattern, the slice and its lower- and
 * upper-case copies were three strings made for it.
 */
export function isValidEvmAddress(address: string): boolean {
  if (address.length !== 42 || address.charCodeAt(0) !== 48 || address.charCodeAt(1) !== 120) return false
  let lower = false
  let upper = false
  for (let i = 2; i < 42; i++) {
    const code = address.charCodeAt(i)
    if (code >= 48 && code <= 57) continue
    if (code >= 97 && code <= 102) lower = true
    else if (code >= 65 && code <= 70) upper = true
    else return false
  }
  // Single-case addresses carry no checksum, as in every EVM wallet.
  return !(lower && upper) || checksumValid(address)
}

export function generateEvmAddress(rng: Rng): string {
  return toChecksumAddress(`0x${toHex(rng.bytes(20))}`)
}

/** 32 random bytes as `0x` + 64 lower-case hex digits. */
export function generateEvmTxHash(rng: Rng): string {
  return `0x${toHex(rng.bytes(32))}`
}
