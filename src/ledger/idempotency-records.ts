import type { IdempotencyRecord } from '../model/records.js'
import { put, remove } from '../store/changes.js'
import type { Store } from '../store/store.js'

/**
 * The idempotency middleware's records (CONTRACT.md section 6), kept through the store like every
 * other record, so that HTTP code never reaches the store itself. Accounts are named by id; a record
 * is the object `start` was given until it is forgotten (expiry timers compare identity).
 */
export interface IdempotencyRecords {
  find(accountId: string, scope: string): IdempotencyRecord | undefined
  /** Keeps `record` under its scope in place of what the scope held (an expired record). */
  start(accountId: string, record: IdempotencyRecord): void
  /** Keeps the answer in the same record object. */
  finish(accountId: string, record: IdempotencyRecord, status: number, body: string): void
  /** Removes `record`, unless its scope holds another record by now. */
  forget(accountId: string, record: IdempotencyRecord): void
}

export function createIdempotencyRecords(store: Store): IdempotencyRecords {
  const find = (accountId: string, scope: string) => store.accounts.get(accountId)?.idempotency.get(scope)
  return {
    find,
    start(accountId, record) {
      // An expired record goes first, so the new one is a new object.
      const replaced = find(accountId, record.scope) ? [remove('idempotency', accountId, record.scope)] : []
      store.apply([...replaced, put('idempotency', accountId, record.scope, record)])
    },
    finish(accountId, record, status, body) {
      store.apply([put('idempotency', accountId, record.scope, { ...record, state: 'done', status, body })])
    },
    forget(accountId, record) {
      if (find(accountId, record.scope) === record) store.apply([remove('idempotency', accountId, record.scope)])
    },
  }
}
