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

export function createPublisher(bus: Bus, clock: Clock): Publisher {
  return {
    event(account, type, resource) {
      const event: SandboxEvent = {
        id: newId('evt', account.rng),
        object: 'event',
        type,
        created_at: clock.nowIso(account.account.id),
        api_version: 'v1',
        account_id: account.account.id,
        data: { object: resource },
      }
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
