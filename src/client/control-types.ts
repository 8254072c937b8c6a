import type { z } from 'zod'
import type { FailureCode } from '../model/failures.js'
import type { CreateFaultSchema, FaultSchema } from '../schemas/faults.js'
import type { CreateOutcomeRuleSchema, OutcomeRuleSchema } from '../schemas/outcome-rules.js'
import type { ClockSchema, CreatedKeySchema, CreateKeySchema, MagicAddressSchema, ResetResultSchema } from '../schemas/control.js'
import type { DifferenceSchema, RequestExpectationResultSchema, RequestExpectationSchema, RequestJournalEntrySchema } from '../schemas/requests.js'
import type { RestoreResultSchema, SnapshotSchema } from '../schemas/snapshot.js'
import type { OrderSchema } from '../schemas/order.js'
import type { PaymentSchema } from '../schemas/payment.js'
import type { SettlementFailureCode } from '../model/failures.js'
import type { SettlementSchema } from '../schemas/settlement.js'
import type { PricePinSchema } from '../schemas/price.js'
import type { LedgerTransactionSchema } from '../schemas/postings.js'
import type { PayoutSchema } from '../schemas/payout.js'
import type { DeliverySchema, WebhookEndpointSchema } from '../schemas/webhook.js'
import type { LoggedEventSchema } from '../schemas/event-log.js'
import type { BalanceSchema, WalletSchema } from '../schemas/wallet.js'
import type { WhitelistedAddressSchema } from '../schemas/whitelist.js'

/** The control client's types: the schemas' own (`z.output`), so that they never drift from the server's answers. */

export type SandboxClock = z.output<typeof ClockSchema>
export type SandboxPayment = z.output<typeof PaymentSchema>
export type SandboxOrder = z.output<typeof OrderSchema>
export type SandboxWallet = z.output<typeof WalletSchema>
export type SandboxBalance = z.output<typeof BalanceSchema>
export type SandboxPayout = z.output<typeof PayoutSchema>
export type SandboxSettlement = z.output<typeof SettlementSchema>
export type SandboxSettlementFailureCode = SettlementFailureCode
export type SandboxWebhookEndpoint = z.output<typeof WebhookEndpointSchema>
export type SandboxWhitelistedAddress = z.output<typeof WhitelistedAddressSchema>
export type SandboxResetResult = z.output<typeof ResetResultSchema>
export type SandboxOutcomeRule = z.output<typeof OutcomeRuleSchema>
export type SandboxOutcomeRuleInput = z.input<typeof CreateOutcomeRuleSchema>
export type SandboxCreateKeyInput = z.input<typeof CreateKeySchema>
export type SandboxCreatedKey = z.output<typeof CreatedKeySchema>
export type SandboxMagicAddress = z.output<typeof MagicAddressSchema>
/** The whole state, or one account's, as `GET /_sandbox/snapshot` answers it (the `--data-file` format plus `taken_at`). */
export type SandboxSnapshot = z.input<typeof SnapshotSchema>
export type SandboxRestoreResult = z.output<typeof RestoreResultSchema>
export type SandboxFault = z.output<typeof FaultSchema>
export type SandboxFaultInput = z.input<typeof CreateFaultSchema>
/** One movement of money in an account's ledger, with its postings (signed amounts that sum to zero). */
export type SandboxLedgerTransaction = z.output<typeof LedgerTransactionSchema>
/** One `/v1` request of the journal (`GET /_sandbox/requests`). */
export type SandboxRequest = z.output<typeof RequestJournalEntrySchema>
/** What `POST /_sandbox/requests/expect` checks: whose requests (`api_key` or `account_id`), which, how many, how long to wait. */
export type SandboxRequestExpectation = z.input<typeof RequestExpectationSchema>
/** `{satisfied, matched, near_misses}`: the matches, newest first, and when not satisfied the closest other requests with what differs. */
export type SandboxRequestExpectationResult = z.output<typeof RequestExpectationResultSchema>
/** One way a near miss differs: `field` (`method`, `path`, `query.x`, `headers.x`, `body.a.b`, `status`), `expected`, and `actual` unless the request had no such field. */
export type SandboxRequestDifference = z.output<typeof DifferenceSchema>
/** One webhook delivery: an event sent to one endpoint, with every attempt. */
export type SandboxDelivery = z.output<typeof DeliverySchema>
/** A pinned `<ASSET>/USD` mid price (`POST /_sandbox/prices`). */
export type SandboxPricePin = z.output<typeof PricePinSchema>

/** The one account a control call is about: one of its keys, or its id. Without it, the whole sandbox. */
export interface AccountScope {
  api_key?: string
  account_id?: string
}

export interface SandboxHealth {
  status: 'ok'
  version: string
  uptime_s: number
}

/** A page of a list: `limit` 1 to 100 (default 20), `offset` from 0. */
export interface PageOptions {
  limit?: number
  offset?: number
}

export interface SettlementFilter extends PageOptions {
  status?: SandboxSettlement['status']
  destination_type?: 'wallet' | 'address' | 'bank_account'
}

export interface DeliveryFilter extends PageOptions {
  event_id?: string
  endpoint_id?: string
  account_id?: string
  status?: SandboxDelivery['status']
}

export interface RequestFilter extends PageOptions {
  /** The account behind this key; or `account_id` (`'none'`: the requests without an account). Neither: every request. */
  api_key?: string
  account_id?: string
  method?: string
  /** Exact (`/v1/payments`), a template (`/v1/payments/{id}`), or a prefix ending in `*` (`/v1/wallets/*`). */
  path?: string
  /** A code (`201`) or a class (`'4xx'`). */
  status?: number | string
  idempotency_key?: string
  /** A request id: only requests recorded after it. */
  after?: string
  /** ms (0–30000): when nothing matches yet, wait this long for a match (real time). */
  wait?: number
}

export interface AccountPaymentFilter extends PageOptions {
  status?: SandboxPayment['status']
}

export interface AccountWhitelistFilter extends PageOptions {
  network?: SandboxWhitelistedAddress['network']
}

export interface PostingFilter extends PageOptions {
  /** Only the transactions that touch this wallet. */
  wallet_id?: string
}

export interface FailPaymentInput {
  failure_code?: FailureCode
  failure_message?: string
}


/** An event exactly as a webhook delivery of it carries it (`GET /_sandbox/events`). */
export type SandboxEvent = z.output<typeof LoggedEventSchema>

/** Whose events, and which: `type` takes exact types and `resource.*` (`payment.*`). */
export interface EventMatch {
  /** The account behind this key; or `account_id`. Neither: every account. */
  api_key?: string
  account_id?: string
  type?: string | readonly string[]
  /** The id of `data.object` (`pay_…`, `ord_…`). */
  object_id?: string
}

export interface EventFilter extends EventMatch {
  /** An event id: only the events after it. */
  after?: string
  /** 1–100 (default 100). */
  limit?: number
  /** ms (0–30000): when nothing matches yet, wait this long for a match (real time). */
  wait?: number
}

/** Oldest first; `has_more` when more match after the last one; `dropped`: events the log let go; `resets`: resets of the account (its log and ids begin again). */
export interface SandboxEventPage {
  data: SandboxEvent[]
  has_more: boolean
  dropped: number
  resets: number
}
