import { wallClockSeconds, type Clock } from '../clock.js'
import { newId } from '../ids.js'
import type { Logger } from '../logger.js'
import { createRng, type Rng } from '../rng.js'
import { put } from '../store/changes.js'
import type { Store } from '../store/store.js'
import { VERSION } from '../version.js'
import type { Bus } from './bus.js'
import type { EventType, SandboxEvent } from '../model/events.js'
import type { WebhookEndpointRecord } from '../model/records.js'
import { createDeliveryLog, presentDelivery, recordAttempt, type Delivery, type DeliveryFilter, type DeliveryRecord } from './delivery-log.js'
import { eventJson } from './order-json.js'
import { nextRetryDelay } from './retry-schedule.js'
import { webhookHeaders } from './signing.js'
import { createWebhookTransport, type AttemptOutcome, type WebhookTransport } from './webhook-http.js'

export interface WebhookEngine {
  /** Newest first. */
  list(filter: DeliveryFilter): Delivery[]
  /** How many deliveries the filter selects that the log has dropped (`--delivery-log-limit`). */
  dropped(filter: DeliveryFilter): number
  get(id: string): Delivery | undefined
  /** One more attempt now, whatever the delivery's status; resolves with the updated delivery. */
  retry(id: string): Promise<Delivery | undefined>
  /** Resolves once no attempt is queued or in flight (scheduled retries wait on the clock and do not count). */
  idle(): Promise<void>
  close(): void
}

export interface WebhookEngineDeps {
  bus: Bus
  clock: Clock
  store: Store
  config: { seed: string; webhookRetries: readonly number[]; webhookTimeout: number; deliveryLogLimit: number }
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
 * endpoint go out one after the other in event order (so a receiver sees `created` before
 * `succeeded`); retries wait on the sandbox clock; every failure is caught and logged as an attempt.
 */
export function createWebhookEngine(deps: WebhookEngineDeps): WebhookEngine {
  const { bus, clock, store, config, logger } = deps
  const transport = deps.transport ?? createWebhookTransport()
  const log = createDeliveryLog(config.deliveryLogLimit)
  /** Delivery ids come from a generator per account, so deliveries never shift the ledger's ids. */
  const idRngs = new Map<string, Rng>()
  /** How often each account was reset or restored: its next generator must not replay the ids of the last. */
  const drops = new Map<string, number>()
  /** Per endpoint, the deliveries whose first attempt has not finished yet, oldest first. */
  const firstAttempts = new Map<string, DeliveryRecord[]>()
  let busy = 0
  let idleWaiters: Array<() => void> = []
  let closed = false

  const deliveryId = (accountId: string) => {
    let rng = idRngs.get(accountId)
    if (!rng) idRngs.set(accountId, (rng = createRng(config.seed, 'deliveries', accountId, drops.get(accountId) ?? 0)))
    return newId('dlv', rng)
  }

  function startWork(): void {
    busy++
  }

  function endWork(): void {
    busy--
    if (busy > 0) return
    const waiters = idleWaiters
    idleWaiters = []
    for (const resolve of waiters) resolve()
  }

  function onEvent(event: SandboxEvent): void {
    try {
      const account = store.accounts.get(event.account_id)
      if (!account || closed) return
      let body: string | undefined
      for (const endpoint of account.webhooks.values()) {
        if (endpoint.status !== 'enabled' || !subscribes(endpoint, event.type)) continue
        body ??= eventJson(event)
        const record = log.add({
          id: deliveryId(event.account_id),
          event_id: event.id,
          event_type: event.type,
          endpoint_id: endpoint.id,
          url: endpoint.url,
          status: 'pending',
          attempts: [],
          next_attempt_at: clock.nowIso(),
          account_id: event.account_id,
          body,
          retries_done: 0,
          timer: undefined,
          dropped: false,
        })
        queueFirstAttempt(record)
      }
    } catch (error) {
      logger.error(`Could not queue webhook deliveries for ${event.id}`, error)
    }
  }

  const queueKey = (record: DeliveryRecord) => `${record.account_id}/${record.endpoint_id}`

  function queueFirstAttempt(record: DeliveryRecord): void {
    startWork()
    const key = queueKey(record)
    const queue = firstAttempts.get(key)
    if (queue) {
      queue.push(record)
      return
    }
    const fresh = [record]
    firstAttempts.set(key, fresh)
    clock.track(drain(key, fresh))
  }

  async function drain(key: string, queue: DeliveryRecord[]): Promise<void> {
    // The event came from a request or a timer that is still running: let it answer first (a
    // client's next request overlaps with the delivery), and let events of the same turn join the queue.
    await new Promise<void>((resolve) => setImmediate(resolve))
    while (queue.length > 0) {
      await attempt(queue[0]!, 'automatic')
      queue.shift()
      endWork()
    }
    firstAttempts.delete(key)
  }

  /** Sends one attempt and applies its outcome. Never rejects. */
  async function attempt(record: DeliveryRecord, trigger: Trigger): Promise<void> {
    try {
      if (record.dropped || closed) return
      const at = clock.nowIso()
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
      if (!record.timer && !firstAttempts.get(queueKey(record))?.includes(record)) {
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
    record.next_attempt_at = new Date(clock.now() + delay).toISOString()
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
    startWork()
    clock.track(attempt(record, 'automatic').finally(endWork))
  }

  function dropAccount(accountId: string): void {
    for (const record of log.dropAccount(accountId)) {
      record.dropped = true
      clock.cancel(record.timer)
      record.timer = undefined
    }
    idRngs.delete(accountId)
    drops.set(accountId, (drops.get(accountId) ?? 0) + 1)
  }

  const onReset = (accountId: string) => dropAccount(accountId)
  // First in line: a listener that reacts to an event by emitting another one (settlement) must not
  // get its follow-up queued ahead of the event that caused it.
  bus.prependListener('event', onEvent)
  bus.on('account.reset', onReset)

  return {
    list: (filter) => log.list(filter).map(presentDelivery),
    dropped: (filter) => log.droppedCount(filter),
    get(id) {
      const record = log.get(id)
      return record && presentDelivery(record)
    },
    async retry(id) {
      const record = log.get(id)
      if (!record) return undefined
      startWork()
      try {
        await attempt(record, 'manual')
      } finally {
        endWork()
      }
      return presentDelivery(record)
    },
    idle() {
      if (busy === 0) return Promise.resolve()
      return new Promise((resolve) => idleWaiters.push(resolve))
    },
    close() {
      closed = true
      bus.off('event', onEvent)
      bus.off('account.reset', onReset)
      transport.close()
    },
  }
}
