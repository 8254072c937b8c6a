import { CAUSES, type Cause, type LedgerTransaction, type PostingLine } from '../model/postings.js'
import { ColumnError, chunkCount, encodeColumn, readColumn, type ColumnReader } from './columns.js'
import type { PostingsLog } from './postings-log.js'
import { isoOf } from '../date-text.js'

/**
 * A snapshot's transactions, a thousand to a line, in columns (columns.ts): `cause`, `ref`, `at`
 * (ISO 8601) and `size` (how many lines) of each transaction, then `account` (ledger account) and
 * `amount` (signed base units, as digits) of every line of them, in order. Nothing here loads zod:
 * a worker thread reads these (postings-region.ts).
 */
export const TRANSACTIONS_PER_CHUNK = 1000

const CAUSE_SET: ReadonlySet<unknown> = new Set(CAUSES)
const NON_ZERO_UNITS = /^-?[1-9]\d*$/

export function transactionChunk(transactions: readonly LedgerTransaction[]): Record<string, unknown> {
  const lines = () => transactions.flatMap((tx) => tx.lines)
  const fields: TransactionFields = {
    causes: () => transactions.map((tx) => tx.cause),
    refs: () => transactions.map((tx) => tx.ref),
    ats: () => transactions.map((tx) => tx.at),
    sizes: () => transactions.map((tx) => tx.lines.length),
    accounts: () => lines().map((line) => line.account),
    amounts: () => lines().map((line) => line.amount),
  }
  return Object.fromEntries(transactionColumns(transactions.length, fields))
}

/** Each field of a chunk's transactions, read when its column is made (from objects, or straight from a log: `PostingsLog.fieldsOf`). */
export type TransactionFields = ReturnType<PostingsLog['fieldsOf']>

/** The chunk line's keys and values in order, each column made as it is pulled (`chunkText`). */
export function* transactionColumns(count: number, fields: TransactionFields): Generator<[string, unknown]> {
  let lastAt = NaN
  let lastIso = ''
  // Transactions of the same millisecond are common (a payment's lock and its events): one date each.
  const iso = (at: number) => (at === lastAt ? lastIso : ((lastAt = at), (lastIso = isoOf(at))))
  yield ['count', count]
  yield ['cause', encodeColumn(fields.causes())]
  yield ['ref', encodeColumn(fields.refs())]
  yield ['at', encodeColumn(fields.ats().map(iso))]
  yield ['size', encodeColumn(fields.sizes())]
  yield ['account', encodeColumn(fields.accounts())]
  yield ['amount', encodeColumn(fields.amounts().map(String))]
}

/**
 * Appends the transactions of a chunk line (at most `most`) to the log and answers how many.
 * Each distinct value is checked and converted once. Throws, naming where (`[12].cause: …`), for a
 * chunk that does not fit, having appended nothing.
 */
export function appendTransactionChunk(log: PostingsLog, value: unknown, most: number): number {
  const { chunk, count } = chunkCount(value, most)
  const causes = values(chunk, 'cause', count, (cause) => (CAUSE_SET.has(cause) ? (cause as Cause) : undefined), `expected one of ${CAUSES.map((cause) => `"${cause}"`).join('|')}`)
  const refs = values(chunk, 'ref', count, (ref) => (typeof ref === 'string' ? ref : undefined), 'expected a string')
  const ats = values(chunk, 'at', count, (at) => (typeof at === 'string' && !Number.isNaN(Date.parse(at)) ? Date.parse(at) : undefined), 'expected an ISO 8601 timestamp')
  const sizes = values(chunk, 'size', count, (size) => (Number.isInteger(size) && (size as number) >= 1 ? (size as number) : undefined), "expected the number of the transaction's lines, 1 or more")
  let lineCount = 0
  for (let i = 0; i < count; i++) lineCount += sizes.at(i)
  const accounts = values(chunk, 'account', lineCount, (account) => (typeof account === 'string' ? account : undefined), 'expected a string')
  const amounts = values(chunk, 'amount', lineCount, (amount) => (typeof amount === 'string' && NON_ZERO_UNITS.test(amount) ? BigInt(amount) : undefined), 'expected non-zero base units as a string of digits, with a sign when negative')
  const scratch: PostingLine[] = []
  for (let i = 0, line = 0; i < count; i++) {
    const size = sizes.at(i)
    while (scratch.length < size) scratch.push({ account: '', amount: 0n })
    scratch.length = size
    for (let j = 0; j < size; j++, line++) {
      scratch[j]!.account = accounts.at(line)
      scratch[j]!.amount = amounts.at(line)
    }
    log.append(causes.at(i), refs.at(i), ats.at(i), scratch)
  }
  return count
}

/** A column's values, each distinct one checked and converted once (`convert` answers undefined for one that does not fit). */
function values<T>(chunk: Record<string, unknown>, field: string, count: number, convert: (value: unknown) => T | undefined, expected: string): { at(i: number): T } {
  const reader = readColumn(chunk, field, count)
  if (!reader) throw new ColumnError(field, 'missing (a column every transaction has)')
  const converted = reader.values.map((value, index) => {
    const result = convert(value)
    if (result === undefined) throw new ColumnError(`${field}[${firstWith(reader, index)}]`, expected)
    return result
  })
  return { at: (i) => converted[reader.of(i)]! }
}

function firstWith(reader: ColumnReader, index: number): number {
  let i = 0
  while (reader.of(i) !== index) i++
  return i
}
