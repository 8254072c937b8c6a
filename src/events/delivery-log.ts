import type { TimerHandle } from '../clock.js'
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
}

export interface DeliveryFilter {
  account_id?: string
  event_id?: string
  endpoint_id?: string
  status?: DeliveryStatus
}

/** Per account, the most recent deliveries kept; older ones are forgotten (but still retried). */
export const MAX_DELIVERIES_PER_ACCOUNT = 1000
/** Per delivery, the most recent attempts kept (manual retries can add any number). */
export const MAX_ATTEMPTS_KEPT = 50

export function createDeliveryLog(limitPerAccount = MAX_DELIVERIES_PER_ACCOUNT) {
  const byAccount = new Map<string, DeliveryRecord[]>()
  const byId = new Map<string, DeliveryRecord>()
  let seq = 0

  return {
    add(record: Omit<DeliveryRecord, 'seq'>): DeliveryRecord {
      const stored: DeliveryRecord = { ...record, seq: ++seq }
      let list = byAccount.get(stored.account_id)
      if (!list) byAccount.set(stored.account_id, (list = []))
      list.push(stored)
      byId.set(stored.id, stored)
      while (list.length > limitPerAccount) byId.delete(list.shift()!.id)
      return stored
    },

    get: (id: string): DeliveryRecord | undefined => byId.get(id),

    /** Newest first. */
    list(filter: DeliveryFilter): DeliveryRecord[] {
      const lists = filter.account_id !== undefined ? [byAccount.get(filter.account_id) ?? []] : [...byAccount.values()]
      return lists
        .flat()
        .filter(
          (d) =>
            (filter.event_id === undefined || d.event_id === filter.event_id) &&
            (filter.endpoint_id === undefined || d.endpoint_id === filter.endpoint_id) &&
            (filter.status === undefined || d.status === filter.status),
        )
        .sort((a, b) => b.seq - a.seq)
    },

    /** Forgets an account's deliveries and returns them, so that the caller can cancel their timers. */
    dropAccount(accountId: string): DeliveryRecord[] {
      const list = byAccount.get(accountId) ?? []
      byAccount.delete(accountId)
      for (const record of list) byId.delete(record.id)
      return list
    },

  }
}

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
