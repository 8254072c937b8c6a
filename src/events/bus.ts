import { EventEmitter } from 'node:events'
import type { OrderNotification, SandboxEvent, WalletNotification } from '../model/events.js'


interface BusEvents {
  event: [SandboxEvent]
  wallet: [WalletNotification]
  order: [OrderNotification]
  /** An account was reset or removed: subscribers drop what they hold for it. */
  'account.reset': [string]
  /**
   * The whole state (no account), or one account's, was replaced by a snapshot (`POST
   * /_sandbox/restore`), after the `account.reset` of every account replaced: observers pick up
   * what the restored state has on its way.
   */
  'state.restored': [accountId?: string]
}

/**
 * The one-way hand-off from the ledger to its observers (webhooks, stream). Emitted only after
 * the store has the change, so a listener never sees state that could still be rolled back.
 */
export type Bus = EventEmitter<BusEvents>

export function createBus(): Bus {
  const bus = new EventEmitter<BusEvents>()
  bus.setMaxListeners(0)
  return bus
}
