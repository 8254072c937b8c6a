import { NETWORKS } from '../model/networks.js'
import { CAUSES } from '../model/postings.js'
import { PaymentDataSchema, WalletDataSchema } from '../schemas/data-file.js'

/**
 * Checks without zod for the records a journal holds by the million (payments, the wallets every
 * change set puts, transactions): the codec tests the data with these first and runs the kind's
 * zod schema only when they fail, to name the problem. Each takes exactly what its schema would
 * pass unchanged. (A snapshot's chunks check each distinct value with the same `PAYMENT_FIELDS`.)
 */
const NETWORK_SET: ReadonlySet<unknown> = new Set(NETWORKS)
const DIGITS = /^-?\d+$/

const isString = (value: unknown): value is string => typeof value === 'string'
const isStringOrNull = (value: unknown) => value === null || typeof value === 'string'

function isStringRecord(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false
  for (const key in value) if (typeof (value as Record<string, unknown>)[key] !== 'string') return false
  return true
}

const PAYMENT_STATUSES: ReadonlySet<unknown> = new Set(PaymentDataSchema.shape.status.options)
const isUnits = (value: unknown) => isString(value) && DIGITS.test(value)

type PaymentField = keyof typeof PaymentDataSchema.shape

/** Each field of a payment, and what PaymentDataSchema takes there unchanged. */
export const PAYMENT_FIELDS: Readonly<Record<PaymentField, (value: unknown) => boolean>> = {
  id: isString,
  seq: Number.isInteger,
  amount_units: isUnits,
  amount: isString,
  currency: isString,
  network: (value) => NETWORK_SET.has(value),
  status: (value) => PAYMENT_STATUSES.has(value),
  source: isString,
  destination: isString,
  destination_type: (value) => value === 'wallet' || value === 'address',
  description: isStringOrNull,
  metadata: isStringRecord,
  tx_hash: isStringOrNull,
  failure_code: isStringOrNull,
  failure_message: isStringOrNull,
  payout_id: isStringOrNull,
  created_at: isString,
  updated_at: isString,
  completed_at: isStringOrNull,
  plan: (value) => value === null || isPlan(value),
}
const PAYMENT_CHECKS = Object.entries(PAYMENT_FIELDS)

/** What PaymentDataSchema takes unchanged: its fields, of their types, and no other. */
export function isPaymentData(data: unknown): boolean {
  if (data === null || typeof data !== 'object') return false
  const p = data as Record<string, unknown>
  for (const key in p) if (!Object.hasOwn(PAYMENT_FIELDS, key)) return false
  for (const [field, fits] of PAYMENT_CHECKS) if (!fits(p[field])) return false
  return true
}

function isPlan(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false
  const plan = value as Record<string, unknown>
  return ['completed', 'failed', 'pending'].includes(plan.outcome as string) && isStringOrNull(plan.failure_code) &&
    (plan.stage === null || plan.stage === 'pending' || plan.stage === 'processing') && isString(plan.decided_by)
}

const WALLET_KEYS: ReadonlySet<string> = new Set(Object.keys(WalletDataSchema.shape))
const WALLET_TYPES: ReadonlySet<unknown> = new Set(WalletDataSchema.shape.type.options)
const WALLET_STATUSES: ReadonlySet<unknown> = new Set(WalletDataSchema.shape.status.options)

/** What WalletDataSchema takes unchanged: its fields, of their types, and no other. */
export function isWalletData(data: unknown): boolean {
  if (data === null || typeof data !== 'object') return false
  const w = data as Record<string, unknown>
  for (const key in w) if (!WALLET_KEYS.has(key)) return false
  return (
    isString(w.id) && WALLET_TYPES.has(w.type) && isString(w.name) && isString(w.address) && isString(w.currency) &&
    NETWORK_SET.has(w.network) && WALLET_STATUSES.has(w.status) && isStringRecord(w.metadata) && isString(w.created_at) &&
    isString(w.updated_at) && isString(w.available) && DIGITS.test(w.available) && isString(w.locked) && DIGITS.test(w.locked)
  )
}

const CAUSE_SET: ReadonlySet<unknown> = new Set(CAUSES)
const NON_ZERO_UNITS = /^-?[1-9]\d*$/

/** What TransactionDataSchema accepts, without building a copy of it. */
export function isTransactionData(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false
  const tx = value as Record<string, unknown>
  if (!CAUSE_SET.has(tx.cause) || typeof tx.ref !== 'string' || typeof tx.at !== 'string' || Number.isNaN(Date.parse(tx.at))) return false
  const lines = tx.lines
  if (!Array.isArray(lines) || lines.length === 0) return false
  for (const line of lines) {
    if (line === null || typeof line !== 'object' || typeof line.account !== 'string' || typeof line.amount !== 'string' || !NON_ZERO_UNITS.test(line.amount)) return false
  }
  return true
}

/** What TransactionLineSchema accepts: `[cause, ref, at, [[account, amount], …]]` and nothing more. */
export function isTransactionLine(value: unknown): boolean {
  if (!Array.isArray(value) || value.length !== 4) return false
  const [cause, ref, at, lines] = value as unknown[]
  if (!CAUSE_SET.has(cause) || typeof ref !== 'string' || typeof at !== 'string' || Number.isNaN(Date.parse(at))) return false
  if (!Array.isArray(lines) || lines.length === 0) return false
  for (const line of lines) {
    if (!Array.isArray(line) || line.length !== 2 || typeof line[0] !== 'string' || typeof line[1] !== 'string' || !NON_ZERO_UNITS.test(line[1])) return false
  }
  return true
}
