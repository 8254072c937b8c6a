import type { PaymentRecord } from '../model/records.js'
import type { TransactionData, TransactionLine } from '../schemas/data-file.js'
import type { encodePayment } from './data.js'
import { NO_METADATA } from './payment-decoder.js'

/**
 * The short forms a data file writes for the two records it holds by the million, each a plain
 * reading of the full one. Parsing the lines is most of a restart, and its cost follows the keys and
 * objects in them: a payment leaves out the fields that hold their default (about half of a new
 * payment's), and a transaction is a tuple, `[cause, ref, at, [[account, amount], …]]`. Either file
 * still loads a record written in full (files of earlier versions, or edited by hand).
 */

type PaymentData = ReturnType<typeof encodePayment>

/** A payment on disk: amount in base units as a string, and only the fields that differ from their default. */
export function shortPayment(p: PaymentRecord): Partial<PaymentData> {
  // Built field by field, not copied then pruned: an object with a deleted key is slow to stringify.
  const data: Partial<PaymentData> = {
    id: p.id,
    seq: p.seq,
    amount_units: String(p.amount_units),
    amount: p.amount,
    currency: p.currency,
    network: p.network,
    status: p.status,
    source: p.source,
    destination: p.destination,
    destination_type: p.destination_type,
  }
  if (p.description !== null) data.description = p.description
  for (const _ in p.metadata) {
    data.metadata = p.metadata
    break
  }
  if (p.tx_hash !== null) data.tx_hash = p.tx_hash
  if (p.failure_code !== null) data.failure_code = p.failure_code
  if (p.failure_message !== null) data.failure_message = p.failure_message
  if (p.payout_id !== null) data.payout_id = p.payout_id
  data.created_at = p.created_at
  if (p.updated_at !== p.created_at) data.updated_at = p.updated_at
  if (p.completed_at !== null) data.completed_at = p.completed_at
  if (p.plan !== null) data.plan = p.plan
  return data
}

/**
 * The full form of a payment read from disk, short or not, with its fields in one order (so that a
 * million payments share one object shape); a key no payment has is left out, as the schema would
 * drop it. Anything but an object is answered as it is, for the schema to refuse.
 */
export function expandPayment(data: unknown): unknown {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return data
  const d = data as Partial<PaymentData>
  return {
    id: d.id,
    seq: d.seq,
    amount_units: d.amount_units,
    amount: d.amount,
    currency: d.currency,
    network: d.network,
    status: d.status,
    source: d.source,
    destination: d.destination,
    destination_type: d.destination_type,
    description: d.description === undefined ? null : d.description,
    metadata: d.metadata === undefined ? NO_METADATA : d.metadata,
    tx_hash: d.tx_hash === undefined ? null : d.tx_hash,
    failure_code: d.failure_code === undefined ? null : d.failure_code,
    failure_message: d.failure_message === undefined ? null : d.failure_message,
    payout_id: d.payout_id === undefined ? null : d.payout_id,
    created_at: d.created_at,
    updated_at: d.updated_at === undefined ? d.created_at : d.updated_at,
    completed_at: d.completed_at === undefined ? null : d.completed_at,
    plan: d.plan === undefined ? null : d.plan,
  }
}

export const transactionLine = (tx: TransactionData): TransactionLine => [tx.cause, tx.ref, tx.at, tx.lines.map((line) => [line.account, line.amount] as [string, string])]

export const transactionFromLine = ([cause, ref, at, lines]: TransactionLine): TransactionData => ({ cause, ref, at, lines: lines.map(([account, amount]) => ({ account, amount })) })
