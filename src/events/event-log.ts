import type { Bus } from './bus.js'
import { EventRing } from './event-ring.js'
import { eventJson } from './order-json.js'
import { PublishedEvent } from './publisher.js'
import { createLongPolls } from '../long-polls.js'
import type { SandboxEvent } from '../model/events.js'
import { paymentJson, PresentedPayment } from '../payment-json.js'

/**
 * The events of every account as webhooks carry them, for `GET /_sandbox/events` (CONTRACT.md section
 * 20): a test awaits an event with one request instead of a receiver and a sleep. Kept whether or
 * not the account has webhook endpoints, the newest `limitPerAccount` per account; older ones are
 * dropped and counted. A read that finds nothing can wait (real time) for the next match. Each
 * account's events are kept as their JSON text (event-ring.ts), parsed again when read, but for
 * order events.
 */

/** Which events a read selects. `types` holds exact types (`payment.*` read as the payment ones); empty selects all. */
export interface EventSelection {
  accountId: string | undefined
  types: readonly string[]
  objectId: string | undefined
}

export interface EventPage {
  events: SandboxEvent[]
  hasMore: boolean
  dropped: number
  /** Resets of the account (of every account, without one), each of which began its log again. */
  resets: number
}

/** One kept event: its account's ring and its position there. */
interface Entry {
  ring: EventRing
  index: number
}

export type EventLog = ReturnType<typeof createEventLog>

export class UnknownCursorError extends Error {}

export function createEventLog(deps: { bus: Bus; limitPerAccount: number }) {
  const { bus, limitPerAccount } = deps
  const logs = new Map<string, EventRing>()
  /** Kept across resets, unlike the logs: a reader holding an `after` id learns by it that the id may mean another event now. */
  const resets = new Map<string, number>()
  const polls = createLongPolls<[accountId: string, type: string, objectId: string | undefined]>()
  let seq = 0

  const matches = (selection: EventSelection, type: string, objectId: string | undefined): boolean =>
    (selection.objectId === undefined || objectId === selection.objectId) &&
    (selection.types.length === 0 || selection.types.includes(type))

  function onEvent(event: SandboxEvent): void {
    const objectId = keep(event)
    if (polls.size > 0) polls.notify(event.account_id, event.type, objectId)
  }

  /** Adds an event to its account's log; answers its object's id. */
  function keep(event: SandboxEvent): string | undefined {
    let ring = logs.get(event.account_id)
    if (!ring) logs.set(event.account_id, (ring = new EventRing(limitPerAccount, event.account_id)))
    const object = event.data.object as { id?: unknown; object?: unknown } | null
    const objectId = object?.id as string | undefined
    // An order's event shares its fills with the order (present-order.ts): as text, each event of an
    // order that fills on every tick would copy them all again, a tick of a thousand fills writing
    // megabytes. Every other event is kept as its text.
    if (object?.object === 'order') ring.pushObject(++seq, event, objectId)
    // A payment's event as the publisher made it (every POST's): its time and the payment's text (the
    // one its answer is written from, paymentJson keeps it), the rest of its head made when read.
    else if (event instanceof PublishedEvent && object instanceof PresentedPayment) ring.pushPublished(++seq, event, paymentJson(object), objectId)
    // Any other: its text, the one the webhooks wrote a moment ago when they did (eventJson keeps the last).
    else ring.push(++seq, event, eventJson(event), objectId)
    return objectId
  }

  /** The kept entries after `seq`: the account's, or every account's merged in sandbox order. */
  function* keptAfter(accountId: string | undefined, seq: number): Generator<Entry> {
    if (accountId === undefined) {
      const entries = [...logs.values()].flatMap((ring) => {
        const first = ring.firstAfter(seq)
        return Array.from({ length: ring.size - first }, (_, i) => ({ ring, index: first + i }))
      })
      yield* entries.sort((a, b) => a.ring.seqAt(a.index) - b.ring.seqAt(b.index))
      return
    }
    const ring = logs.get(accountId)
    if (!ring) return
    for (let index = ring.firstAfter(seq); index < ring.size; index++) yield { ring, index }
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
    for (const { ring, index } of keptAfter(selection.accountId, from)) {
      if (!matches(selection, ring.typeAt(index), ring.objectIdAt(index))) continue
      if (selected.length === limit) {
        hasMore = true
        break
      }
      selected.push(ring.eventAt(index))
    }
    return { events: selected, hasMore, dropped: droppedOf(selection.accountId), resets: resetsOf(selection.accountId) }
  }

  function findSeq(accountId: string | undefined, eventId: string): number | undefined {
    const rings = accountId !== undefined ? [logs.get(accountId)] : [...logs.values()]
    for (const ring of rings) {
      const index = ring?.indexOf(eventId)
      if (index !== undefined) return ring!.seqAt(index)
    }
    return undefined
  }

  const resetsOf = (accountId: string | undefined) =>
    accountId !== undefined ? (resets.get(accountId) ?? 0) : [...resets.values()].reduce((sum, count) => sum + count, 0)

  const droppedOf = (accountId: string | undefined) =>
    accountId !== undefined ? (logs.get(accountId)?.dropped ?? 0) : [...logs.values()].reduce((sum, ring) => sum + ring.dropped, 0)

  /**
   * Resolves once an event that `selection` selects is logged, or after `ms` of real time (an event
   * of the sandbox clock cannot come while a manual clock stands still, so the wait is never on
   * it), or when `abandoned` resolves (the client went away).
   */
  const waitFor = (selection: EventSelection, ms: number, abandoned: Promise<void>): Promise<void> =>
    polls.wait((accountId, type, objectId) => (selection.accountId === undefined || selection.accountId === accountId) && matches(selection, type, objectId), ms, abandoned)

  // A reset account starts again with no events, as it starts with no deliveries; and as its ids
  // start again too (the same seed), an event id it answered before may come back meaning another.
  const onReset = (accountId: string) => {
    logs.delete(accountId)
    resets.set(accountId, (resets.get(accountId) ?? 0) + 1)
  }
  bus.on('event', onEvent)
  bus.on('account.reset', onReset)

  return {
    read,
    waitFor,
    /** An account's kept events, oldest first (its snapshot). */
    exportAccount(accountId: string): SandboxEvent[] {
      const ring = logs.get(accountId)
      return ring ? Array.from({ length: ring.size }, (_, index) => ring.eventAt(index)) : []
    },
    /** An account's restore: its log holds `events` (after the reset that emptied it); nobody waits for events of the past. */
    importAccount(accountId: string, events: readonly SandboxEvent[]): void {
      for (const event of events) keep({ ...event, account_id: accountId })
    },
    close(): void {
      bus.off('event', onEvent)
      bus.off('account.reset', onReset)
      polls.wakeAll()
    },
  }
}
