import type { Rng } from './rng.js'

export type IdPrefix = 'acct' | 'wal' | 'pay' | 'po' | 'evt' | 'whk' | 'dlv' | 'wla' | 'req' | 'rule' | 'flt' | 'quo' | 'ord' | 'stl'

/** `wal_` followed by 24 base62 characters from the given seeded generator. */
export const newId = (prefix: IdPrefix, rng: Rng): string => `${prefix}_${rng.base62(24)}`

/**
 * A fresh id that `taken` does not know yet. For sandbox-wide records kept in the data file (outcome
 * and fault rules) whose generator starts again from the seed on every start: the first rule of a
 * restarted sandbox would otherwise get the id of the first rule it still holds.
 */
export function newUniqueId(prefix: IdPrefix, rng: Rng, taken: (id: string) => boolean): string {
  let id = newId(prefix, rng)
  while (taken(id)) id = newId(prefix, rng)
  return id
}
