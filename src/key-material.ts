import { nodeCrypto } from './node-crypto.js'
import type { Rng } from './rng.js'
import type { SigningAlgorithm, SigningKeyRecord } from './model/records.js'

/**
 * Request-signing key material (CONTRACT.md sections 17 and 19): formats, checks and generation, for
 * the config, the control API's schema and the ledger alike.
 */

/** Standard base64 with padding (CONTRACT.md section 19), decoding to at least one byte. */
export const isStandardBase64 = (value: string): boolean => /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(value) && value.length > 0

/** A new key's signing material and what its creator sees once: the HMAC secret, or the Ed25519 private key. */
export interface CreatedSigningKey {
  record: SigningKeyRecord
  /** Ed25519 keys the sandbox generated: the private key, PKCS#8 PEM. Not kept. */
  privateKey?: string
}

/**
 * Signing material for a key created through the control API, drawn from the key's seeded
 * generator so that the same seed gives the same secrets. `publicKey` is the caller's Ed25519 key
 * (checked by `parseEd25519PublicKey` first).
 */
export function createSigningKey(alg: SigningAlgorithm, rng: Rng, publicKey?: string): CreatedSigningKey {
  const keyId = `key_${rng.base62(24)}`
  if (alg === 'hmac-sha256') return { record: { alg, key_id: keyId, secret: Buffer.from(rng.bytes(32)).toString('base64') } }
  if (publicKey !== undefined) return { record: { alg, key_id: keyId, public_key: parseEd25519PublicKey(publicKey)! } }
  // An Ed25519 private key is any 32 bytes; wrapped in PKCS#8 (RFC 8410), node derives the public key.
  const der = Buffer.concat([ED25519_PKCS8_PREFIX, rng.bytes(32)])
  const privateKey = nodeCrypto().createPrivateKey({ key: der, format: 'der', type: 'pkcs8' })
  return {
    record: { alg, key_id: keyId, public_key: nodeCrypto().createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString() },
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  }
}

const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex')
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex')

/** An Ed25519 public key as SPKI PEM, from SPKI PEM or the base64 of its raw 32 bytes; undefined when it is neither. */
export function parseEd25519PublicKey(value: string): string | undefined {
  const trimmed = value.trim()
  try {
    const key = trimmed.startsWith('-----BEGIN')
      ? nodeCrypto().createPublicKey({ key: trimmed, format: 'pem' })
      : isStandardBase64(trimmed) && Buffer.from(trimmed, 'base64').length === 32
        ? nodeCrypto().createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(trimmed, 'base64')]), format: 'der', type: 'spki' })
        : undefined
    if (key?.asymmetricKeyType !== 'ed25519') return undefined
    return key.export({ type: 'spki', format: 'pem' }).toString()
  } catch {
    return undefined
  }
}
