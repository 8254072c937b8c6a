import type { Outbox } from './outbox.js'

/** Subscribers that listen to the same pairs: a tick joins their frames into one buffer for all of them. */
export interface PriceGroup {
  /** The pairs, in fixture order (the order of a tick's frames). */
  readonly pairs: readonly string[]
  readonly members: ReadonlySet<Outbox>
}

/**
 * Who listens to which pairs, kept as groups of subscribers with the same set of pairs. Most clients
 * subscribe to all pairs or to the same few, so a tick has a handful of groups however many clients
 * there are, and builds each group's bytes once.
 */
export interface PriceGroups {
  /** Adds pairs to a subscriber; returns those it did not have. */
  add(subscriber: Outbox, pairs: readonly string[]): string[]
  /** Removes pairs from a subscriber; returns those it had. */
  remove(subscriber: Outbox, pairs: readonly string[]): string[]
  /** The subscriber's pairs, in fixture order. */
  pairsOf(subscriber: Outbox): readonly string[]
  all(): Iterable<PriceGroup>
  clear(): void
}

interface Group extends PriceGroup {
  readonly key: string
  readonly members: Set<Outbox>
}

export function createPriceGroups(allPairs: readonly string[]): PriceGroups {
  const rank = new Map(allPairs.map((pair, index) => [pair, index]))
  const groups = new Map<string, Group>()
  const groupOf = new Map<Outbox, Group>()

  /** Moves the subscriber to the group of exactly these pairs (none: out of every group). */
  function place(subscriber: Outbox, pairs: Set<string>): void {
    const old = groupOf.get(subscriber)
    if (old) {
      old.members.delete(subscriber)
      if (old.members.size === 0) groups.delete(old.key)
      groupOf.delete(subscriber)
    }
    if (pairs.size === 0) return
    const sorted = [...pairs].sort((a, b) => rank.get(a)! - rank.get(b)!)
    const key = sorted.join(',')
    let group = groups.get(key)
    if (!group) groups.set(key, (group = { key, pairs: sorted, members: new Set() }))
    group.members.add(subscriber)
    groupOf.set(subscriber, group)
  }

  return {
    add(subscriber, pairs) {
      const now = new Set(groupOf.get(subscriber)?.pairs)
      const added: string[] = []
      for (const pair of pairs) {
        if (now.has(pair)) continue
        now.add(pair)
        added.push(pair)
      }
      if (added.length > 0) place(subscriber, now)
      return added
    },
    remove(subscriber, pairs) {
      const now = new Set(groupOf.get(subscriber)?.pairs)
      const removed = pairs.filter((pair) => now.delete(pair))
      if (removed.length > 0) place(subscriber, now)
      return removed
    },
    pairsOf: (subscriber) => groupOf.get(subscriber)?.pairs ?? [],
    all: () => groups.values(),
    clear() {
      groups.clear()
      groupOf.clear()
    },
  }
}
