import { newUniqueId, type IdPrefix } from '../ids.js'
import type { Rng } from '../rng.js'
import { put, type Change } from './changes.js'
import type { Store } from './store.js'

/**
 * A list of control-API rules (outcome rules, fault rules) kept in `store.control[key]`, so that
 * snapshots, resets and the data file see it. Every change stores the new list as one change.
 */
export function controlList<T extends { id: string; remaining: number | null }>(store: Store, key: string) {
  const all = (): readonly T[] => (store.control[key] as T[] | undefined) ?? []
  const save = (list: T[]) => store.apply([put('control', undefined, key, list)])
  return {
    all,
    /** An id no rule of the list has (the generator starts again from the seed after a restart or restore). */
    newId: (prefix: IdPrefix, rng: Rng) => newUniqueId(prefix, rng, (id) => all().some((item) => item.id === id)),
    add(item: T): T {
      save([...all(), item])
      return item
    },
    remove(id: string): T | undefined {
      const removed = all().find((item) => item.id === id)
      if (removed) save(all().filter((item) => item !== removed))
      return removed
    },
    /** Keeps the rules `keep` accepts (all of them go without it); answers how many went. */
    removeAllBut(keep: (item: T) => boolean = () => false): number {
      const before = all().length
      save(all().filter(keep))
      return before - all().length
    },
    /** The change that puts `replacement` in place of the rules `replaced` accepts (an account's restore), to apply with others. */
    replaceWhere: (replaced: (item: T) => boolean, replacement: readonly T[]): Change => put('control', undefined, key, [...all().filter((item) => !replaced(item)), ...replacement]),
    /** One use of a rule with a limited number of uses. */
    countUse(rule: T): void {
      if (rule.remaining === null) return
      save(all().map((item) => (item.id === rule.id ? { ...item, remaining: item.remaining! - 1 } : item)))
    },
  }
}
