import type { OrderFill } from '../model/records.js'
import type { AccountState } from './account-state.js'
import { put, type Change, type ChangeSet } from './changes.js'
import { decodeRecord, encodeRecord } from './codec.js'
import { encodeFill } from './data.js'

/**
 * A put of a wallet, payment or order that already exists is journaled as the fields it changes, a patch:
 * `{"patch":"wallet","account":"acct_…","id":"wal_…","value":{"available":"…","locked":"…","updated_at":"…"}}`.
 * Every payment's change set puts its wallets whole, and a payment's later steps put the payment
 * whole: patches make journal lines about a third shorter, and parsing the journal is most of
 * replaying it at start-up. On replay each patch becomes the put it was again, against the record
 * as the changes before it left it.
 *
 * An order's fills only grow: a patch carries the fills added since and where they start, in
 * `append` (`"append":{"fills":{"at":3,"entries":[…]}}`), not the whole list, so a fill's line does
 * not grow with the fills before it (an order that fills on every tick has hundreds). On replay the
 * list from `at` on becomes `entries`, whatever it held there: replaying a line twice (a journal
 * over a snapshot written while the journal grew) gives the same list, as for the other fields.
 *
 * Only change sets of puts and appends are patched (a reset or a delete in the set makes the record
 * a patch would start from uncertain), and only against another object than the one put (a record
 * changed in place, then put, is journaled whole).
 */
export type PatchKind = 'wallet' | 'payment' | 'order'

export interface Patch {
  patch: PatchKind
  account: string
  id: string
  /** The changed fields, in the data file's form (base units as strings). */
  value: Record<string, unknown>
  /** Lists that grew at their end (an order's `fills`): where the entries added start, and they, in the data file's form. */
  append?: Record<string, ListTail>
}

export interface ListTail {
  at: number
  entries: unknown[]
}

/** The record with this id, as the state holds it now. */
export type RecordLookup = (kind: PatchKind, account: string, id: string) => object | undefined

export const lookupIn =
  (accounts: ReadonlyMap<string, AccountState>): RecordLookup =>
  (kind, account, id) => {
    const state = accounts.get(account)
    if (kind === 'wallet') return state?.wallets.get(id)
    return kind === 'payment' ? state?.payments.get(id) : state?.orders.get(id)
  }

const isPatched = (change: Change): change is Extract<Change, { op: 'put' }> & { kind: PatchKind; account: string } =>
  change.op === 'put' && (change.kind === 'wallet' || change.kind === 'payment' || change.kind === 'order') && change.account !== undefined

const keyOf = (kind: string, account: string, id: string) => `${kind}\n${account}\n${id}`

/**
 * Whether `next` is `before` with entries added at its end. An order's fills are never changed,
 * only added (`[...order.fills, fill]`), so the same first and last entry objects at the same places
 * tell it without comparing every one (a fill on every tick makes long lists: the full comparison
 * cost more than the rest of the patch).
 */
function grew(before: unknown, next: unknown): next is unknown[] {
  if (!Array.isArray(before) || !Array.isArray(next) || next.length < before.length) return false
  return before.length === 0 || (next[0] === before[0] && next[before.length - 1] === before[before.length - 1])
}

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
    let append: Patch['append']
    let changed = false
    for (const name in value) {
      const field = value[name]
      if (field === base[name]) continue
      changed = true
      if (change.kind === 'order' && name === 'fills') {
        const before = (base.fills as OrderFill[]).length
        if (grew(base.fills, field)) append = { fills: { at: before, entries: (field as OrderFill[]).slice(before).map(encodeFill) } }
        else fields.fills = (field as OrderFill[]).map(encodeFill)
      } else {
        fields[name] = typeof field === 'bigint' ? String(field) : field
      }
    }
    if (!changed) return 'unchanged'
    return append ? { patch: change.kind, account: change.account, id: change.id, value: fields, append } : { patch: change.kind, account: change.account, id: change.id, value: fields }
  })
}

/**
 * A journal line's changes with each patch turned back into the put it was. Throws, naming the
 * field, for a patch that does not fit the record's schema once applied.
 *
 * A patch of a record that is not there is dropped. Wallets, payments and orders are never deleted
 * one by one, so the only way to meet one is the first journal after a snapshot that was written
 * while it grew: the record was patched, then its account was reset (or the whole state restored)
 * before the snapshot reached it, and that reset follows in this journal. The live state lost the
 * record the same way.
 */
export function resolvePatches(changes: ReadonlyArray<Change | Patch>, lookup: RecordLookup): Change[] {
  const latest = new Map<string, object>()
  return changes.flatMap((change) => {
    if (!('patch' in change)) {
      if (isPatched(change)) latest.set(keyOf(change.kind, change.account, change.id), change.value as object)
      return [change]
    }
    const key = keyOf(change.patch, change.account, change.id)
    const base = (latest.get(key) ?? lookup(change.patch, change.account, change.id)) as Record<string, unknown> | undefined
    if (base === undefined) return []
    const value = change.append ? appended(change, base) : (decodeRecord(change.patch, { ...(encodeRecord(change.patch, base) as object), ...change.value }) as object)
    latest.set(key, value)
    return [put(change.patch, change.account, change.id, value)]
  })
}

/**
 * A patch with lists that grew: the record is checked with only the added entries in those lists
 * (what came before was checked when it came), then each list is the base's up to `at`, followed
 * by them.
 */
function appended(patch: Patch, base: Record<string, unknown>): object {
  const tails = Object.entries(patch.append!)
  for (const [name, { at }] of tails) {
    const list = base[name]
    if (!Array.isArray(list)) throw new Error(`a ${patch.patch} patch appends to '${name}', which is no list of the record`)
    if (name in patch.value) throw new Error(`a ${patch.patch} patch both sets and appends to '${name}'`)
    if (at > list.length) throw new Error(`a ${patch.patch} patch appends to '${name}' at ${at}, but it has ${list.length} entries`)
  }
  const emptied = Object.fromEntries(tails.map(([name]) => [name, []]))
  const added = Object.fromEntries(tails.map(([name, { entries }]) => [name, entries]))
  const decoded = decodeRecord(patch.patch, { ...(encodeRecord(patch.patch, { ...base, ...emptied }) as object), ...patch.value, ...added }) as Record<string, unknown>
  for (const [name, { at }] of tails) decoded[name] = [...(base[name] as unknown[]).slice(0, at), ...(decoded[name] as unknown[])]
  return decoded
}
