import { boundedCache } from './bounded-cache.js'
import { nodeCrypto } from './node-crypto.js'

/**
 * Standard Webhooks (https://www.standardwebhooks.com), both ends: a secret is `whsec_` + base64 of
 * the key bytes, and a signature is `v1,` + base64 of HMAC-SHA256(key, "<id>.<timestamp>.<body>").
 * The sandbox signs its deliveries and `listen --forward-to` its forwards with it; the webhook
 * receivers of the helpers verify with it. Times are passed in, never read here.
 */

export const SECRET_PREFIX = 'whsec_'

/** The HMAC key: the base64-decoded part after `whsec_`. */
export function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret
  return Buffer.from(encoded, 'base64')
}

export interface SignInput {
  secret: string
  /** `webhook-id`: the event id. */
  id: string
  /** `webhook-timestamp`: whole seconds since the epoch. */
  timestamp: number
  body: string
}

/** Decoded keys of the secrets seen last: a sender signs every delivery to an endpoint with the same one. */
const keyOf = boundedCache(256, secretKey)

/** `v1,<base64 signature>`, the value of the `webhook-signature` header. */
export function signPayload({ secret, id, timestamp, body }: SignInput): string {
  const mac = nodeCrypto().createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.`, 'utf8').update(body, 'utf8').digest('base64')
  return `v1,${mac}`
}

/** How far a delivery's timestamp may be from now, as the Standard Webhooks libraries allow. */
export const TIMESTAMP_TOLERANCE_S = 5 * 60

/**
 * Why a delivery does not verify, or undefined when it does: the three headers present, the
 * timestamp within the tolerance of `nowSeconds`, and one of the space-separated `v1,` signatures
 * the HMAC of the body under `secret`.
 */
export function verificationError(secret: string, headers: Record<string, string | string[] | undefined>, body: string, nowSeconds: number): string | undefined {
  const header = (name: string) => {
    const value = headers[name]
    return Array.isArray(value) ? value[0] : value
  }
  const id = header('webhook-id')
  const timestamp = header('webhook-timestamp')
  const signatures = header('webhook-signature')
  if (!id || !timestamp || !signatures) return 'missing webhook-id, webhook-timestamp or webhook-signature'
  const seconds = Number(timestamp)
  if (!/^\d+$/.test(timestamp)) return `webhook-timestamp is not whole seconds: ${JSON.stringify(timestamp)}`
  if (Math.abs(nowSeconds - seconds) > TIMESTAMP_TOLERANCE_S) return `webhook-timestamp ${timestamp} is more than ${TIMESTAMP_TOLERANCE_S} s from now (${nowSeconds})`
  const expected = Buffer.from(signPayload({ secret, id, timestamp: seconds, body }).slice(3), 'base64')
  const matches = signatures.split(' ').some((entry) => {
    if (!entry.startsWith('v1,')) return false
    const given = Buffer.from(entry.slice(3), 'base64')
    return given.length === expected.length && nodeCrypto().timingSafeEqual(given, expected)
  })
  return matches ? undefined : 'no v1 signature matches the body under this secret'
}
