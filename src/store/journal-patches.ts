import type { AccountState } from './account-state.js'
import { put, type Change, type ChangeSet } from './changes.js'
import { decodeRecord, encodeRecord } from './codec.js'

/**
 * A put of a wallet or payment that already exists is journaled as the fields it changes, a patch:
 * `{"patch":"wallet","account":"acct_…","id":"wal_…","value":{"available":"…","locked":"…","updated_at":"…"}}`.
 * Every payment's change set puts its wallets whole, and a payment's later steps put the payment
 * whole: patches make journal lines about a third shorter, and parsing the journal is most of
 * replaying it at start-up. On replay each patch becomes the put it was again, against the record
 * as the changes before it left it.
 *
 * Only change sets of puts and appends are patched (a reset or a delete in the set makes the record
 * a patch would start from uncertain), and only against another object than the one put (a record
 * changed in place, then put, is journaled whole).
 */
export type PatchKind = 'wallet' | 'payment'

export interface Patch {
  patch: PatchKind
  account: string
  id: string
  /** The changed fields, in the data file's form (base units as strings). */
  value: Record<string, unknown>
}

/** The wallet or payment with this id, as the state holds it now. */
export type RecordLookup = (kind: PatchKind, account: string, id: string) => object | undefined

export const lookupIn =
  (accounts: ReadonlyMap<string, AccountState>): RecordLookup =>
  (kind, account, id) =>
    kind === 'wallet' ? accounts.get(account)?.wallets.get(id) : accounts.get(account)?.payments.get(id)

const isPatched = (change: Change): change is Extract<Change, { op: 'put' }> & { kind: PatchKind; account: string } =>
  change.op === 'put' && (change.kind === 'wallet' || change.kind === 'payment') && change.account !== undefined

const keyOf = (kind: string, account: string, id: string) => `${kind}\n${account}\n${id}`

/**
 * For each change of a set about to be applied (the state still as before it): the patch to
 * journal instead, `'unchanged'` for a put that changes nothing, or undefined to journal it as it is.
 */
export function patchesOf(changes: ChangeSet, lookup: RecordLookup): Array<Patch | 'unchanged' | undefined> {
  if (changes.some((change) => change.op !== 'put' && change.op !== 'append')) return changes.map(() => undefined)
  if (changes.some((change) => change.op === 'put' && change.kind === 'tenant')) return changes.map(() => undefined)
  // The same record may be put more than once in a set (a bulk payout's wallet, once per item).
  const latest = new Map<string, object>()
  return changes.map((change) => {
    if (!isPatched(change)) return undefined
    const key = keyOf(change.kind, change.account, change.id)
    const value = change.value as Record<string, unknown>
    const base = (latest.get(key) ?? lookup(change.kind, change.account, change.id)) as Record<string, unknown> | undefined
    latest.set(key, value)
    if (base === undefined || base === value) return undefined
    const fields: Record<string, unknown> = {}
    let changed = false
    for (const name in value) {
      const field = value[name]
      if (field === base[name]) continue
      fields[name] = typeof field === 'bigint' ? String(field) : field
      changed = true
    }
    return changed ? { patch: change.kind, account: change.account, id: change.id, value: fields } : 'unchanged'
  })
}

/**
 * A journal line's changes with each patch turned back into the put it was. Throws, naming the
 * field, for a patch that does not fit the record's schema once applied.
 *
 * A patch of a record that is not there is dropped. Wallets and payments are never deleted one by
 * one, so the only way to meet one is the first journal after a snapshot that was written while
 * it grew: the record was patched, then its account was reset (or the whole state restored) before
 * the snapshot reached it, and that reset follows in this journal. The live state lost the record
 * the same way.
 */
export function resolvePatches(changes: ReadonlyArray<Change | Patch>, lookup: RecordLookup): Change[] {
  const latest = new Map<string, object>()
  return changes.flatMap((change) => {
    if (!('patch' in change)) {
      if (isPatched(change)) latest.set(keyOf(change.kind, change.account, change.id), change.value as object)
      return [change]
    }
    const key = keyOf(change.patch, change.account, change.id)
    const base = latest.get(key) ?? lookup(change.patch, change.account, change.id)
    if (base === undefined) return []
    const value = decodeRecord(change.patch, { ...(encodeRecord(change.patch, base) as object), ...change.value }) as object
    latest.set(key, value)
    return [put(change.patch, change.account, change.id, value)]
  })
}
