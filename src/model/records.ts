import type { FiatCurrency } from './currencies.js'
import type { Network } from './networks.js'

/** What the ledger keeps. Wire shapes are rendered from these by `ledger/present.ts`. */

export const SCOPES = [
  'wallets:read',
  'wallets:write',
  'payments:read',
  'payments:write',
  'webhooks:read',
  'webhooks:write',
  'whitelist:read',
  'whitelist:write',
  'orders:read',
  'orders:write',
  'settlements:read',
  'settlements:write',
] as const
export type Scope = (typeof SCOPES)[number]

export type KeyType = 'secret' | 'restricted'
export interface KeyRecord {
  key: string
  account_id: string
  type: KeyType
  /** `['*']` for secret keys. */
  scopes: Array<Scope | '*'>
  /** Exact addresses or CIDR blocks; empty allows any address. */
  allowed_ips: string[]
  /** When set, every `/v1` request with this key must be signed with it (CONTRACT.md section 17). */
  signing?: SigningKeyRecord
}

export const SIGNING_ALGORITHMS = ['hmac-sha256', 'ed25519'] as const
export type SigningAlgorithm = (typeof SIGNING_ALGORITHMS)[number]

/** What the sandbox keeps to verify signatures: the HMAC secret, or the Ed25519 public key (never its private key). */
export type SigningKeyRecord =
  | { alg: 'hmac-sha256'; key_id: string; /** Standard base64 of the key bytes. */ secret: string }
  | { alg: 'ed25519'; key_id: string; /** SPKI PEM. */ public_key: string }

export interface AccountRecord {
  id: string
  created_at: string
  whitelist_enforced: boolean
  /** How many order events the account has had: the `sequence` of the stream's orders channel (absent: none yet). */
  order_events?: number
}

export type WalletType = 'institutional' | 'user' | 'omnibus'
export type WalletStatus = 'active' | 'frozen' | 'closed'
export type Metadata = Record<string, string>

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

export type QuoteStatus = 'active' | 'used' | 'expired'

/**
 * A price promise (CONTRACT.md section 15). Its status is not stored: `used_at` and the sandbox
 * clock against `expires_at` decide it (src/ledger/quotes.ts).
 */
export interface QuoteRecord {
  id: string
  source_currency: string
  destination_currency: string
  /** Decimal strings in each currency's amount decimals (src/model/currencies.ts). */
  source_amount: string
  destination_amount: string
  /** Destination units per source unit, on the side against the customer. */
  rate: string
  fee_amount: string
  fee_currency: string
  /** The pair whose bid or ask gave the rate (`ETH/USDC`), and the customer's side of it. */
  pair: string
  side: 'buy' | 'sell'
  /** That bid or ask, in the pair's quote currency per base unit. */
  price: string
  expires_at: string
  created_at: string
  used_at: string | null
  /** The id of what used it (an order or a settlement). */
  used_by: string | null
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

export type OrderSide = 'buy' | 'sell'
export type OrderType = 'market' | 'limit'
export type TimeInForce = 'gtc' | 'ioc' | 'gtd'
export type OrderStatus = 'open' | 'partially_filled' | 'filled' | 'cancelled' | 'expired' | 'rejected'

export interface OrderFill {
  /** The tick's ask (buy) or bid (sell), as the feed rendered it. */
  price: string
  /** Base units. */
  amount: bigint
  /** Quote units charged as the taker fee of this fill. */
  fee: bigint
  timestamp: string
}

/**
 * An order to exchange the pair's base against its quote currency (CONTRACT.md section 15). Money
 * amounts are base units of the order's wallets; `quote_num` keeps the exact quote value of all
 * fills so far, so that rounding happens once on the total and never drifts (ledger/order-math.ts).
 */
export interface OrderRecord {
  id: string
  /** Creation order within the account; indexes are sorted on it. */
  seq: number
  pair: string
  base: string
  quote: string
  side: OrderSide
  type: OrderType
  status: OrderStatus
  time_in_force: TimeInForce
  /** In the base wallet's units. */
  amount_units: bigint
  filled_units: bigint
  /** Normalised decimal string; null for market orders. */
  limit_price: string | null
  expires_at: string | null
  base_wallet: string
  quote_wallet: string
  base_decimals: number
  quote_decimals: number
  quote_id: string | null
  /** The taker fee in basis points when the order was placed (a restart with another --trading-fee-bps keeps it). */
  fee_bps: number
  /** Σ fill amount × price, scaled (ledger/order-math.ts). */
  quote_num: bigint
  /** Quote units paid (buy, rounded up) or received before the fee (sell, rounded down) so far. */
  quote_units: bigint
  fee_units: bigint
  /** Still locked for the order: quote units in the quote wallet (buy), base units in the base wallet (sell). */
  locked_units: bigint
  fills: OrderFill[]
  reject_reason: string | null
  metadata: Metadata
  created_at: string
  updated_at: string
  completed_at: string | null
}

/** Cross-border settlements (CONTRACT.md section 16). Amounts are decimal strings in their currency, as on the wire. */
export type SettlementStatus = 'pending' | 'processing' | 'completed' | 'failed' | 'refunded'
export type SettlementStepType = 'conversion' | 'bridge' | 'transfer'
export type SettlementStepStatus = 'pending' | 'processing' | 'completed' | 'failed' | 'cancelled'
export type Rail = 'ach' | 'sepa' | 'fps' | 'spei'

export type SettlementDestination =
  | { type: 'wallet'; wallet_id: string }
  | { type: 'address'; network: Network; currency: string; address: string }
  | { type: 'bank_account'; currency: FiatCurrency; rail: Rail; beneficiary: Record<string, string> }

export interface SettlementStepRecord {
  type: SettlementStepType
  status: SettlementStepStatus
  /** The network the step moves value on (bridge: the destination's; transfer: on-chain or wallet). */
  network: Network | null
  rail: Rail | null
  tx_hash: string | null
  source_tx_hash: string | null
  destination_tx_hash: string | null
  reference: string | null
  started_at: string | null
  completed_at: string | null
  failure_code: string | null
}

/** How a settlement will end, decided when it is created (metadata, magic values, screening). */
export interface SettlementOutcome {
  outcome: 'completed' | 'failed'
  fail_step: SettlementStepType | null
  failure_code: string | null
  /** 'metadata', 'magic', 'screening' or 'default'. */
  decided_by: string
}

export interface SettlementRecord {
  id: string
  /** Creation order within the account; the index is sorted on it. */
  seq: number
  status: SettlementStatus
  source_wallet: string
  source_currency: string
  amount: string
  fees: Array<{ type: 'conversion' | 'network' | 'payout'; amount: string; currency: string }>
  total_debit: string
  destination: SettlementDestination
  destination_currency: string
  destination_amount: string
  rate: string
  quote_id: string | null
  steps: SettlementStepRecord[]
  refund: { amount: string; tx_hash: string | null; completed_at: string | null } | null
  /** Whether `total_debit` has left the source wallet (a later failure is refunded, an earlier one released). */
  value_left: boolean
  failure_code: string | null
  failure_message: string | null
  description: string | null
  metadata: Metadata
  plan: SettlementOutcome
  created_at: string
  updated_at: string
  completed_at: string | null
}
