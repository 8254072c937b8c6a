import { PaymentDataSchema } from '../schemas/data-file.js'
import { decodePayment } from './data.js'
import { DIGITS, isString, isStringOrNull, isStringRecord, NETWORK_SET } from './plain-checks.js'
import type { PaymentRecord } from '../model/records.js'

/**
 * Payments are most of a large data file, so they load on a fast path: a plain check of every field
 * (zod runs only when it fails, to name the problem), the parsed object kept as the record (no
 * copies), and the values most payments share (currency, network, status, wallets, recipients,
 * timestamps equal to `created_at`) interned, so a million payments hold one copy of each.
 */
const STATUSES: ReadonlySet<unknown> = new Set(['pending', 'processing', 'completed', 'failed'])

function looksRight(p: Record<string, unknown>): boolean {
  return (
    isString(p.id) && Number.isInteger(p.seq) && isString(p.amount_units) && DIGITS.test(p.amount_units) && isString(p.amount) && isString(p.currency) &&
    NETWORK_SET.has(p.network) && STATUSES.has(p.status) && isString(p.source) && isString(p.destination) &&
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

export function createPaymentDecoder() {
  const interned = new Map<string, string>()
  const intern = (value: string) => {
    const known = interned.get(value)
    if (known !== undefined) return known
    if (interned.size < 100_000) interned.set(value, value)
    return value
  }

  return (data: unknown): PaymentRecord => {
    if (data === null || typeof data !== 'object' || !looksRight(data as Record<string, unknown>)) return decodePayment(PaymentDataSchema.parse(data))
    const p = data as Record<string, unknown> & PaymentRecord
    p.amount_units = BigInt(p.amount_units as unknown as string)
    p.currency = intern(p.currency)
    p.network = intern(p.network) as PaymentRecord['network']
    p.status = intern(p.status) as PaymentRecord['status']
    p.source = intern(p.source)
    p.destination = intern(p.destination)
    p.destination_type = intern(p.destination_type) as PaymentRecord['destination_type']
    p.amount = intern(p.amount)
    if (p.updated_at === p.created_at) p.updated_at = p.created_at
    if (p.completed_at === p.created_at) p.completed_at = p.created_at
    return p
  }
}
