import type { Rng } from '../rng.js'
import { SECRET_PREFIX } from '../standard-webhooks.js'

/**
 * An endpoint's signing secret, apart from the signing itself: the ledger creates secrets when an
 * endpoint is made or rotated, and knows nothing of how deliveries are signed.
 */

/** `whsec_` + base64 of 32 bytes from the given generator. */
export function generateSecret(rng: Rng): string {
  return SECRET_PREFIX + Buffer.from(rng.bytes(32)).toString('base64')
}
