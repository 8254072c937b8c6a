import * as z from 'zod'
import { NETWORKS, type Network } from '../model/networks.js'
import { CAUSES } from '../model/postings.js'
import { isStandardBase64, parseEd25519PublicKey } from '../key-material.js'
import { SCOPES, type KeyRecord, type PaymentRecord, type PayoutRecord, type WalletRecord } from '../model/records.js'
import { metadata, timestamp, units, type Stored } from './data-file-fields.js'
import { OrderDataSchema, QuoteDataSchema } from './data-file-trading.js'
import { SettlementDataSchema } from './data-file-settlements.js'
import { FaultSchema } from './faults.js'
import { OutcomeRuleSchema } from './outcome-rules.js'
import { PricePinSchema } from './price.js'
import { isoOf } from '../date-text.js'

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
 * as digit strings (`data-file-fields.ts`). Loading validates against this schema, so a hand-edited
 * file that does not fit is refused with the path of the first problem instead of half-loading.
 * Orders, quotes and settlements have files of their own.
 */
export { OrderDataSchema, QuoteDataSchema } from './data-file-trading.js'
export { SettlementDataSchema } from './data-file-settlements.js'

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

export const AccountRecordDataSchema = z.object({
  id: z.string(),
  created_at: timestamp,
  whitelist_enforced: z.boolean(),
  order_events: z.number().int().min(0).optional(),
  clock_offset_ms: z.number().int().optional(),
})

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
  expires_at: z.preprocess((value) => (typeof value === 'number' ? isoOf(value) : value), timestamp),
})

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
  // `<network>:<address key>`, as the screening list keeps them; `acct_…/<network>:<address key>` for one account.
  screening_flagged: z.array(z.string().regex(new RegExp(`^([^/:]+/)?(${NETWORKS.join('|')}):.+$`), 'expected "<network>:<address>" or "<account id>/<network>:<address>"')).optional(),
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
