/**
 * `compute`, with its results kept for the keys asked lately. The sandbox's small caches (parsed
 * account names, scaled prices, decoded webhook secrets, receivers' URLs, masked keys, …) each see
 * a handful of keys again and again; once `limit` keys are kept, the next new one empties the cache
 * first. No bookkeeping per hit, and a caller that sends a new key every time costs a refill now and
 * then. `compute` never answers undefined (null is a value like any other).
 */
export function boundedCache<K, V extends NonNullable<unknown> | null>(limit: number, compute: (key: K) => V): (key: K) => V {
  const kept = new Map<K, V>()
  // The key asked last and its value, compared before the map: a request's texts (an Authorization
  // header, a recipient) are fresh strings each time, which the map hashes first; comparing them
  // with the last one's text is cheaper, and they are most often the same (issue 33, round 9).
  let lastKey: K | undefined
  let lastValue: V | undefined
  return (key) => {
    if (key === lastKey && lastValue !== undefined) return lastValue
    let value = kept.get(key)
    if (value === undefined) {
      value = compute(key)
      if (kept.size >= limit) kept.clear()
      kept.set(key, value)
    }
    lastKey = key
    lastValue = value
    return value
  }
}
