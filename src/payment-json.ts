import type { PaymentRecord } from './model/records.js'

/**
 * A payment as the API shows it (CONTRACT.md section 5), and its JSON written by code made for its
 * shape. A `POST /v1/payments` wrote the payment twice with `JSON.stringify`, once inside its
 * `payment.created` event (the event log and the webhooks) and once for the answer, from two
 * presented copies: now the ledger presents it once, and the text written for the event is the
 * answer's too (`paymentJson` keeps the last). Here, not in the ledger, because the event log
 * (src/events/) and the answer (src/http/) both read it, and the ledger imports the events.
 *
 * A presented payment is never changed once made (a change to the payment is presented anew): that
 * is what makes its text safe to keep.
 */
export class PresentedPayment {
  // Declared in the wire's order, without initialisers: an object gets its fields in this order,
  // which is the order JSON.stringify writes them in (and writePayment below).
  readonly id: string
  readonly object: 'payment'
  readonly amount: string
  readonly currency: string
  readonly network: string
  readonly status: string
  readonly source: string
  readonly destination: string
  readonly destination_type: 'wallet' | 'address'
  readonly description: string | null
  readonly metadata: Record<string, string>
  readonly tx_hash: string | null
  readonly failure_code: string | null
  readonly failure_message: string | null
  readonly payout_id: string | null
  readonly created_at: string
  readonly updated_at: string
  readonly completed_at: string | null

  constructor(payment: PaymentRecord) {
    this.id = payment.id
    this.object = 'payment'
    this.amount = payment.amount
    this.currency = payment.currency
    this.network = payment.network
    this.status = payment.status
    this.source = payment.source
    this.destination = payment.destination
    this.destination_type = payment.destination_type
    this.description = payment.description
    this.metadata = { ...payment.metadata }
    this.tx_hash = payment.tx_hash
    // The record keeps the code as written (data files are checked for shape, not vocabulary); the ledger only writes FailureCodes.
    this.failure_code = payment.failure_code
    this.failure_message = payment.failure_message
    this.payout_id = payment.payout_id
    this.created_at = payment.created_at
    this.updated_at = payment.updated_at
    this.completed_at = payment.completed_at
  }
}

/** A character JSON.stringify writes other than as it is: a quote, a backslash, a control character, a surrogate. */
export const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/

/** `JSON.stringify(text)`: most texts need no escape, and are quoted as they are. */
export function jsonString(text: string): string {
  return ESCAPED.test(text) ? JSON.stringify(text) : `"${text}"`
}

/** Whether `metadata` has no key (JSON.stringify writes `{}`), without making a list of its keys. */
function isEmpty(metadata: object): boolean {
  for (const _ in metadata) return false
  return true
}

let lastPayment: PresentedPayment | undefined
let lastText = ''

/**
 * `JSON.stringify(payment)`. The text written last is kept: the event log, the webhooks and the
 * answer of one change want it one after the other. (Only the last: the event log keeps thousands
 * of events, and a text kept per payment would stay with each.)
 */
export function paymentJson(payment: PresentedPayment): string {
  if (payment === lastPayment) return lastText
  lastText = writePayment(payment)
  // V8 keeps the text as a tree of its three dozen pieces, and each text made around it (the event's,
  // the answer's) walked them again when it was measured or written: reading a character makes it
  // one piece, once, and those texts then copy it whole.
  lastText.charCodeAt(0)
  lastPayment = payment
  return lastText
}

const plainText = (value: unknown) => typeof value === 'string' && !ESCAPED.test(value)
const quotedOrNull = (text: string | null) => (text === null ? 'null' : `"${text}"`)

/**
 * Escape tests of texts that most often repeat, field by field: each field's text when last found
 * plain is remembered. A payment's currency, network, status, wallets, kind of destination and most
 * often its amount and times are those of the payment before (the store interns most, so they are
 * the same strings), an event's type and account those of an event before: comparing with the last
 * costs less than a pattern test, and the same text is as plain as it was.
 */
export class PlainTexts {
  private readonly last: unknown[]

  constructor(fields: number) {
    this.last = new Array<unknown>(fields).fill('')
  }

  /** Whether `value` is a text that needs no escaping, `field` being which of the fields it is. */
  is(value: unknown, field: number): boolean {
    if (value === this.last[field]) return true
    if (!plainText(value)) return false
    this.last[field] = value
    return true
  }
}

const paymentTexts = new PlainTexts(15)
const plainAs = (value: unknown, field: number) => paymentTexts.is(value, field)
const plainOrNullAs = (value: unknown, field: number) => value === null || plainAs(value, field)

/**
 * Whether every field is what the type says (a record loaded from a data file could hold anything
 * the file's schema let through) and no text needs escaping, as nearly every payment: then each is
 * written between its quotes in one template.
 */
function isPlain(p: PresentedPayment): boolean {
  return plainText(p.id) && plainAs(p.amount, 0) && plainAs(p.currency, 1) && plainAs(p.network, 2) && plainAs(p.status, 3) && plainAs(p.source, 4) &&
    plainAs(p.destination, 5) && plainAs(p.destination_type, 6) && plainOrNullAs(p.description, 7) && plainOrNullAs(p.tx_hash, 8) &&
    plainOrNullAs(p.failure_code, 9) && plainOrNullAs(p.failure_message, 10) && plainOrNullAs(p.payout_id, 11) && plainAs(p.created_at, 12) &&
    (p.updated_at === p.created_at || plainAs(p.updated_at, 13)) && plainOrNullAs(p.completed_at, 14)
}

function writePayment(p: PresentedPayment): string {
  // Anything else (a text with a quote or a line break in it) is written by JSON.stringify, whose
  // text the template's is: quoting each text on its own in the template made two texts more per field.
  if (!isPlain(p)) return JSON.stringify(p)
  return (
    `{"id":"${p.id}","object":"payment","amount":"${p.amount}","currency":"${p.currency}","network":"${p.network}",` +
    `"status":"${p.status}","source":"${p.source}","destination":"${p.destination}","destination_type":"${p.destination_type}",` +
    `"description":${quotedOrNull(p.description)},"metadata":${isEmpty(p.metadata) ? '{}' : JSON.stringify(p.metadata)},` +
    `"tx_hash":${quotedOrNull(p.tx_hash)},"failure_code":${quotedOrNull(p.failure_code)},"failure_message":${quotedOrNull(p.failure_message)},` +
    `"payout_id":${quotedOrNull(p.payout_id)},"created_at":"${p.created_at}","updated_at":"${p.updated_at}",` +
    `"completed_at":${quotedOrNull(p.completed_at)}}`
  )
}
