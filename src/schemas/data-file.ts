import * as z from 'zod'
import { NETWORKS, type Network } from '../model/networks.js'
import { CAUSES } from '../model/postings.js'
import { isStandardBase64, parseEd25519PublicKey } from '../key-material.js'
import { SCOPES, type KeyRecord, type OrderRecord, type PaymentRecord, type PayoutRecord, type QuoteRecord, type SettlementRecord, type WalletRecord } from '../model/records.js'
import { AMOUNT_PATTERN } from '../money.js'
import { FaultSchema } from './faults.js'
import { OutcomeRuleSchema } from './outcome-rules.js'
import { PricePinSchema } from './price.js'

/** A record as the data file holds it: base units (bigint) as strings of digits. */
type Stored<T> = { [K in keyof T]: T[K] extends bigint ? string : T[K] }

/**
 * An account's postings as the data file (and a snapshot) holds them: one object per transaction,
 * in log order (its position is its id), amounts as signed base units. Data written before
 * postings existed has none; it loads with one opening-balance transaction per funded wallet.
 */
const postedAt = z.string().refine((value) => !Number.isNaN(Date.parse(value)), 'expected an ISO 8601 timestamp').meta({ format: 'date-time' })
const postedUnits = z.string().regex(/^-?[1-9]\d*$/, 'expected non-zero base units as a string of digits, with a sign when negative')

export const TransactionDataSchema = z.object({
  cause: z.enum(CAUSES),
  ref: z.string(),
  at: postedAt,
  lines: z.array(z.object({ account: z.string(), amount: postedUnits })).min(1),
})
export type TransactionData = z.infer<typeof TransactionDataSchema>

/**
 * The same transaction as a data file's line holds it (`store/short-forms.ts`): a tuple
 * `[cause, ref, at, [[account, amount], …]]`, a third of the parsing of the object form.
 */
export const TransactionLineSchema = z.tuple([z.enum(CAUSES), z.string(), postedAt, z.array(z.tuple([z.string(), postedUnits])).min(1)])
export type TransactionLine = z.infer<typeof TransactionLineSchema>

/**
 * The ledger as it is written to `--data-file` (and returned by snapshots): plain JSON, base units
 * as digit strings. Loading validates against this schema, so a hand-edited file that does not
 * fit is refused with the path of the first problem instead of half-loading.
 */
const units = z.string().regex(/^-?\d+$/, 'expected base units as a string of digits')
const metadata = z.record(z.string(), z.string())
/**
 * An instant, ISO 8601 (`format: date-time` in the OpenAPI document). Checked as a string only: a
 * file holds millions of them, and the sandbox wrote them all.
 */
const timestamp = z.string().meta({ format: 'date-time' })

export const KeyDataSchema = z.object({
  key: z.string(),
  account_id: z.string(),
  type: z.enum(['secret', 'restricted']),
  scopes: z.array(z.union([z.enum(SCOPES), z.literal('*')])),
  allowed_ips: z.array(z.string()),
  signing: z.discriminatedUnion('alg', [
    z.object({ alg: z.literal('hmac-sha256'), key_id: z.string().min(1), secret: z.string().refine(isStandardBase64, 'expected standard base64') }),
    z.object({ alg: z.literal('ed25519'), key_id: z.string().min(1), public_key: z.string().refine((pem) => parseEd25519PublicKey(pem) !== undefined, 'expected an Ed25519 public key in SPKI PEM') }),
  ]).optional(),
}) satisfies z.ZodType<KeyRecord>

export const WalletDataSchema = z.object({
  id: z.string(),
  type: z.enum(['institutional', 'user', 'omnibus']),
  name: z.string(),
  address: z.string(),
  currency: z.string(),
  network: z.enum(NETWORKS),
  status: z.enum(['active', 'frozen', 'closed']),
  metadata,
  created_at: timestamp,
  updated_at: timestamp,
  available: units,
  locked: units,
}) satisfies z.ZodType<Stored<WalletRecord>>

export const PaymentDataSchema = z.object({
  id: z.string(),
  seq: z.number().int(),
  amount_units: units,
  amount: z.string(),
  currency: z.string(),
  network: z.enum(NETWORKS),
  status: z.enum(['pending', 'processing', 'completed', 'failed']),
  source: z.string(),
  destination: z.string(),
  destination_type: z.enum(['wallet', 'address']),
  description: z.string().nullable(),
  metadata,
  tx_hash: z.string().nullable(),
  failure_code: z.string().nullable(),
  failure_message: z.string().nullable(),
  payout_id: z.string().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
  completed_at: timestamp.nullable(),
  plan: z
    .object({
      outcome: z.enum(['completed', 'failed', 'pending']),
      failure_code: z.string().nullable(),
      stage: z.enum(['pending', 'processing']).nullable(),
      decided_by: z.string(),
    })
    .nullable(),
}) satisfies z.ZodType<Stored<PaymentRecord>>

const ORDER_STATUSES = ['open', 'partially_filled', 'filled', 'cancelled', 'expired', 'rejected'] as const

export const OrderDataSchema = z.object({
  id: z.string(),
  seq: z.number().int(),
  pair: z.string(),
  base: z.string(),
  quote: z.string(),
  side: z.enum(['buy', 'sell']),
  type: z.enum(['market', 'limit']),
  status: z.enum(ORDER_STATUSES),
  time_in_force: z.enum(['gtc', 'ioc', 'gtd']),
  amount_units: units,
  filled_units: units,
  limit_price: z.string().nullable(),
  expires_at: timestamp.nullable(),
  base_wallet: z.string(),
  quote_wallet: z.string(),
  base_decimals: z.number().int().min(0).max(18),
  quote_decimals: z.number().int().min(0).max(18),
  quote_id: z.string().nullable(),
  fee_bps: z.number().int().min(0).max(10_000),
  quote_num: units,
  quote_units: units,
  fee_units: units,
  locked_units: units,
  fills: z.array(z.object({ price: z.string(), amount: units, fee: units, timestamp })),
  reject_reason: z.string().nullable(),
  metadata,
  created_at: timestamp,
  updated_at: timestamp,
  completed_at: timestamp.nullable(),
}) satisfies z.ZodType<Omit<Stored<OrderRecord>, 'fills'> & { fills: Array<{ price: string; amount: string; fee: string; timestamp: string }> }>

export const PayoutDataSchema = z.object({
  id: z.string(),
  status: z.enum(['pending', 'processing', 'completed', 'partially_failed', 'failed']),
  source: z.string(),
  currency: z.string(),
  total_amount: z.string(),
  payment_ids: z.array(z.string()),
  metadata,
  created_at: timestamp,
  updated_at: timestamp,
}) satisfies z.ZodType<PayoutRecord>

const nullableText = z.string().nullable()

const SettlementStepDataSchema = z.object({
  type: z.enum(['conversion', 'bridge', 'transfer']),
  status: z.enum(['pending', 'processing', 'completed', 'failed', 'cancelled']),
  network: z.enum(NETWORKS).nullable(),
  rail: z.enum(['ach', 'sepa', 'fps', 'spei']).nullable(),
  tx_hash: nullableText,
  source_tx_hash: nullableText,
  destination_tx_hash: nullableText,
  reference: nullableText,
  started_at: timestamp.nullable(),
  completed_at: timestamp.nullable(),
  failure_code: nullableText,
})

export const SettlementDataSchema = z.object({
  id: z.string(),
  seq: z.number().int(),
  status: z.enum(['pending', 'processing', 'completed', 'failed', 'refunded']),
  source_wallet: z.string(),
  source_currency: z.string(),
  amount: z.string(),
  fees: z.array(z.object({ type: z.enum(['conversion', 'network', 'payout']), amount: z.string(), currency: z.string() })),
  total_debit: z.string(),
  destination: z.discriminatedUnion('type', [
    z.object({ type: z.literal('wallet'), wallet_id: z.string() }),
    z.object({ type: z.literal('address'), network: z.enum(NETWORKS), currency: z.string(), address: z.string() }),
    z.object({ type: z.literal('bank_account'), currency: z.enum(['USD', 'EUR', 'GBP', 'MXN']), rail: z.enum(['ach', 'sepa', 'fps', 'spei']), beneficiary: z.record(z.string(), z.string()) }),
  ]),
  destination_currency: z.string(),
  destination_amount: z.string(),
  rate: z.string(),
  quote_id: nullableText,
  steps: z.array(SettlementStepDataSchema),
  refund: z.object({ amount: z.string(), tx_hash: nullableText, completed_at: timestamp.nullable() }).nullable(),
  value_left: z.boolean(),
  failure_code: nullableText,
  failure_message: nullableText,
  description: nullableText,
  metadata,
  plan: z.object({
    outcome: z.enum(['completed', 'failed']),
    fail_step: z.enum(['conversion', 'bridge', 'transfer']).nullable(),
    failure_code: nullableText,
    decided_by: z.string(),
  }),
  created_at: timestamp,
  updated_at: timestamp,
  completed_at: timestamp.nullable(),
}) satisfies z.ZodType<SettlementRecord>

export const AccountRecordDataSchema = z.object({ id: z.string(), created_at: timestamp, whitelist_enforced: z.boolean(), order_events: z.number().int().min(0).optional() })

export const WhitelistDataSchema = z.object({ id: z.string(), address: z.string(), network: z.enum(NETWORKS), label: z.string().nullable(), created_at: timestamp })

export const WebhookDataSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  description: z.string().nullable(),
  status: z.enum(['enabled', 'disabled']),
  secret: z.string(),
  created_at: timestamp,
})

export const IdempotencyDataSchema = z.object({
  scope: z.string(),
  fingerprint: z.string(),
  state: z.literal('done'),
  status: z.number().int(),
  body: z.string(),
  request_id: z.string(),
  created_at: timestamp,
  // Older files hold ms since the epoch; they still load.
  expires_at: z.preprocess((value) => (typeof value === 'number' ? new Date(value).toISOString() : value), timestamp),
})

const decimal = z.string().regex(AMOUNT_PATTERN, 'expected a decimal string')

export const QuoteDataSchema = z.object({
  id: z.string(),
  source_currency: z.string(),
  destination_currency: z.string(),
  source_amount: decimal,
  destination_amount: decimal,
  rate: decimal,
  fee_amount: decimal,
  fee_currency: z.string(),
  pair: z.string(),
  side: z.enum(['buy', 'sell']),
  price: decimal,
  expires_at: timestamp,
  created_at: timestamp,
  used_at: timestamp.nullable(),
  used_by: z.string().nullable(),
}) satisfies z.ZodType<QuoteRecord>

export const AccountDataSchema = z.object({
  account: AccountRecordDataSchema,
  rng_state: z.tuple([z.number(), z.number(), z.number(), z.number()]),
  wallets: z.array(WalletDataSchema),
  payments: z.array(PaymentDataSchema),
  // Files written before trading existed have none.
  orders: z.array(OrderDataSchema).default([]),
  // Files written before bulk payouts existed have none.
  payouts: z.array(PayoutDataSchema).default([]),
  // Files written before settlements existed have none.
  settlements: z.array(SettlementDataSchema).default([]),
  whitelist: z.array(WhitelistDataSchema),
  webhooks: z.array(WebhookDataSchema),
  idempotency: z.array(IdempotencyDataSchema),
  // Files written before quotes existed have none.
  quotes: z.array(QuoteDataSchema).default([]),
  // Every movement of money, in order; data written before postings existed has none (migrated on load).
  postings: z.array(TransactionDataSchema).optional(),
})

/**
 * Sandbox-wide state owned by the control API, by module. Each part is checked in full: a restore
 * or data file with `faults: {}` would otherwise load and break every later request.
 */
export const ControlDataSchema = z.strictObject({
  outcome_rules: z.array(OutcomeRuleSchema).optional(),
  faults: z.array(FaultSchema).optional(),
  // `<network>:<address key>`, as the screening list keeps them.
  screening_flagged: z.array(z.string().regex(new RegExp(`^(${NETWORKS.join('|')}):.+$`), 'expected "<network>:<address>"')).optional(),
  price_pins: z.array(PricePinSchema).optional(),
})

export const DataSchema = z.object({
  version: z.literal(1),
  accounts: z.array(AccountDataSchema),
  keys: z.array(KeyDataSchema),
  control: ControlDataSchema.default({}),
  /** Append-only logs other than postings (`account/log`): present once a change appended to one. */
  logs: z.record(z.string(), z.array(z.unknown())).optional(),
})

export type Data = z.infer<typeof DataSchema>
export type AccountData = z.infer<typeof AccountDataSchema>

export interface WalletBalances {
  id: string
  network: Network
  currency: string
  updated_at: string
  available: string | bigint
  locked: string | bigint
}
