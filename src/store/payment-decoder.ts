import type { PaymentRecord, SettlementPlan } from '../model/records.js'

/**
 * Payments are most of a large data file; the values most of them share (currency, network,
 * status, wallets, recipients, amounts, timestamps equal to `created_at`) are interned as they are
 * read, so that a million payments hold one copy of each. Shared by every reader of payments (a
 * journal line, a snapshot's chunks); bounded, since values may all differ.
 */
const MOST = 100_000
const strings = new Map<string, string>()
const amounts = new Map<string, bigint>()
const units = new Map<bigint, bigint>()
const plans = new Map<string, SettlementPlan>()

/**
 * The metadata of every payment that has none: one object instead of a million. Frozen, as records
 * are never changed in place (a change set replaces a payment's fields, its metadata whole).
 */
export const NO_METADATA: Record<string, string> = Object.freeze({})

export function intern(value: string): string {
  const known = strings.get(value)
  if (known !== undefined) return known
  if (strings.size < MOST) strings.set(value, value)
  return value
}

/** Base units as a bigint; a bigint is an object of its own, and never changes, so a repeated amount is one. */
export function unitsOf(digits: string): bigint {
  let value = amounts.get(digits)
  if (value === undefined) {
    value = BigInt(digits)
    if (amounts.size < MOST) amounts.set(digits, value)
  }
  return value
}

/** A bigint equal to `value`, the same object for every payment of that amount. */
function shareUnits(value: bigint): bigint {
  const known = units.get(value)
  if (known !== undefined) return known
  if (units.size < MOST) units.set(value, value)
  return value
}

/**
 * The same sharing for a payment the ledger has just made or changed (a put), so that a payment
 * created through the API costs what a loaded one does: its amount, recipient and empty metadata
 * were objects of their own (about 170 bytes of a payment's 450 on the heap), and so was its
 * settlement plan (--settle auto), nearly always the same four values. Of its texts only those a
 * client wrote are interned: the ledger takes the currency, network and source of a put from the
 * source wallet's record (one text for all its payments) and the status and destination type from
 * its own constants, so looking those five up again on every put found the text it had.
 */
export function sharePaymentValues(p: PaymentRecord): void {
  p.amount_units = shareUnits(p.amount_units)
  p.destination = intern(p.destination)
  p.amount = intern(p.amount)
  shareTimes(p)
  if (p.metadata !== NO_METADATA && isEmpty(p.metadata)) p.metadata = NO_METADATA
  if (p.plan !== null) p.plan = sharePlan(p.plan)
}

/**
 * The plans `sharePlan` handed out. A payment is put again at every status change with the plan it
 * had (its record spread into the put), already the shared one: found by identity, not by writing
 * its key again (a JSON text per put, two of a lifecycle's three).
 */
const sharedPlans = new WeakSet<SettlementPlan>()

/** One frozen plan for each distinct one (records are never changed in place: a put replaces the plan whole). */
function sharePlan(plan: SettlementPlan): SettlementPlan {
  if (sharedPlans.has(plan)) return plan
  const key = JSON.stringify([plan.outcome, plan.failure_code, plan.stage, plan.decided_by])
  const known = plans.get(key)
  if (known !== undefined) return known
  const shared = Object.freeze({ outcome: plan.outcome, failure_code: plan.failure_code, stage: plan.stage, decided_by: plan.decided_by })
  sharedPlans.add(shared)
  if (plans.size < MOST) plans.set(key, shared)
  return shared
}

function isEmpty(object: object): boolean {
  for (const _ in object) return false
  return true
}

function shareStrings(p: PaymentRecord): void {
  p.currency = intern(p.currency)
  p.network = intern(p.network) as PaymentRecord['network']
  p.status = intern(p.status) as PaymentRecord['status']
  p.source = intern(p.source)
  p.destination = intern(p.destination)
  p.destination_type = intern(p.destination_type) as PaymentRecord['destination_type']
  p.amount = intern(p.amount)
  shareTimes(p)
}

function shareTimes(p: PaymentRecord): void {
  if (p.updated_at === p.created_at) p.updated_at = p.created_at
  if (p.completed_at === p.created_at) p.completed_at = p.created_at
}

/**
 * The codec's decoder: the codec has checked the data first (`isPaymentData`, plain-checks.ts);
 * this turns it into the record in place (no copy).
 */
export function decodePaymentData(data: unknown): PaymentRecord {
  const p = data as Record<string, unknown> & PaymentRecord
  p.amount_units = unitsOf(p.amount_units as unknown as string)
  shareStrings(p)
  return p
}
