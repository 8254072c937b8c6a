import type { AccountRecord, IdempotencyRecord, PayoutRecord, QuoteRecord, WalletRecord, WebhookEndpointRecord, WhitelistRecord } from '../model/records.js'
import type { Rng } from '../rng.js'
import type { OrderIndex } from './order-index.js'
import type { PaymentIndex } from './payment-index.js'
import type { PostingsLog } from './postings-log.js'
import type { SettlementIndex } from './settlement-index.js'

/** One tenant: everything it owns lives here, so isolation is a matter of looking in one place. */
export interface AccountState {
  account: AccountRecord
  rng: Rng
  wallets: Map<string, WalletRecord>
  payments: PaymentIndex
  orders: OrderIndex
  /** In creation order. */
  payouts: Map<string, PayoutRecord>
  /** Cross-border settlements, in creation order, indexed by status and destination type. */
  settlements: SettlementIndex
  whitelist: Map<string, WhitelistRecord>
  webhooks: Map<string, WebhookEndpointRecord>
  idempotency: Map<string, IdempotencyRecord>
  /** In creation order. */
  quotes: Map<string, QuoteRecord>
  /** Every movement of money, append-only; wallet balances are its cache. */
  postings: PostingsLog
}
