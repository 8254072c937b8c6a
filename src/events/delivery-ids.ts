import { newId } from '../ids.js'
import { createRng, type Rng } from '../rng.js'

/**
 * Delivery ids (`dlv_…`) from a generator per account, so that deliveries never shift the ledger's
 * ids. Each reset or restore of an account starts its next generator on a new stream: the ids of
 * the deliveries it dropped are never handed out again.
 */
export function createDeliveryIds(seed: string) {
  const rngs = new Map<string, Rng>()
  const drops = new Map<string, number>()
  return {
    next(accountId: string): string {
      let rng = rngs.get(accountId)
      if (!rng) rngs.set(accountId, (rng = createRng(seed, 'deliveries', accountId, drops.get(accountId) ?? 0)))
      return newId('dlv', rng)
    },
    dropAccount(accountId: string): void {
      rngs.delete(accountId)
      drops.set(accountId, (drops.get(accountId) ?? 0) + 1)
    },
  }
}
