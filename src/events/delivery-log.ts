import type { TimerHandle } from '../clock.js'
import { Heap } from '../heap.js'
import type { EventType } from '../model/events.js'

/** The control API's record of webhook deliveries (CONTRACT.md section 13), bounded per account. */

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed'

export interface DeliveryAttempt {
  /** Sandbox time the attempt started. */
  at: string
  response_status: number | null
  duration_ms: number
  error: string | null
  response_excerpt: string | null
}

/** The wire shape of `GET /_sandbox/webhooks/deliveries`. */
export interface Delivery {
  id: string
  event_id: string
  event_type: EventType
  endpoint_id: string
  url: string
  status: DeliveryStatus
  attempts: DeliveryAttempt[]
  next_attempt_at: string | null
}

/** A delivery as an account's snapshot keeps it: what the wire shows, and what its next attempts need. */
export interface DeliveryDocument extends Delivery {
  body: string
  retries_done: number
}

export interface DeliveryRecord extends Delivery {
  account_id: string
  /** The exact bytes every attempt sends (the event as it was when it happened). */
  body: string
  /** Automatic retries sent or scheduled so far: the position in the retry schedule. */
  retries_done: number
  /** The scheduled retry, if one is waiting on the sandbox clock. */
  timer: TimerHandle | undefined
  /** Set when the account is reset: whatever is still running for it stops quietly. */
  dropped: boolean
  /** Creation order across the sandbox, for newest-first listing. */
  seq: number
  /** Its place among its account's finished deliveries (the order they are dropped in), -1 when not among them. */
  heapIndex: number
}

/** What `add` takes: a record without the log's own bookkeeping, which it sets on the record itself. */
export type NewDeliveryRecord = Omit<DeliveryRecord, 'seq' | 'heapIndex'> & Partial<Pick<DeliveryRecord, 'seq' | 'heapIndex'>>

export interface DeliveryFilter {
  account_id?: string
  event_id?: string
  endpoint_id?: string
  status?: DeliveryStatus
}

/** Per delivery, the most recent attempts kept (manual retries can add any number). */
export const MAX_ATTEMPTS_KEPT = 50

/**
 * The log keeps at most `limitPerAccount` deliveries per account (`--delivery-log-limit`): beyond
 * it the oldest finished ones are dropped, and counted so that the list can say how many. A
 * delivery still scheduled (`pending`) is never dropped, so while more than the limit wait for a
 * receiver the log holds them all, and shrinks back as they finish.
 */
export function createDeliveryLog(limitPerAccount: number) {
  const byAccount = new Map<string, AccountDeliveries>()
  const byId = new Map<string, DeliveryRecord>()
  /** Per account, per endpoint: how many finished deliveries of each status were dropped. */
  const dropped = new Map<string, Map<string, Record<FinalStatus, number>>>()
  let seq = 0

  /**
   * Drops the oldest finished deliveries while the account is over its limit. They come from a heap
   * by creation order, not from a walk of the account's list from its front: a Map walked from the
   * front steps over every entry deleted since its last rehash (hundreds, at the limit), and over
   * every pending delivery ahead of the finished ones.
   */
  function trim(account: AccountDeliveries): void {
    const { records, finished } = account
    while (records.size > limitPerAccount) {
      const record = finished.pop()
      if (record === undefined) return
      // Finished once, then sent again by the first attempt still queued for it, and waiting on a retry:
      // not droppable now; `finished` puts it back when it ends again.
      if (record.status === 'pending') continue
      records.delete(record.id)
      byId.delete(record.id)
      countDropped(record, record.status)
    }
  }

  function countDropped(record: DeliveryRecord, status: FinalStatus): void {
    let endpoints = dropped.get(record.account_id)
    if (!endpoints) dropped.set(record.account_id, (endpoints = new Map()))
    let counts = endpoints.get(record.endpoint_id)
    if (!counts) endpoints.set(record.endpoint_id, (counts = { succeeded: 0, failed: 0 }))
    counts[status]++
  }

  function markFinished(account: AccountDeliveries, record: DeliveryRecord): void {
    if (record.status !== 'pending' && !account.finished.has(record)) account.finished.push(record)
  }

  return {
    /** Keeps the record itself (no copy), numbered in creation order. */
    add(fresh: NewDeliveryRecord): DeliveryRecord {
      const record = fresh as DeliveryRecord
      record.seq = ++seq
      record.heapIndex = -1
      let account = byAccount.get(record.account_id)
      if (!account) byAccount.set(record.account_id, (account = { records: new Map(), finished: new Heap(createdBefore) }))
      account.records.set(record.id, record)
      byId.set(record.id, record)
      markFinished(account, record)
      trim(account)
      return record
    },

    /** A delivery has finished (succeeded or failed for good): the log may drop it, or an older one, now. */
    finished(record: DeliveryRecord): void {
      const account = byAccount.get(record.account_id)
      if (!account || !account.records.has(record.id)) return
      markFinished(account, record)
      trim(account)
    },

    get: (id: string): DeliveryRecord | undefined => byId.get(id),

    /** Newest first. */
    list(filter: DeliveryFilter): DeliveryRecord[] {
      const accounts = filter.account_id !== undefined ? [byAccount.get(filter.account_id)].filter((a) => a !== undefined) : [...byAccount.values()]
      return accounts
        .flatMap((account) => [...account.records.values()])
        .filter(
          (d) =>
            (filter.event_id === undefined || d.event_id === filter.event_id) &&
            (filter.endpoint_id === undefined || d.endpoint_id === filter.endpoint_id) &&
            (filter.status === undefined || d.status === filter.status),
        )
        .sort((a, b) => b.seq - a.seq)
    },

    /**
     * How many dropped deliveries the filter's account, endpoint and status select. The log does
     * not remember which events dropped deliveries were for, so `event_id` does not narrow it.
     */
    droppedCount(filter: DeliveryFilter): number {
      const accounts = filter.account_id !== undefined ? [dropped.get(filter.account_id) ?? new Map()] : [...dropped.values()]
      let total = 0
      for (const endpoints of accounts) {
        for (const [endpointId, counts] of endpoints) {
          if (filter.endpoint_id !== undefined && endpointId !== filter.endpoint_id) continue
          if (filter.status === 'pending') continue
          total += filter.status === undefined ? counts.succeeded + counts.failed : counts[filter.status]
        }
      }
      return total
    },

    /** Forgets an account's deliveries (and its dropped counts) and returns them, so that the caller can cancel their timers. */
    dropAccount(accountId: string): DeliveryRecord[] {
      const list = [...(byAccount.get(accountId)?.records.values() ?? [])]
      byAccount.delete(accountId)
      dropped.delete(accountId)
      for (const record of list) byId.delete(record.id)
      return list
    },
  }
}

type FinalStatus = Exclude<DeliveryStatus, 'pending'>

interface AccountDeliveries {
  /** In creation order (a Map keeps it, and deletes anywhere in O(1)). */
  records: Map<string, DeliveryRecord>
  /** Those that have finished, oldest first: the order they are dropped in. */
  finished: Heap<DeliveryRecord>
}

const createdBefore = (a: DeliveryRecord, b: DeliveryRecord) => a.seq < b.seq

export type DeliveryLog = ReturnType<typeof createDeliveryLog>

export function recordAttempt(record: DeliveryRecord, attempt: DeliveryAttempt): void {
  record.attempts.push(attempt)
  if (record.attempts.length > MAX_ATTEMPTS_KEPT) record.attempts.splice(0, record.attempts.length - MAX_ATTEMPTS_KEPT)
}

export function presentDelivery(record: DeliveryRecord): Delivery {
  return {
    id: record.id,
    event_id: record.event_id,
    event_type: record.event_type,
    endpoint_id: record.endpoint_id,
    url: record.url,
    status: record.status,
    attempts: record.attempts.map((attempt) => ({ ...attempt })),
    next_attempt_at: record.next_attempt_at,
  }
}
