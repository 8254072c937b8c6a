import { base58 } from '@scure/base'
import type { Rng } from '../rng.js'

const BASE58_PATTERN = /^[1-9A-HJ-NP-Za-km-z]+$/

function decodesToLength(value: string, length: number): boolean {
  if (!BASE58_PATTERN.test(value)) return false
  try {
    const bytes = base58.decode(value)
    return bytes.length === length && base58.encode(bytes) === value
  } catch {
    return false
  }
}

/** A Solana public key: base58 of exactly 32 bytes (32 to 44 characters). */
export function isValidSolanaAddress(address: string): boolean {
  return address.length >= 32 && address.length <= 44 && decodesToLength(address, 32)
}

export function generateSolanaAddress(rng: Rng): string {
  return base58.encode(rng.bytes(32))
}

/** A transaction signature: base58 of 64 bytes (the ed25519 signature that identifies a Solana transaction). */
export function generateSolanaSignature(rng: Rng): string {
  return base58.encode(rng.bytes(64))
}

export function isValidSolanaSignature(signature: string): boolean {
  return signature.length >= 64 && signature.length <= 88 && decodesToLength(signature, 64)
}
