import type { Clock } from '../clock.js'
import { notFound } from '../errors.js'
import { typesOf } from '../model/event-patterns.js'
import { EVENT_TYPES, type EventType } from '../model/events.js'
import { generateSecret } from '../events/secret.js'
import { newId } from '../ids.js'
import { createRng } from '../rng.js'
import type { WebhookEndpointRecord } from '../model/records.js'
import type { AccountState } from '../store/account-state.js'
import { put, remove } from '../store/changes.js'
import type { Store } from '../store/store.js'
import { newestFirst } from './page.js'

export type WebhookEndpointService = ReturnType<typeof createWebhookEndpointService>

export interface EndpointInput {
  url: string
  events?: string[]
  description?: string | null
}

export interface EndpointUpdate extends Partial<EndpointInput> {
  status?: 'enabled' | 'disabled'
}

/**
 * The event types an endpoint receives, stored as the list so that a GET shows exactly what it
 * receives: left out, or containing `"*"`, every type; `payment.*` the payment ones; duplicates dropped.
 */
export function normalizeEvents(events: string[] | undefined): string[] {
  if (events === undefined) return [...EVENT_TYPES]
  return typesOf(events)
}

/** The account's webhook endpoints (CONTRACT.md section 9). Secrets come from the account's generator. */
export function createWebhookEndpointService(deps: { store: Store; clock: Clock }) {
  const { store, clock } = deps

  function get(account: AccountState, id: string): WebhookEndpointRecord {
    const endpoint = account.webhooks.get(id)
    if (!endpoint) throw notFound('webhook endpoint', id)
    return endpoint
  }

  return {
    create(account: AccountState, input: EndpointInput): WebhookEndpointRecord {
      const endpoint: WebhookEndpointRecord = {
        id: newId('whk', account.rng),
        url: input.url,
        events: normalizeEvents(input.events),
        description: input.description ?? null,
        status: 'enabled',
        secret: generateSecret(account.rng),
        created_at: clock.nowIso(account.account.id),
      }
      store.apply([put('webhook', account.account.id, endpoint.id, endpoint)])
      return endpoint
    },

    /** Newest first. */
    list(account: AccountState, offset: number, limit: number) {
      return newestFirst(account.webhooks.values(), () => true, offset, limit)
    },

    get,

    /** Replaces the fields it is given; `status: 'enabled'` turns a disabled endpoint back on. */
    update(account: AccountState, id: string, input: EndpointUpdate): WebhookEndpointRecord {
      const endpoint = get(account, id)
      const { url = endpoint.url, description = endpoint.description, status = endpoint.status } = input
      const events = input.events === undefined ? endpoint.events : normalizeEvents(input.events)
      store.apply([put('webhook', account.account.id, id, { ...endpoint, url, events, description, status })])
      return endpoint
    },

    remove(account: AccountState, id: string): WebhookEndpointRecord {
      const endpoint = get(account, id)
      store.apply([remove('webhook', account.account.id, id)])
      return endpoint
    },
  }
}

/**
 * `--webhook-url`: the endpoint for every event the account gets, unless it has one with that URL
 * already (accounts loaded from a data file). Its id comes from a generator of its own, so that the
 * flag does not shift the ids the account hands out afterwards.
 */
export function configuredEndpointFor(account: AccountState, options: { url: string; secret: string; seed: string; now: string }): WebhookEndpointRecord | undefined {
  for (const endpoint of account.webhooks.values()) if (endpoint.url === options.url) return undefined
  const id = newId('whk', createRng(options.seed, 'webhook-url-endpoint', account.account.id))
  return {
    id,
    url: options.url,
    events: [...EVENT_TYPES],
    description: 'Added by --webhook-url',
    status: 'enabled',
    secret: options.secret,
    created_at: options.now,
  }
}
