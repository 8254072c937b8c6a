import { EventEmitter } from 'node:events'

/** An API event (`payment.succeeded`, …): what webhooks deliver. */
export interface SandboxEvent {
  id: string
  object: 'event'
  type: EventType
  created_at: string
  api_version: 'v1'
  account_id: string
  data: { object: unknown }
}

export const EVENT_TYPES = [
  'payment.created',
  'payment.processing',
  'payment.succeeded',
  'payment.failed',
  'payout.created',
  'payout.completed',
  'payout.failed',
  'payout.partially_failed',
] as const
export type EventType = (typeof EVENT_TYPES)[number]

/** A change to one wallet, for the stream's `wallets` channel. */
export interface WalletNotification {
  account_id: string
  wallet_id: string
  event: 'balance.updated' | 'payment.updated' | 'deposit.received'
  data: unknown
  timestamp: string
}

interface BusEvents {
  event: [SandboxEvent]
  wallet: [WalletNotification]
  /** An account was reset or removed: subscribers drop what they hold for it. */
  'account.reset': [string]
  /** The whole state was replaced by a snapshot (`POST /_sandbox/restore`), after every `account.reset`. */
  'state.restored': []
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
