import type { Rng } from '../rng.js'

/**
 * An endpoint's signing secret, apart from the signing itself: the ledger creates secrets when an
 * endpoint is made or rotated, and knows nothing of how deliveries are signed.
 */
export const SECRET_PREFIX = 'whsec_'

/** `whsec_` + base64 of 32 bytes from the given generator. */
export function generateSecret(rng: Rng): string {
  return SECRET_PREFIX + Buffer.from(rng.bytes(32)).toString('base64')
}
