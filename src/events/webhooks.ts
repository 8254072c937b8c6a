import { wallClockSeconds, type Clock } from '../clock.js'
import type { Logger } from '../logger.js'
import { put } from '../store/changes.js'
import type { Store } from '../store/store.js'
import { VERSION } from '../version.js'
import type { Bus } from './bus.js'
import type { EventType, SandboxEvent } from '../model/events.js'
import type { WebhookEndpointRecord } from '../model/records.js'
import { createDeliveryIds } from './delivery-ids.js'
import { createDeliveryLog, presentDelivery, recordAttempt, type Delivery, type DeliveryDocument, type DeliveryFilter, type DeliveryRecord } from './delivery-log.js'
import { createFirstAttempts } from './first-attempts.js'
import { eventJson } from './order-json.js'
import { nextRetryDelay } from './retry-schedule.js'
import { webhookHeaders } from './signing.js'
import { createWebhookTransport, type AttemptOutcome, type WebhookTransport } from './webhook-http.js'
import { createWorkTracker } from './work-tracker.js'
import { isoOf } from '../date-text.js'

export interface WebhookEngine {
  /** Newest first. */
  list(filter: DeliveryFilter): Delivery[]
  /** How many deliveries the filter selects that the log has dropped (`--delivery-log-limit`). */
  dropped(filter: DeliveryFilter): number
  get(id: string): Delivery | undefined
  /** One more attempt now, whatever the delivery's status; resolves with the updated delivery. */
  retry(id: string): Promise<Delivery | undefined>
  /** An account's deliveries, oldest first, with what their next attempts need (its snapshot). */
  exportAccount(accountId: string): DeliveryDocument[]
  /** An account's restore: its log holds `deliveries` (after the reset that emptied it), those on their way rescheduled. */
  importAccount(accountId: string, deliveries: readonly DeliveryDocument[]): void
  /** Resolves once no attempt is queued or in flight (scheduled retries wait on the clock and do not count). */
  idle(): Promise<void>
  close(): void
}

export interface WebhookEngineDeps {
  bus: Bus
  clock: Clock
  store: Store
  config: { webhookRetries: readonly number[]; webhookTimeout: number; deliveryLogLimit: number }
  /** Where delivery ids come from (the seed, or a seed that changes from one start to the next). */
  idSeed: string
  logger: Logger
  transport?: WebhookTransport
}

type Trigger = 'automatic' | 'manual'

const USER_AGENT = `wallet-sandbox/${VERSION}`
const is2xx = (status: number | null) => status !== null && status >= 200 && status < 300

/** Whether an endpoint wants events of this type (`'*'` is honoured for hand-edited data files). */
export const subscribes = (endpoint: WebhookEndpointRecord, type: EventType): boolean =>
  endpoint.events.includes(type) || endpoint.events.includes('*')

/**
 * Delivers every event on the bus to the account's matching endpoints (CONTRACT.md section 9).
 * Nothing here is awaited by a request: the bus listener only queues. First attempts to one
 * endpoint go out in event order (`first-attempts.ts`); retries wait on the account's clock; every
 * failure is caught and logged as an attempt.
 */
export function createWebhookEngine(deps: WebhookEngineDeps): WebhookEngine {
  const { bus, clock, store, config, logger } = deps
  const transport = deps.transport ?? createWebhookTransport()
  const log = createDeliveryLog(config.deliveryLogLimit)
  const ids = createDeliveryIds(deps.idSeed)
  const work = createWorkTracker()
  const firstAttempts = createFirstAttempts({ clock, send: (record) => attempt(record, 'automatic'), done: work.end })
  let closed = false

  function onEvent(event: SandboxEvent): void {
    try {
      const account = store.accounts.get(event.account_id)
      if (!account || closed) return
      let body: string | undefined
      for (const endpoint of account.webhooks.values()) {
        if (endpoint.status !== 'enabled' || !subscribes(endpoint, event.type)) continue
        body ??= eventJson(event)
        const record = log.add({
          id: ids.next(event.account_id),
          event_id: event.id,
          event_type: event.type,
          endpoint_id: endpoint.id,
          url: endpoint.url,
          status: 'pending',
          attempts: [],
          next_attempt_at: clock.nowIso(event.account_id),
          account_id: event.account_id,
          body,
          retries_done: 0,
          timer: undefined,
          dropped: false,
          // The log's own fields, set by `add`: here so that the record has its final shape from the start.
          seq: 0,
          heapIndex: -1,
        })
        work.start()
        firstAttempts.add(record)
      }
    } catch (error) {
      logger.error(`Could not queue webhook deliveries for ${event.id}`, error)
    }
  }

  /** Sends one attempt and applies its outcome. Never rejects. */
  async function attempt(record: DeliveryRecord, trigger: Trigger): Promise<void> {
    try {
      if (record.dropped || closed) return
      const at = clock.nowIso(record.account_id)
      const endpoint = store.accounts.get(record.account_id)?.webhooks.get(record.endpoint_id)
      if (!endpoint || (trigger === 'automatic' && endpoint.status === 'disabled')) {
        const reason = endpoint ? `the endpoint ${record.endpoint_id} is disabled (PUT status "enabled" turns it back on)` : `the endpoint ${record.endpoint_id} has been deleted`
        finish(record, { at, response_status: null, duration_ms: 0, error: `not sent: ${reason}`, response_excerpt: null }, 'failed')
        return
      }
      record.url = endpoint.url
      const headers = webhookHeaders({ secret: endpoint.secret, id: record.event_id, timestamp: wallClockSeconds(), body: record.body, userAgent: USER_AGENT })
      const outcome = await transport.post({ url: endpoint.url, headers, body: record.body, timeoutMs: config.webhookTimeout })
      if (record.dropped || closed) return
      apply(record, at, outcome, trigger)
    } catch (error) {
      logger.error(`Webhook delivery ${record.id} failed unexpectedly`, error)
    }
  }

  function apply(record: DeliveryRecord, at: string, outcome: AttemptOutcome, trigger: Trigger): void {
    const entry = { at, response_status: outcome.status, duration_ms: outcome.durationMs, error: outcome.error, response_excerpt: outcome.excerpt }
    if (is2xx(outcome.status)) return finish(record, entry, 'succeeded')
    if (outcome.status === 410) {
      const endpoint = store.accounts.get(record.account_id)?.webhooks.get(record.endpoint_id)
      if (endpoint && endpoint.status !== 'disabled') store.apply([put('webhook', record.account_id, endpoint.id, { ...endpoint, status: 'disabled' })])
      return finish(record, entry, 'failed')
    }
    recordAttempt(record, entry)
    // A manual retry that fails leaves a scheduled retry (or the queued first attempt) in place, and schedules none of its own.
    if (trigger === 'manual') {
      if (!record.timer && !firstAttempts.has(record)) {
        record.status = 'failed'
        log.finished(record)
      }
      return
    }
    const delay = nextRetryDelay(config.webhookRetries, record.retries_done)
    if (delay === undefined) {
      record.status = 'failed'
      record.next_attempt_at = null
      log.finished(record)
      return
    }
    record.retries_done++
    record.status = 'pending'
    record.next_attempt_at = isoOf(clock.now(record.account_id) + delay)
    record.timer = clock.schedule(delay, () => runScheduledRetry(record), record.account_id)
  }

  function finish(record: DeliveryRecord, entry: DeliveryRecord['attempts'][number], status: 'succeeded' | 'failed'): void {
    recordAttempt(record, entry)
    clock.cancel(record.timer)
    record.timer = undefined
    record.status = status
    record.next_attempt_at = null
    log.finished(record)
  }

  /**
   * Runs on the sandbox clock; returns at once so that a slow receiver never holds real time up,
   * but is tracked, so that an advance sees the attempt end (and its next retry scheduled) before
   * it moves past it.
   */
  function runScheduledRetry(record: DeliveryRecord): void {
    record.timer = undefined
    if (record.dropped || closed) return
    work.start()
    clock.track(attempt(record, 'automatic').finally(work.end), record.account_id)
  }

  function dropAccount(accountId: string): void {
    for (const record of log.dropAccount(accountId)) {
      record.dropped = true
      clock.cancel(record.timer)
      record.timer = undefined
    }
    ids.dropAccount(accountId)
  }

  const onReset = (accountId: string) => dropAccount(accountId)
  // First in line: a listener that reacts to an event by emitting another one (settlement) must not
  // get its follow-up queued ahead of the event that caused it.
  bus.prependListener('event', onEvent)
  bus.on('account.reset', onReset)

  return {
    list: (filter) => log.list(filter).map(presentDelivery),
    exportAccount: (accountId) => log.list({ account_id: accountId }).reverse().map((record) => ({ ...presentDelivery(record), body: record.body, retries_done: record.retries_done })),
    importAccount(accountId, deliveries) {
      for (const delivery of deliveries) {
        const record = log.add({ ...delivery, attempts: [...delivery.attempts], account_id: accountId, timer: undefined, dropped: false })
        // A delivery on its way goes on at its next attempt's time, on the account's clock.
        if (record.status !== 'pending') continue
        const due = record.next_attempt_at === null ? 0 : Date.parse(record.next_attempt_at) - clock.now(accountId)
        record.timer = clock.schedule(Math.max(0, due), () => runScheduledRetry(record), accountId)
      }
    },
    dropped: (filter) => log.droppedCount(filter),
    get(id) {
      const record = log.get(id)
      return record && presentDelivery(record)
    },
    async retry(id) {
      const record = log.get(id)
      if (!record) return undefined
      work.start()
      try {
        await attempt(record, 'manual')
      } finally {
        work.end()
      }
      return presentDelivery(record)
    },
    idle: work.idle,
    close() {
      closed = true
      bus.off('event', onEvent)
      bus.off('account.reset', onReset)
      transport.close()
    },
  }
}
