/**
 * A change set: everything one state change does, as data. The ledger builds one and hands it to
 * `store.apply`; the memory backend applies it, the file backend also journals it, one line per
 * set. The format is generic (a kind, an id and a value; or an entry appended to a log), so that a
 * new kind of record or log needs a codec entry, not a new operation.
 */
export type RecordKind = 'tenant' | 'account' | 'key' | 'wallet' | 'payment' | 'order' | 'payout' | 'settlement' | 'whitelist' | 'webhook' | 'idempotency' | 'control' | 'quote'

export type Change =
  /** Creates or replaces a record; an existing record object is updated in place (references stay valid). */
  | { op: 'put'; kind: RecordKind; account?: string; id: string; value: unknown }
  | { op: 'delete'; kind: RecordKind; account?: string; id: string }
  /** Adds an entry at position `at` of an append-only log; `at` makes replaying a journal idempotent. */
  | { op: 'append'; log: string; account?: string; at: number; value: unknown }
  /** Replaces the whole state (restore, reset of everything); `value` is a `Data` document. */
  | { op: 'replace'; value: unknown }

export type ChangeSet = readonly Change[]

export const put = (kind: RecordKind, account: string | undefined, id: string, value: unknown): Change => ({ op: 'put', kind, account, id, value })
export const remove = (kind: RecordKind, account: string | undefined, id: string): Change => ({ op: 'delete', kind, account, id })

/** The append-only log of an account's postings (see postings-log.ts); its entries are `PostedTransaction`s, or `TransactionData` read from a file. */
export const POSTINGS_LOG = 'postings'

/**
 * Appends a transaction to the account's postings log, after those `pending` (the same change set)
 * appends already: `at` is where it lands once they are in.
 */
export function appendPostings(account: { account: { id: string }; postings: { size: number } }, pending: ChangeSet, value: unknown): Change {
  const id = account.account.id
  let queued = 0
  for (const change of pending) if (change.op === 'append' && change.log === POSTINGS_LOG && change.account === id) queued++
  return { op: 'append', log: POSTINGS_LOG, account: id, at: account.postings.size + queued, value }
}
