import { NETWORKS } from '../model/networks.js'
import { PaymentDataSchema, WalletDataSchema } from '../schemas/data-file.js'

/**
 * Checks without zod for the records a large data file holds by the million (payments, the wallets
 * every change set puts; transactions in transaction-checks.ts): the codec tests the data with these
 * first and runs the kind's zod schema only when they fail, to name the problem. Each takes exactly
 * what its schema would pass unchanged.
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

const PAYMENT_KEYS: ReadonlySet<string> = new Set(Object.keys(PaymentDataSchema.shape))
const PAYMENT_STATUSES: ReadonlySet<unknown> = new Set(PaymentDataSchema.shape.status.options)

/** What PaymentDataSchema takes unchanged: its fields, of their types, and no other. */
export function isPaymentData(data: unknown): boolean {
  if (data === null || typeof data !== 'object') return false
  const p = data as Record<string, unknown>
  for (const key in p) if (!PAYMENT_KEYS.has(key)) return false
  return (
    isString(p.id) && Number.isInteger(p.seq) && isString(p.amount_units) && DIGITS.test(p.amount_units) && isString(p.amount) && isString(p.currency) &&
    NETWORK_SET.has(p.network) && PAYMENT_STATUSES.has(p.status) && isString(p.source) && isString(p.destination) &&
    (p.destination_type === 'wallet' || p.destination_type === 'address') && isStringOrNull(p.description) && isStringRecord(p.metadata) &&
    isStringOrNull(p.tx_hash) && isStringOrNull(p.failure_code) && isStringOrNull(p.failure_message) && isStringOrNull(p.payout_id) &&
    isString(p.created_at) && isString(p.updated_at) && isStringOrNull(p.completed_at) && (p.plan === null || isPlan(p.plan))
  )
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
