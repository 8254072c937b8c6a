import { base32nopad } from '@scure/base'
import type { Rng } from '../rng.js'

/** StrKey version byte for an ed25519 public key (account id); encodes to a leading 'G'. */
const ACCOUNT_ID_VERSION = 6 << 3
const PAYLOAD_LENGTH = 32
const STRKEY_PATTERN = /^G[A-Z2-7]{55}$/

/** CRC16-XModem: poly 0x1021, init 0, no reflection. */
function crc16xmodem(bytes: Uint8Array): number {
  let crc = 0
  for (const byte of bytes) {
    crc ^= byte << 8
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff
    }
  }
  return crc
}

/** Encodes a 32-byte ed25519 public key as a Stellar account id (G...). */
export function encodeStellarAccountId(publicKey: Uint8Array): string {
  if (publicKey.length !== PAYLOAD_LENGTH) throw new RangeError('a Stellar public key is 32 bytes')
  const body = new Uint8Array(1 + PAYLOAD_LENGTH + 2)
  body[0] = ACCOUNT_ID_VERSION
  body.set(publicKey, 1)
  const crc = crc16xmodem(body.subarray(0, 1 + PAYLOAD_LENGTH))
  body[1 + PAYLOAD_LENGTH] = crc & 0xff
  body[2 + PAYLOAD_LENGTH] = crc >>> 8
  return base32nopad.encode(body)
}

/** The 32-byte public key of a valid account id, or undefined. */
export function decodeStellarAccountId(address: string): Uint8Array | undefined {
  if (!STRKEY_PATTERN.test(address)) return undefined
  let body: Uint8Array
  try {
    body = base32nopad.decode(address)
  } catch {
    return undefined
  }
  if (body.length !== 1 + PAYLOAD_LENGTH + 2 || body[0] !== ACCOUNT_ID_VERSION) return undefined
  const payload = body.slice(1, 1 + PAYLOAD_LENGTH)
  // Re-encoding rejects any string that decodes but is not the canonical form (checksum included).
  return encodeStellarAccountId(payload) === address ? payload : undefined
}

export function isValidStellarAddress(address: string): boolean {
  return decodeStellarAccountId(address) !== undefined
}

export function generateStellarAddress(rng: Rng): string {
  return encodeStellarAccountId(rng.bytes(PAYLOAD_LENGTH))
}
