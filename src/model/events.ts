/** The events the sandbox emits: what webhooks deliver and what the stream's wallets channel sends. */

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
  'order.created',
  'order.partially_filled',
  'order.filled',
  'order.cancelled',
  'order.expired',
  'order.rejected',
  'settlement.created',
  'settlement.processing',
  'settlement.step_completed',
  'settlement.completed',
  'settlement.failed',
  'settlement.refunded',
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

export type OrderEventType = Extract<EventType, `order.${string}`>

/** An order event for the stream's `orders` channel, numbered per account from 1 without gaps. */
export interface OrderNotification {
  account_id: string
  event: OrderEventType
  sequence: number
  pair: string
  data: unknown
  timestamp: string
}
