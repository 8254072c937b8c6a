import type { Clock } from '../clock.js'
import { newId } from '../ids.js'
import type { AccountState } from '../store/account-state.js'
import type { Bus } from './bus.js'
import type { EventType, OrderEventType, SandboxEvent, WalletNotification } from '../model/events.js'

/** Builds API events and wallet notifications and puts them on the bus. */
export interface Publisher {
  event(account: AccountState, type: EventType, resource: unknown): SandboxEvent
  /** `data` is a function: presenting costs time, and only a stream subscriber needs it. */
  wallet(account: AccountState, walletId: string, event: WalletNotification['event'], data: () => unknown): void
  /** Whether a wallet notification would reach anyone (a stream subscriber): without one, there is nothing to prepare. */
  wantsWalletNotifications(): boolean
  /** An order event: to webhooks as an API event, and to the orders channel with its `sequence`. */
  order(account: AccountState, type: OrderEventType, order: { pair: string }, sequence: number): void
}

/**
 * An event as the publisher makes it: its fields declared in the wire's order, so that its JSON can
 * be written by code made for that shape (order-json.ts, `publishedEventHead`) rather than key by
 * key. Never changed once published, like the objects it carries.
 */
export class PublishedEvent implements SandboxEvent {
  // Without initialisers, set in this order: an object gets its fields in the order first set.
  readonly id: string
  readonly object: 'event'
  readonly type: EventType
  readonly created_at: string
  readonly api_version: 'v1'
  readonly account_id: string
  readonly data: { readonly object: unknown }

  constructor(id: string, type: EventType, createdAt: string, accountId: string, resource: unknown) {
    this.id = id
    this.object = 'event'
    this.type = type
    this.created_at = createdAt
    this.api_version = 'v1'
    this.account_id = accountId
    this.data = { object: resource }
  }
}

export function createPublisher(bus: Bus, clock: Clock): Publisher {
  return {
    event(account, type, resource) {
      const event = new PublishedEvent(newId('evt', account.rng), type, clock.nowIso(account.account.id), account.account.id, resource)
      bus.emit('event', event)
      return event
    },
    wantsWalletNotifications: () => bus.listenerCount('wallet') > 0,
    wallet(account, walletId, event, data) {
      if (bus.listenerCount('wallet') === 0) return
      bus.emit('wallet', { account_id: account.account.id, wallet_id: walletId, event, data: data(), timestamp: clock.nowIso(account.account.id) })
    },
    order(account, type, order, sequence) {
      const event = this.event(account, type, order)
      bus.emit('order', { account_id: account.account.id, event: type, sequence, pair: order.pair, data: order, timestamp: event.created_at })
    },
  }
}
