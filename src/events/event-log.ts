import type { Bus } from './bus.js'
import type { SandboxEvent } from '../model/events.js'

/**
 * The events of every account as webhooks carry them, for `GET /_sandbox/events` (CONTRACT.md section
 * 20): a test awaits an event with one request instead of a receiver and a sleep. Kept whether or
 * not the account has webhook endpoints, the newest `limitPerAccount` per account; older ones are
 * dropped and counted. A read that finds nothing can wait (real time) for the next match.
 */

/** Which events a read selects. `types` holds exact types and `prefix.` entries (from `payment.*`); empty selects all. */
export interface EventSelection {
  accountId: string | undefined
  types: readonly string[]
  objectId: string | undefined
}

export interface EventPage {
  events: SandboxEvent[]
  hasMore: boolean
  dropped: number
}

interface Entry {
  /** Order across the sandbox: a read over every account merges by it. */
  seq: number
  event: SandboxEvent
  objectId: string | undefined
}

interface AccountLog {
  entries: Entry[]
  /** Position in `entries` of the oldest kept entry: dropping is a move of this mark, compacted now and then. */
  start: number
  dropped: number
  bySeq: Map<string, number>
}

interface Waiter {
  selection: EventSelection
  wake: () => void
}

export type EventLog = ReturnType<typeof createEventLog>

export class UnknownCursorError extends Error {}

export function createEventLog(deps: { bus: Bus; limitPerAccount: number }) {
  const { bus, limitPerAccount } = deps
  const logs = new Map<string, AccountLog>()
  const waiters = new Set<Waiter>()
  let seq = 0

  const matches = (selection: EventSelection, entry: Entry): boolean =>
    (selection.objectId === undefined || entry.objectId === selection.objectId) &&
    (selection.types.length === 0 || selection.types.some((type) => (type.endsWith('.') ? entry.event.type.startsWith(type) : entry.event.type === type)))

  function onEvent(event: SandboxEvent): void {
    let log = logs.get(event.account_id)
    if (!log) logs.set(event.account_id, (log = { entries: [], start: 0, dropped: 0, bySeq: new Map() }))
    const entry: Entry = { seq: ++seq, event, objectId: (event.data.object as { id?: unknown } | null)?.id as string | undefined }
    log.entries.push(entry)
    log.bySeq.set(event.id, entry.seq)
    if (log.entries.length - log.start > limitPerAccount) {
      log.bySeq.delete(log.entries[log.start]!.event.id)
      log.start++
      log.dropped++
      // Compact once the dropped part is as long as the kept one: amortised O(1) a drop.
      if (log.start >= limitPerAccount) {
        log.entries = log.entries.slice(log.start)
        log.start = 0
      }
    }
    for (const waiter of waiters) if (waiter.selection.accountId === undefined || waiter.selection.accountId === event.account_id) if (matches(waiter.selection, entry)) waiter.wake()
  }

  /** The kept entries after `seq`: the account's, or every account's merged in sandbox order. */
  function* keptAfter(accountId: string | undefined, seq: number): Generator<Entry> {
    if (accountId === undefined) {
      yield* [...logs.values()].flatMap((log) => log.entries.slice(firstAfter(log, seq))).sort((a, b) => a.seq - b.seq)
      return
    }
    const log = logs.get(accountId)
    if (!log) return
    for (let index = firstAfter(log, seq); index < log.entries.length; index++) yield log.entries[index]!
  }

  /** The position of the first kept entry after `seq` (entries are in `seq` order). */
  function firstAfter(log: AccountLog, seq: number): number {
    let low = log.start
    let high = log.entries.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if (log.entries[middle]!.seq <= seq) low = middle + 1
      else high = middle
    }
    return low
  }

  /** Throws UnknownCursorError when `after` is not an event the log holds (never one, or dropped). */
  function read(selection: EventSelection, after: string | undefined, limit: number): EventPage {
    let from = 0
    if (after !== undefined) {
      const cursor = findSeq(selection.accountId, after)
      if (cursor === undefined) throw new UnknownCursorError(after)
      from = cursor
    }
    const selected: SandboxEvent[] = []
    let hasMore = false
    for (const entry of keptAfter(selection.accountId, from)) {
      if (!matches(selection, entry)) continue
      if (selected.length === limit) {
        hasMore = true
        break
      }
      selected.push(entry.event)
    }
    return { events: selected, hasMore, dropped: droppedOf(selection.accountId) }
  }

  function findSeq(accountId: string | undefined, eventId: string): number | undefined {
    if (accountId !== undefined) return logs.get(accountId)?.bySeq.get(eventId)
    for (const log of logs.values()) {
      const found = log.bySeq.get(eventId)
      if (found !== undefined) return found
    }
    return undefined
  }

  const droppedOf = (accountId: string | undefined) =>
    accountId !== undefined ? (logs.get(accountId)?.dropped ?? 0) : [...logs.values()].reduce((sum, log) => sum + log.dropped, 0)

  /**
   * Resolves once an event that `selection` selects is logged, or after `ms` of real time (an event
   * of the sandbox clock cannot come while a manual clock stands still, so the wait is never on
   * it), or when `abandoned` resolves (the client went away).
   */
  function waitFor(selection: EventSelection, ms: number, abandoned: Promise<void>): Promise<void> {
    return new Promise((resolve) => {
      const waiter: Waiter = { selection, wake: () => finish() }
      const timer = setTimeout(() => finish(), ms)
      const finish = () => {
        clearTimeout(timer)
        waiters.delete(waiter)
        resolve()
      }
      waiters.add(waiter)
      void abandoned.then(finish)
    })
  }

  // A reset account starts again with no events, as it starts with no deliveries.
  const onReset = (accountId: string) => logs.delete(accountId)
  bus.on('event', onEvent)
  bus.on('account.reset', onReset)

  return {
    read,
    waitFor,
    close(): void {
      bus.off('event', onEvent)
      bus.off('account.reset', onReset)
      for (const waiter of [...waiters]) waiter.wake()
    },
  }
}
