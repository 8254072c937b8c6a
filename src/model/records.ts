import type { Metadata } from './metadata.js'
import type { Network } from './networks.js'

/**
 * What the ledger keeps. Wire shapes are rendered from these by `ledger/present.ts`. Keys, trading
 * (quotes and orders) and settlements have files of their own; this one names them all.
 */

export type { Metadata } from './metadata.js'
export * from './keys.js'
export * from './trading.js'
export * from './settlements.js'

export interface AccountRecord {
  id: string
  created_at: string
  whitelist_enforced: boolean
  /** How many order events the account has had: the `sequence` of the stream's orders channel (absent: none yet). */
  order_events?: number
  /** How far the account's clock is ahead of the sandbox clock, in ms (absent: 0, the sandbox's time). */
  clock_offset_ms?: number
}

export type WalletType = 'institutional' | 'user' | 'omnibus'
export type WalletStatus = 'active' | 'frozen' | 'closed'

export interface WalletRecord {
  id: string
  type: WalletType
  name: string
  address: string
  currency: string
  network: Network
  status: WalletStatus
  metadata: Metadata
  created_at: string
  updated_at: string
  /** Base units. A cache of the postings on `<id>:available`, changed only by src/ledger/balances.ts. */
  available: bigint
  /** Base units held by payments that are not final yet: a cache of the postings on `<id>:locked`. */
  locked: bigint
}

export type PaymentStatus = 'pending' | 'processing' | 'completed' | 'failed'

/** How a payment will end, decided when it is created (CONTRACT.md section 8). */
export interface SettlementPlan {
  outcome: 'completed' | 'failed' | 'pending'
  failure_code: string | null
  /** For failures: the stage the payment fails at. */
  stage: 'pending' | 'processing' | null
  /** Which layer decided: 'metadata', 'rule:<id>', 'magic', 'screening' or 'default'. */
  decided_by: string
}

export interface PaymentRecord {
  id: string
  /** Creation order within the account; indexes are sorted on it. */
  seq: number
  amount_units: bigint
  amount: string
  currency: string
  network: Network
  status: PaymentStatus
  source: string
  destination: string
  destination_type: 'wallet' | 'address'
  description: string | null
  metadata: Metadata
  tx_hash: string | null
  failure_code: string | null
  failure_message: string | null
  payout_id: string | null
  created_at: string
  updated_at: string
  completed_at: string | null
  plan: SettlementPlan | null
}

export type PayoutStatus = 'pending' | 'processing' | 'completed' | 'partially_failed' | 'failed'

/** A bulk payout: one payment per item, all from one source wallet (CONTRACT.md section 5). */
export interface PayoutRecord {
  id: string
  /** Follows the items' payments (CONTRACT.md section 13). */
  status: PayoutStatus
  source: string
  currency: string
  total_amount: string
  /** In the order of the request's items. */
  payment_ids: string[]
  metadata: Metadata
  created_at: string
  updated_at: string
}

export interface WhitelistRecord {
  id: string
  address: string
  network: Network
  label: string | null
  created_at: string
}

export interface WebhookEndpointRecord {
  id: string
  url: string
  /** Event types, or `['*']` for all. */
  events: string[]
  description: string | null
  status: 'enabled' | 'disabled'
  secret: string
  created_at: string
}

export interface IdempotencyRecord {
  /** `${method} ${path} ${key}` */
  scope: string
  fingerprint: string
  state: 'in_flight' | 'done'
  status: number
  body: string
  request_id: string
  created_at: string
  /** 24 h of sandbox time after `created_at`. */
  expires_at: string
}
