import { newUniqueId, type IdPrefix } from '../ids.js'
import type { Rng } from '../rng.js'
import type { Store } from './store.js'

/**
 * A list of control-API rules (outcome rules, fault rules) kept in `store.control[key]`, so that
 * snapshots, resets and the data file see it. Every change goes through `store.update`.
 */
export function controlList<T extends { id: string }>(store: Store, key: string) {
  const all = (): T[] => ((store.control[key] as T[] | undefined) ??= [])
  return {
    all,
    /** An id no rule of the list has (the generator starts again from the seed after a restart or restore). */
    newId: (prefix: IdPrefix, rng: Rng) => newUniqueId(prefix, rng, (id) => all().some((item) => item.id === id)),
    add(item: T): T {
      store.update(() => all().push(item))
      return item
    },
    remove(id: string): T | undefined {
      const list = all()
      const index = list.findIndex((item) => item.id === id)
      if (index === -1) return undefined
      return store.update(() => list.splice(index, 1)[0])
    },
    /** Keeps the rules `keep` accepts (all of them go without it); answers how many went. */
    removeAllBut(keep: (item: T) => boolean = () => false): number {
      const before = all().length
      store.update(() => (store.control[key] = all().filter(keep)))
      return before - all().length
    },
  }
}
