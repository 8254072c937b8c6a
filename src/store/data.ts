import * as z from 'zod'
import { NETWORKS } from '../model/networks.js'
import { FaultSchema } from '../schemas/faults.js'
import { OutcomeRuleSchema } from '../schemas/outcome-rules.js'
import { restoreRng, type RngState } from '../rng.js'
import { PaymentIndex } from './payment-index.js'
import { firstPostingsInconsistency, postingsFromData, postingsToData, TransactionDataSchema } from './postings-data.js'
import { SCOPES, type KeyRecord, type PaymentRecord, type WalletRecord } from '../model/records.js'
import type { AccountState } from './account-state.js'

/**
 * The ledger as it is written to `--data-file` (and returned by snapshots): plain JSON, base units
 * as digit strings. Loading validates against this schema, so a hand-edited file that does not
 * fit is refused with the path of the first problem instead of half-loading.
 */
const units = z.string().regex(/^-?\d+$/, 'expected base units as a string of digits')
const metadata = z.record(z.string(), z.string())
const timestamp = z.string()

const KeyDataSchema = z.object({
  key: z.string(),
  account_id: z.string(),
  type: z.enum(['secret', 'restricted']),
  scopes: z.array(z.union([z.enum(SCOPES), z.literal('*')])),
  allowed_ips: z.array(z.string()),
})

const WalletDataSchema = z.object({
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

const PaymentDataSchema = z.object({
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

const PayoutDataSchema = z.object({
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

const AccountDataSchema = z.object({
  account: z.object({ id: z.string(), created_at: timestamp, whitelist_enforced: z.boolean() }),
  rng_state: z.tuple([z.number(), z.number(), z.number(), z.number()]),
  wallets: z.array(WalletDataSchema),
  payments: z.array(PaymentDataSchema),
  // Files written before bulk payouts existed have none.
  payouts: z.array(PayoutDataSchema).default([]),
  whitelist: z.array(
    z.object({ id: z.string(), address: z.string(), network: z.enum(NETWORKS), label: z.string().nullable(), created_at: timestamp }),
  ),
  webhooks: z.array(
    z.object({
      id: z.string(),
      url: z.string(),
      events: z.array(z.string()),
      description: z.string().nullable(),
      status: z.enum(['enabled', 'disabled']),
      secret: z.string(),
      created_at: timestamp,
    }),
  ),
  idempotency: z.array(
    z.object({
      scope: z.string(),
      fingerprint: z.string(),
      state: z.literal('done'),
      status: z.number().int(),
      body: z.string(),
      request_id: z.string(),
      created_at: timestamp,
      expires_at: z.number(),
    }),
  ),
  // Every movement of money, in order; data written before postings existed has none (migrated on load).
  postings: z.array(TransactionDataSchema).optional(),
})

/**
 * Sandbox-wide state owned by the control API, by module. Each part is checked in full: a restore
 * or data file with `faults: {}` would otherwise load and break every later request.
 */
const ControlDataSchema = z.strictObject({
  outcome_rules: z.array(OutcomeRuleSchema).optional(),
  faults: z.array(FaultSchema).optional(),
  // `<network>:<address key>`, as the screening list keeps them.
  screening_flagged: z.array(z.string().regex(new RegExp(`^(${NETWORKS.join('|')}):.+$`), 'expected "<network>:<address>"')).optional(),
})

export const DataSchema = z.object({
  version: z.literal(1),
  accounts: z.array(AccountDataSchema),
  keys: z.array(KeyDataSchema),
  control: ControlDataSchema.default({}),
})

export type Data = z.infer<typeof DataSchema>
type AccountData = z.infer<typeof AccountDataSchema>

export const emptyData = (): Data => ({ version: 1, accounts: [], keys: [], control: {} })

export function accountToData(state: AccountState): AccountData {
  return {
    account: { ...state.account },
    rng_state: state.rng.state(),
    wallets: [...state.wallets.values()].map((w) => ({ ...w, metadata: { ...w.metadata }, available: String(w.available), locked: String(w.locked) })),
    payments: state.payments.values().map((p) => ({ ...p, metadata: { ...p.metadata }, plan: p.plan && { ...p.plan }, amount_units: String(p.amount_units) })),
    payouts: [...state.payouts.values()].map((p) => ({ ...p, payment_ids: [...p.payment_ids], metadata: { ...p.metadata } })),
    whitelist: [...state.whitelist.values()].map((entry) => ({ ...entry })),
    webhooks: [...state.webhooks.values()].map((endpoint) => ({ ...endpoint, events: [...endpoint.events] })),
    // In-flight requests are not acknowledged yet, so they are not kept.
    idempotency: [...state.idempotency.values()].filter((r) => r.state === 'done').map((r) => ({ ...r, state: 'done' as const })),
    postings: postingsToData(state.postings),
  }
}

export function accountFromData(data: AccountData): AccountState {
  const payments = new PaymentIndex()
  for (const p of data.payments) payments.add({ ...p, amount_units: BigInt(p.amount_units) } as PaymentRecord)
  return {
    account: { ...data.account },
    rng: restoreRng(data.rng_state as RngState),
    wallets: new Map(data.wallets.map((w) => [w.id, { ...w, available: BigInt(w.available), locked: BigInt(w.locked) } as WalletRecord])),
    payments,
    payouts: new Map(data.payouts.map((p) => [p.id, { ...p, payment_ids: [...p.payment_ids], metadata: { ...p.metadata } }])),
    whitelist: new Map(data.whitelist.map((entry) => [entry.id, { ...entry }])),
    webhooks: new Map(data.webhooks.map((endpoint) => [endpoint.id, { ...endpoint }])),
    idempotency: new Map(data.idempotency.map((record) => [record.scope, { ...record }])),
    postings: postingsFromData(data.postings, data.wallets, (ref) => payments.get(ref)?.id ?? ref),
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
  for (const [index, { account, wallets, payments, payouts, postings }] of data.accounts.entries()) {
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
    const unposted = firstPostingsInconsistency(postings, wallets)
    if (unposted) return { path: ['accounts', index, ...unposted.path], problem: unposted.problem }
  }
  const keys = new Set<string>()
  for (const [index, key] of data.keys.entries()) {
    if (keys.has(key.key)) return { path: ['keys', index, 'key'], problem: `the key '${key.key}' appears twice` }
    keys.add(key.key)
    if (!accountIds.has(key.account_id)) return { path: ['keys', index, 'account_id'], problem: `no account '${key.account_id}'` }
  }
  return undefined
}
