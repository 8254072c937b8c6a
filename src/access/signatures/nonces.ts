/**
 * Nonces seen within the freshness window, per API key. A nonce is forgotten once its signature is
 * older than the window: such a signature is refused as expired anyway, so memory stays bounded by
 * the requests of one window.
 */
export interface NonceMemory {
  /** True when the nonce was already used within the window. */
  seen(scope: string, nonce: string, nowSeconds: number): boolean
  /** Remembers a nonce of a request that passed, until `created + window`. */
  remember(scope: string, nonce: string, created: number, nowSeconds: number): void
  size(): number
}

export function createNonceMemory(windowSeconds: number): NonceMemory {
  // Insertion order is expiry order only roughly (created varies), so pruning scans from the front
  // until it meets a live entry and lets a few late ones wait for the next pass.
  const expiries = new Map<string, number>()
  const prune = (now: number) => {
    for (const [entry, expiresAt] of expiries) {
      if (expiresAt > now) break
      expiries.delete(entry)
    }
  }
  const entryOf = (scope: string, nonce: string) => `${scope}\u0000${nonce}`
  return {
    seen(scope, nonce, now) {
      prune(now)
      const expiresAt = expiries.get(entryOf(scope, nonce))
      return expiresAt !== undefined && expiresAt > now
    },
    remember(scope, nonce, created, now) {
      prune(now)
      const entry = entryOf(scope, nonce)
      expiries.delete(entry)
      expiries.set(entry, created + windowSeconds)
    },
    size: () => expiries.size,
  }
}
