import type { PaymentRecord } from '../model/records.js'
import { PaymentDataSchema } from '../schemas/data-file.js'
import { ColumnError, chunkCount, encodeColumn, readColumn, type ColumnReader } from './columns.js'
import { intern, NO_METADATA, unitsOf } from './payment-decoder.js'
import { PAYMENT_FIELDS } from './plain-checks.js'

/**
 * A snapshot's payments, a thousand to a line, in columns (columns.ts):
 * `{"count":1000,"id":["pay_…",…],"seq":[1,…],"status":{"values":["pending","completed"],"of":[0,1,…]},…}`.
 * A field every payment of the chunk leaves at its default is left out: `description`, `metadata`,
 * `tx_hash`, `failure_code`, `failure_message`, `payout_id`, `completed_at`, `plan` (null or empty),
 * and `updated_at` (the payment's `created_at`).
 */
export const PAYMENTS_PER_CHUNK = 1000

type Field = keyof typeof PAYMENT_FIELDS
const FIELDS = Object.keys(PAYMENT_FIELDS) as Field[]
const OPTIONAL: ReadonlySet<Field> = new Set(['description', 'metadata', 'tx_hash', 'failure_code', 'failure_message', 'payout_id', 'updated_at', 'completed_at', 'plan'])
/** Fields whose values repeat across payments: interned once a distinct value. */
const INTERNED: ReadonlySet<Field> = new Set(['amount', 'currency', 'network', 'status', 'source', 'destination', 'destination_type'])

const holdsDefault = (payment: PaymentRecord, field: Field): boolean => {
  if (field === 'metadata') return Object.keys(payment.metadata).length === 0
  if (field === 'updated_at') return payment.updated_at === payment.created_at
  return payment[field] === null
}

/** The chunk line's object for these payments. */
export const paymentChunk = (payments: readonly PaymentRecord[]): Record<string, unknown> => Object.fromEntries(paymentColumns(payments))

/** The chunk line's keys and values in order, each column made as it is pulled (`chunkText`). */
export function* paymentColumns(payments: readonly PaymentRecord[]): Generator<[string, unknown]> {
  yield ['count', payments.length]
  for (const field of FIELDS) {
    if (OPTIONAL.has(field) && payments.every((payment) => holdsDefault(payment, field))) continue
    const values = payments.map((payment) => (field === 'amount_units' ? String(payment.amount_units) : payment[field]))
    yield [field, encodeColumn(values, field === 'metadata' || field === 'plan' ? (value) => JSON.stringify(value) : undefined)]
  }
}

/**
 * The payments of a chunk line (at most `most`), checked and decoded. Each distinct value of a
 * column is checked and converted once (a bigint, an interned string; a repeated metadata or plan
 * object is shared, and frozen). Throws, naming where (`[12].status: …`, or a column), for a chunk
 * that does not fit; a column no payment has is ignored, as the schema drops an unknown field.
 */
export function readPaymentChunk(value: unknown, most: number): PaymentRecord[] {
  const { chunk, count } = chunkCount(value, most)
  /** Each payment's value of the field, checked and decoded; undefined for a column the chunk leaves out. */
  const column = (field: Field): unknown[] | undefined => {
    const reader = readColumn(chunk, field, count)
    if (!reader) {
      if (!OPTIONAL.has(field)) throw new ColumnError(field, 'missing (a column every payment has)')
      return undefined
    }
    const values = decodeValues(field, reader, count)
    if (!reader.dictionary) return values
    const all = new Array<unknown>(count)
    for (let i = 0; i < count; i++) all[i] = values[reader.of(i)]
    return all
  }
  const [id, seq, units, amount, currency, network, status, source, destination, destinationType] = REQUIRED.map((field) => column(field)!)
  const [description, metadata, txHash, failureCode, failureMessage, payoutId, createdAt, updatedAt, completedAt, plan] = LATER.map(column)
  const payments = new Array<PaymentRecord>(count)
  for (let i = 0; i < count; i++) {
    const created = createdAt![i] as string
    payments[i] = {
      id: id![i],
      seq: seq![i],
      amount_units: units![i],
      amount: amount![i],
      currency: currency![i],
      network: network![i],
      status: status![i],
      source: source![i],
      destination: destination![i],
      destination_type: destinationType![i],
      description: description ? description[i] : null,
      metadata: metadata ? metadata[i] : NO_METADATA,
      tx_hash: txHash ? txHash[i] : null,
      failure_code: failureCode ? failureCode[i] : null,
      failure_message: failureMessage ? failureMessage[i] : null,
      payout_id: payoutId ? payoutId[i] : null,
      created_at: created,
      updated_at: updatedAt ? updatedAt[i] : created,
      completed_at: completedAt ? completedAt[i] : null,
      plan: plan ? plan[i] : null,
    } as PaymentRecord
  }
  return payments
}

/** The fields in the record's order, split where the optional ones begin (`created_at` among them is not). */
const REQUIRED: Field[] = ['id', 'seq', 'amount_units', 'amount', 'currency', 'network', 'status', 'source', 'destination', 'destination_type']
const LATER: Field[] = ['description', 'metadata', 'tx_hash', 'failure_code', 'failure_message', 'payout_id', 'created_at', 'updated_at', 'completed_at', 'plan']

/** A column's distinct values, checked and converted; a value that does not fit throws, naming the first payment that has it. */
function decodeValues(field: Field, reader: ColumnReader, count: number): unknown[] {
  const fits = PAYMENT_FIELDS[field]
  const shared = reader.dictionary
  return reader.values.map((value, index) => {
    if (!fits(value)) {
      let i = 0
      while (reader.of(i) !== index) i++
      const issue = PaymentDataSchema.shape[field].safeParse(value).error?.issues[0]
      throw new ColumnError(`${field}[${i}]`, issue?.message ?? 'does not fit')
    }
    if (field === 'amount_units') return unitsOf(value as string)
    if (INTERNED.has(field) || (shared && typeof value === 'string')) return intern(value as string)
    // A metadata or plan object several payments share is one, frozen: records are changed by replacing fields, never in place.
    if (shared && value !== null && typeof value === 'object') return Object.freeze(value)
    return value
  })
}
