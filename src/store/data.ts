import * as z from 'zod'
import { NETWORKS } from '../chain/networks.js'
import { restoreRng, type RngState } from '../rng.js'
import { PaymentIndex } from './payment-index.js'
import { SCOPES, type AccountState, type KeyRecord, type PaymentRecord, type WalletRecord } from './records.js'

/**
 * The ledger as it is written to `--data-file` (and returned by snapshots): plain JSON, base units
 * as digit strings. Loading validates against this schema, so a hand-edited file that does not
 * fit is refused with the path of the first problem instead of half-loading.
 */
const units = z.string().regex(/^-?\d+$/, 'expected base units as a string of digits')
const metadata = z.record(z.string(), z.string())
const timestamp = z.string()

export const KeyDataSchema = z.object({
  key: z.string(),
  account_id: z.string(),
  type: z.enum(['secret', 'restricted']),
  scopes: z.array(z.union([z.enum(SCOPES), z.literal('*')])),
  allowed_ips: z.array(z.string()),
})

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
})

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
})

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
  expires_at: z.number(),
})

export const AccountRecordDataSchema = z.object({ id: z.string(), created_at: timestamp, whitelist_enforced: z.boolean() })

export const AccountDataSchema = z.object({
  account: AccountRecordDataSchema,
  rng_state: z.tuple([z.number(), z.number(), z.number(), z.number()]),
  wallets: z.array(WalletDataSchema),
  payments: z.array(PaymentDataSchema),
  // Files written before bulk payouts existed have none.
  payouts: z.array(PayoutDataSchema).default([]),
  whitelist: z.array(WhitelistDataSchema),
  webhooks: z.array(WebhookDataSchema),
  idempotency: z.array(IdempotencyDataSchema),
})

export const DataSchema = z.object({
  version: z.literal(1),
  accounts: z.array(AccountDataSchema),
  keys: z.array(KeyDataSchema),
  /** Sandbox-wide state owned by the control API (outcome rules, screening list, …), by module. */
  control: z.record(z.string(), z.unknown()).default({}),
  /** Append-only logs (`account/log`): present once a change appended to one. */
  logs: z.record(z.string(), z.array(z.unknown())).optional(),
})

export type Data = z.infer<typeof DataSchema>
export type AccountData = z.infer<typeof AccountDataSchema>

export const encodeWallet = (w: WalletRecord) => ({ ...w, available: String(w.available), locked: String(w.locked) })
export const decodeWallet = (w: z.infer<typeof WalletDataSchema>): WalletRecord => ({ ...w, available: BigInt(w.available), locked: BigInt(w.locked) })
export const encodePayment = (p: PaymentRecord) => ({ ...p, amount_units: String(p.amount_units) })
export const decodePayment = (p: z.infer<typeof PaymentDataSchema>): PaymentRecord => ({ ...p, amount_units: BigInt(p.amount_units) })

export const emptyData = (): Data => ({ version: 1, accounts: [], keys: [], control: {} })

export function accountToData(state: AccountState): AccountData {
  return {
    account: { ...state.account },
    rng_state: state.rng.state(),
    wallets: [...state.wallets.values()].map((w) => ({ ...encodeWallet(w), metadata: { ...w.metadata } })),
    payments: state.payments.values().map((p) => ({ ...encodePayment(p), metadata: { ...p.metadata }, plan: p.plan && { ...p.plan } })),
    payouts: [...state.payouts.values()].map((p) => ({ ...p, payment_ids: [...p.payment_ids], metadata: { ...p.metadata } })),
    whitelist: [...state.whitelist.values()].map((entry) => ({ ...entry })),
    webhooks: [...state.webhooks.values()].map((endpoint) => ({ ...endpoint, events: [...endpoint.events] })),
    // In-flight requests are not acknowledged yet, so they are not kept.
    idempotency: [...state.idempotency.values()].filter((r) => r.state === 'done').map((r) => ({ ...r, state: 'done' as const })),
  }
}

export function accountFromData(data: AccountData): AccountState {
  const payments = new PaymentIndex()
  for (const p of data.payments) payments.add(decodePayment(p))
  return {
    account: { ...data.account },
    rng: restoreRng(data.rng_state as RngState),
    wallets: new Map(data.wallets.map((w) => [w.id, decodeWallet(w)])),
    payments,
    payouts: new Map(data.payouts.map((p) => [p.id, { ...p, payment_ids: [...p.payment_ids], metadata: { ...p.metadata } }])),
    whitelist: new Map(data.whitelist.map((entry) => [entry.id, { ...entry }])),
    webhooks: new Map(data.webhooks.map((endpoint) => [endpoint.id, { ...endpoint }])),
    idempotency: new Map(data.idempotency.map((record) => [record.scope, { ...record }])),
  }
}

export const keysFromData = (data: Data): KeyRecord[] => data.keys.map((k) => ({ ...k, scopes: [...k.scopes], allowed_ips: [...k.allowed_ips] }))

/** A reference between records that does not hold: where (a path into the data) and what. */
export interface Inconsistency {
  path: Array<string | number>
  problem: string
}

/**
 * What the schema cannot see: references between records. A data file or snapshot whose key
 * points at no account, or whose payment moves money out of a wallet that is not there, would
 * load and then fail on first use; it is refused instead, naming the first such problem.
 */
export function firstInconsistency(data: Data): Inconsistency | undefined {
  const accountIds = new Set<string>()
  for (const [index, { account, wallets, payments, payouts }] of data.accounts.entries()) {
    if (accountIds.has(account.id)) return { path: ['accounts', index, 'account', 'id'], problem: `the account id '${account.id}' appears twice` }
    accountIds.add(account.id)
    const walletIds = new Set<string>()
    for (const [w, wallet] of wallets.entries()) {
      if (walletIds.has(wallet.id)) return { path: ['accounts', index, 'wallets', w, 'id'], problem: `the wallet id '${wallet.id}' appears twice` }
      walletIds.add(wallet.id)
    }
    for (const [p, payment] of payments.entries()) {
      if (!walletIds.has(payment.source)) return { path: ['accounts', index, 'payments', p, 'source'], problem: `no wallet '${payment.source}' in account '${account.id}'` }
      if (payment.destination_type === 'wallet' && !walletIds.has(payment.destination)) {
        return { path: ['accounts', index, 'payments', p, 'destination'], problem: `no wallet '${payment.destination}' in account '${account.id}'` }
      }
    }
    const paymentIds = new Set(payments.map((payment) => payment.id))
    for (const [p, payout] of payouts.entries()) {
      const missing = payout.payment_ids.find((id) => !paymentIds.has(id))
      if (missing) return { path: ['accounts', index, 'payouts', p, 'payment_ids'], problem: `no payment '${missing}' in account '${account.id}'` }
    }
  }
  const keys = new Set<string>()
  for (const [index, key] of data.keys.entries()) {
    if (keys.has(key.key)) return { path: ['keys', index, 'key'], problem: `the key '${key.key}' appears twice` }
    keys.add(key.key)
    if (!accountIds.has(key.account_id)) return { path: ['keys', index, 'account_id'], problem: `no account '${key.account_id}'` }
  }
  return undefined
}
