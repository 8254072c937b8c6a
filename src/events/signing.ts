import { createHmac } from 'node:crypto'
import { createRng } from '../rng.js'
import { generateSecret, SECRET_PREFIX } from './secret.js'

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): a secret is `whsec_` + base64 of
 * the key bytes, and a signature is `v1,` + base64 of HMAC-SHA256(key, "<id>.<timestamp>.<body>").
 * The timestamp is passed in, never read here, so that signing is a pure function.
 */
/** The secret `--webhook-url` endpoints get when `--webhook-secret` is not given: a function of the seed. */
export const defaultConfiguredSecret = (seed: string): string => generateSecret(createRng(seed, 'webhook-url-secret'))

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

/** `v1,<base64 signature>`, the value of the `webhook-signature` header. */
export function signPayload({ secret, id, timestamp, body }: SignInput): string {
  const mac = createHmac('sha256', secretKey(secret)).update(`${id}.${timestamp}.${body}`, 'utf8').digest('base64')
  return `v1,${mac}`
}

/** Every header a delivery carries besides the transport ones. */
export function webhookHeaders(input: SignInput & { userAgent: string }): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': input.userAgent,
    'webhook-id': input.id,
    'webhook-timestamp': String(input.timestamp),
    'webhook-signature': signPayload(input),
  }
}
