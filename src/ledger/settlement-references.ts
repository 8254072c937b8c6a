import type { Rail } from '../model/records.js'
import type { Rng } from '../rng.js'

const digits = (rng: Rng, length: number) => Array.from({ length }, () => String(rng.int(10))).join('')
const upper = (rng: Rng, length: number) => rng.base62(length).toUpperCase()

/**
 * A payout's reference in its rail's usual form: an ACH trace number (15 digits), a SEPA
 * end-to-end id, a Faster Payments reference, a SPEI clave de rastreo. From the account's seeded
 * generator, so they repeat under the same seed.
 */
export function generateRailReference(rail: Rail, rng: Rng): string {
  switch (rail) {
    case 'ach':
      return digits(rng, 15)
    case 'sepa':
      return `E2E${upper(rng, 20)}`
    case 'fps':
      return `FP${upper(rng, 16)}`
    case 'spei':
      return `SPEI${digits(rng, 16)}`
  }
}
