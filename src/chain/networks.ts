import { NETWORKS, type Network } from '../model/networks.js'
import type { Rng } from '../rng.js'
import { generateEvmAddress, generateEvmTxHash, isValidEvmAddress, toHex } from './evm.js'
import { generateSolanaAddress, generateSolanaSignature, isValidSolanaAddress } from './solana.js'
import { generateStellarAddress, isValidStellarAddress } from './stellar.js'

export function generateAddress(network: Network, rng: Rng): string {
  switch (network) {
    case 'polygon':
    case 'ethereum':
      return generateEvmAddress(rng)
    case 'stellar':
      return generateStellarAddress(rng)
    case 'solana':
      return generateSolanaAddress(rng)
  }
}

export function isValidAddress(network: Network, address: string): boolean {
  switch (network) {
    case 'polygon':
    case 'ethereum':
      return isValidEvmAddress(address)
    case 'stellar':
      return isValidStellarAddress(address)
    case 'solana':
      return isValidSolanaAddress(address)
  }
}

/** The form used to compare addresses (whitelist, screening, outcome rules): EVM addresses lower-cased, others as they are. */
export function addressKey(network: Network, address: string): string {
  return network === 'polygon' || network === 'ethereum' ? address.toLowerCase() : address
}

/** A completed payment's tx_hash: EVM `0x` + 64 hex, stellar 64 lower-case hex, solana a base58 signature of 64 bytes. */
export function generateTxHash(network: Network, rng: Rng): string {
  switch (network) {
    case 'polygon':
    case 'ethereum':
      return generateEvmTxHash(rng)
    case 'stellar':
      return toHex(rng.bytes(32))
    case 'solana':
      return generateSolanaSignature(rng)
  }
}

/** Human description of a valid address for error messages. */
export function describeAddressFormat(network: Network): string {
  switch (network) {
    case 'polygon':
    case 'ethereum':
      return 'a 0x-prefixed address of 40 hex digits with a valid EIP-55 checksum (or in a single case)'
    case 'stellar':
      return 'a Stellar account id: 56 upper-case base32 characters starting with G, with a valid checksum'
    case 'solana':
      return 'a base58 public key of 32 to 44 characters that decodes to exactly 32 bytes'
  }
}

/** Guess which network(s) an address string is valid for (used to explain errors). */
export function networksForAddress(address: string): Network[] {
  return NETWORKS.filter((network) => isValidAddress(network, address))
}
