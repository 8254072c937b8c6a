import { CURRENCIES } from '../model/networks.js'
import { FAILURE_CODES } from '../model/failures.js'
import { AMOUNT_PATTERN } from '../money.js'

/**
 * The payment body's check for the bodies clients send (every field well formed), compiled by hand
 * from `CreatePaymentSchema` (payment.ts), which stays the definition: this answers what zod would
 * answer for a body it is sure of, and `undefined` for anything else (an unknown or missing field, a
 * wrong type, a limit passed, an odd object), which zod then parses and explains. zod's parse was
 * 4–8 µs of a POST (its object pass, the amount's refine, the metadata's preprocess, record and
 * refines, the outcome check), this about a tenth of that. test/unit/payment-fast.test.ts holds it
 * to zod's answers on generated good and bad bodies.
 */

/** The sandbox's outcome metadata (CONTRACT.md section 8): the schema's check reads this list too. */
export const SANDBOX_OUTCOMES: readonly string[] = ['completed', 'failed', 'pending']

const currencies = new Set(CURRENCIES)
const failureCodes = new Set<string>(FAILURE_CODES)
const NONZERO_DIGIT = /[1-9]/

/** What zod answers for a good body: the fields in the schema's order, `metadata` a copy ({} when absent or null). */
export interface CreatePaymentBody {
  amount: string
  currency: string
  source_wallet: string
  recipient: string
  description?: string | null
  metadata: Record<string, string>
}

export function checkCreatePayment(input: unknown): CreatePaymentBody | undefined {
  if (!isPlainObject(input)) return undefined
  let amount: unknown, currency: unknown, sourceWallet: unknown, recipient: unknown, description: unknown, metadata: unknown
  let described = false
  for (const key in input) {
    const value = (input as Record<string, unknown>)[key]
    if (key === 'amount') amount = value
    else if (key === 'currency') currency = value
    else if (key === 'source_wallet') sourceWallet = value
    else if (key === 'recipient') recipient = value
    else if (key === 'description') {
      if (value !== null && (typeof value !== 'string' || value.length > 1000)) return undefined
      description = value
      described = true
    } else if (key === 'metadata') metadata = value
    else return undefined
  }
  if (typeof amount !== 'string' || !AMOUNT_PATTERN.test(amount) || !NONZERO_DIGIT.test(amount)) return undefined
  if (typeof currency !== 'string' || !currencies.has(currency)) return undefined
  if (typeof sourceWallet !== 'string' || sourceWallet.length === 0 || typeof recipient !== 'string' || recipient.length === 0) return undefined
  const copied = metadata === undefined || metadata === null ? {} : copyMetadata(metadata)
  if (copied === undefined) return undefined
  const body: CreatePaymentBody = described
    ? { amount, currency, source_wallet: sourceWallet, recipient, description: description as string | null, metadata: copied }
    : { amount, currency, source_wallet: sourceWallet, recipient, metadata: copied }
  return body
}

/** Metadata zod takes as it is (up to 50 keys of 1–40 characters, none reserved, values strings of ≤ 500, sandbox keys known): its copy. */
function copyMetadata(metadata: unknown): Record<string, string> | undefined {
  if (!isPlainObject(metadata)) return undefined
  const copy: Record<string, string> = {}
  let count = 0
  for (const key in metadata) {
    const value = (metadata as Record<string, unknown>)[key]
    if (typeof value !== 'string' || value.length > 500 || key.length === 0 || key.length > 40 || ++count > 50) return undefined
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') return undefined
    if (key === 'sandbox_outcome' && !SANDBOX_OUTCOMES.includes(value)) return undefined
    if (key === 'sandbox_failure_code' && !failureCodes.has(value)) return undefined
    copy[key] = value
  }
  return copy
}

/** An object as JSON.parse makes it: Object's prototype, own enumerable fields only (anything else is zod's to judge). */
function isPlainObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype
}
