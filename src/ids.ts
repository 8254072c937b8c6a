import type { Rng } from './rng.js'

export type IdPrefix = 'acct' | 'wal' | 'pay' | 'po' | 'evt' | 'whk' | 'dlv' | 'wla' | 'req' | 'rule' | 'flt'

/** `wal_` followed by 24 base62 characters from the given seeded generator. */
export const newId = (prefix: IdPrefix, rng: Rng): string => `${prefix}_${rng.base62(24)}`
