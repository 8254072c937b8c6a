/** API keys: secret or restricted with scopes, IP rules, and an optional request-signing key. */

export const SCOPES = [
  'wallets:read',
  'wallets:write',
  'payments:read',
  'payments:write',
  'webhooks:read',
  'webhooks:write',
  'whitelist:read',
  'whitelist:write',
  'orders:read',
  'orders:write',
  'settlements:read',
  'settlements:write',
] as const
export type Scope = (typeof SCOPES)[number]

export type KeyType = 'secret' | 'restricted'
export interface KeyRecord {
  key: string
  account_id: string
  type: KeyType
  /** `['*']` for secret keys. */
  scopes: Array<Scope | '*'>
  /** Exact addresses or CIDR blocks; empty allows any address. */
  allowed_ips: string[]
  /** When set, every `/v1` request with this key must be signed with it (CONTRACT.md section 17). */
  signing?: SigningKeyRecord
}

export const SIGNING_ALGORITHMS = ['hmac-sha256', 'ed25519'] as const
export type SigningAlgorithm = (typeof SIGNING_ALGORITHMS)[number]

/** What the sandbox keeps to verify signatures: the HMAC secret, or the Ed25519 public key (never its private key). */
export type SigningKeyRecord =
  | { alg: 'hmac-sha256'; key_id: string; /** Standard base64 of the key bytes. */ secret: string }
  | { alg: 'ed25519'; key_id: string; /** SPKI PEM. */ public_key: string }
