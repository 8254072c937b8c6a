import type { PaymentRecord } from '../model/records.js'

/**
 * Payments are most of a large data file. The codec checks one first without zod
 * (`isPaymentData`, plain-checks.ts); this turns the checked data into the record in place (no
 * copy), interning the values most payments share (currency, network, status, wallets,
 * recipients, amounts, timestamps equal to `created_at`), so a million payments hold one copy of each.
 */
export function createPaymentDecoder() {
  const interned = new Map<string, string>()
  const intern = (value: string) => {
    const known = interned.get(value)
    if (known !== undefined) return known
    if (interned.size < 100_000) interned.set(value, value)
    return value
  }
  // Amounts repeat as much as currencies do; a bigint is an object of its own, and never changes.
  const units = new Map<string, bigint>()
  const unitsOf = (digits: string) => {
    let value = units.get(digits)
    if (value === undefined) {
      value = BigInt(digits)
      if (units.size < 100_000) units.set(digits, value)
    }
    return value
  }

  return (data: unknown): PaymentRecord => {
    const p = data as Record<string, unknown> & PaymentRecord
    p.amount_units = unitsOf(p.amount_units as unknown as string)
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
