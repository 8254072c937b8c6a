import { createRng } from '../rng.js'
import { signPayload, type SignInput } from '../standard-webhooks.js'
import { generateSecret } from './secret.js'

/** How the sandbox signs its webhook deliveries (Standard Webhooks, `src/standard-webhooks.ts`). */

/** The secret `--webhook-url` endpoints get when `--webhook-secret` is not given: a function of the seed. */
export const defaultConfiguredSecret = (seed: string): string => generateSecret(createRng(seed, 'webhook-url-secret'))

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
