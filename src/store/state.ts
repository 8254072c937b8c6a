import { POSTINGS_LOG, type Change, type ChangeSet, type RecordKind } from './changes.js'
import type { Data, TransactionData } from '../schemas/data-file.js'
import { accountFromData, accountToData, keysFromData } from './data.js'
import { appendTransactionData, type PostedTransaction } from './postings-data.js'
import { sharePaymentValues } from './payment-decoder.js'
import type { KeyRecord, OrderRecord, PaymentRecord, SettlementRecord, WalletRecord } from '../model/records.js'
import { assignPayment, assignWallet } from './record-assign.js'
import type { AccountState } from './account-state.js'

/** The collections of an account that hold one kind of record each, by the kind's name. */
const ACCOUNT_MAPS = { wallet: 'wallets', payout: 'payouts', whitelist: 'whitelist', webhook: 'webhooks', idempotency: 'idempotency', quote: 'quotes' } as const
const GLOBAL_KINDS: ReadonlySet<RecordKind> = new Set(['tenant', 'key', 'control'])

export class ChangeError extends Error {
  override name = 'ChangeError'
}

/**
 * The whole state in memory, and the one place that changes it: `apply` takes a change set and
 * applies all of it or (when any change does not fit) none of it. Records that already exist are
 * updated in place, so that what holds a reference (a settlement timer, an index) sees the change.
 */
export function createState() {
  const accounts = new Map<string, AccountState>()
  const keys = new Map<string, KeyRecord>()
  const control: Record<string, unknown> = {}
  /** Append-only logs by `account/log` (`/log` for sandbox-wide ones). */
  const logs = new Map<string, unknown[]>()

  const logKey = (account: string | undefined, log: string) => `${account ?? ''}/${log}`

  /**
   * Throws before anything changed when a change does not fit. `replaying` accepts appends that are
   * already there (a journal replayed over a snapshot taken while it was being written): answers
   * which changes to skip, undefined when none (every change set but a replayed one's).
   */
  function check(changes: ChangeSet, replaying: boolean): boolean[] | undefined {
    // Made for the few change sets that need them (a new account, appends), not for every one.
    let created: Set<string> | undefined
    let appended: AppendedLog[] | undefined
    let skipped: boolean[] | undefined
    for (let i = 0; i < changes.length; i++) {
      const change = changes[i]!
      if (change.op === 'replace') continue
      if (change.op === 'put' && change.kind === 'tenant') (created ??= new Set()).add(change.id)
      if (!checkOne(change, created ?? NONE, change.op === 'append' ? (appended ??= []) : NO_APPENDS, replaying)) (skipped ??= new Array<boolean>(changes.length).fill(false))[i] = true
    }
    return skipped
  }

  function checkOne(change: Exclude<Change, { op: 'replace' }>, created: ReadonlySet<string>, appended: AppendedLog[], replaying: boolean): boolean {
    if (change.op !== 'append' && GLOBAL_KINDS.has(change.kind)) return true
    if (change.account === undefined) {
      if (change.op === 'append') return checkAppend(change, appended, replaying)
      throw new ChangeError(`a ${change.kind} change needs an account`)
    }
    if (!accounts.has(change.account) && !created.has(change.account)) throw new ChangeError(`no account '${change.account}'`)
    if (change.op === 'append') return checkAppend(change, appended, replaying)
    if (change.op === 'delete' && (change.kind === 'payment' || change.kind === 'order' || change.kind === 'settlement')) throw new ChangeError(`${change.kind}s are never deleted`)
    return true
  }

  /**
   * `appended`: the logs this change set appended to so far, with the length each will have. A set
   * appends to one or two logs (a payment's to its account's postings), so a list searched in order
   * does, where a map keyed by a `account/log` string made that string and a map for every payment.
   */
  function checkAppend(change: Extract<Change, { op: 'append' }>, appended: AppendedLog[], replaying: boolean): boolean {
    let entry: AppendedLog | undefined
    for (let i = 0; i < appended.length && entry === undefined; i++) if (appended[i]!.log === change.log && appended[i]!.account === change.account) entry = appended[i]
    const length = entry === undefined ? logLength(change.account, change.log) : entry.length
    if (replaying && change.at < length) return false
    if (change.at !== length) throw new ChangeError(`log '${logKey(change.account, change.log)}' has ${length} entries; cannot append at ${change.at}`)
    if (entry === undefined) appended.push({ account: change.account, log: change.log, length: length + 1 })
    else entry.length = length + 1
    return true
  }

  /** An account's postings live in its own columnar log (postings-log.ts); other logs here. */
  function logLength(account: string | undefined, log: string): number {
    if (log === POSTINGS_LOG && account !== undefined) return accounts.get(account)?.postings.size ?? 0
    return logs.get(logKey(account, log))?.length ?? 0
  }

  function applyOne(change: Change): void {
    if (change.op === 'replace') return replace(change.value as Data)
    if (change.op === 'append' && change.log === POSTINGS_LOG && change.account !== undefined) {
      return appendTransactionData(accounts.get(change.account)!.postings, change.value as PostedTransaction | TransactionData)
    }
    if (change.op === 'append') {
      const key = logKey(change.account, change.log)
      let log = logs.get(key)
      if (!log) logs.set(key, (log = []))
      log.push(change.value)
      return
    }
    const { kind, id } = change
    const value = change.op === 'put' ? change.value : undefined
    switch (kind) {
      case 'tenant':
        if (value) accounts.set(id, value as AccountState)
        else accounts.delete(id)
        return
      case 'key':
        return upsert(keys, id, value as KeyRecord | undefined)
      case 'control':
        if (value === undefined) delete control[id]
        else control[id] = value
        return
    }
    const account = accounts.get(change.account!)!
    if (kind === 'account') Object.assign(account.account, value)
    else if (kind === 'payment') putIndexed(account.payments, sharePayment(value as PaymentRecord), assignPayment)
    else if (kind === 'order') putIndexed(account.orders, value as OrderRecord, Object.assign)
    else if (kind === 'wallet') upsert(account.wallets, id, value as WalletRecord | undefined, assignWallet)
    else if (kind === 'settlement') account.settlements.put(value as SettlementRecord)
    else upsert(account[ACCOUNT_MAPS[kind]] as Map<string, object>, id, value as object | undefined)
  }

  function replace(data: Data): void {
    accounts.clear()
    keys.clear()
    logs.clear()
    for (const key of Object.keys(control)) delete control[key]
    for (const account of data.accounts) accounts.set(account.account.id, accountFromData(account))
    for (const key of keysFromData(data)) keys.set(key.key, key)
    Object.assign(control, structuredClone(data.control))
    for (const [key, entries] of Object.entries(data.logs ?? {})) logs.set(key, [...entries])
  }

  return {
    accounts,
    keys,
    control,
    logs,
    /** One change of a snapshot being loaded (a million of them: no allocation beyond the change). */
    load(change: Change): void {
      // A snapshot holds each payment once; one that is there twice is refused (and the load with it).
      if (change.op === 'put' && change.kind === 'payment' && change.account !== undefined) {
        const account = accounts.get(change.account)
        if (!account) throw new ChangeError(`no account '${change.account}'`)
        if (!account.payments.addNew(change.value as PaymentRecord)) throw new ChangeError(`payment '${change.id}' is in the snapshot twice`)
        return
      }
      if (change.op === 'replace' || checkOne(change, NONE, change.op === 'append' ? [] : NO_APPENDS, true)) applyOne(change)
    },
    apply(changes: ChangeSet, replaying = false): void {
      const skipped = check(changes, replaying)
      for (let i = 0; i < changes.length; i++) if (skipped === undefined || !skipped[i]) applyOne(changes[i]!)
    },
    replace,
    toData: (): Data => ({
      version: 1,
      accounts: [...accounts.values()].map(accountToData),
      keys: [...keys.values()].map((k) => ({ ...k, scopes: [...k.scopes], allowed_ips: [...k.allowed_ips] })),
      control: structuredClone(control),
      ...(logs.size > 0 ? { logs: Object.fromEntries([...logs].map(([key, entries]) => [key, [...entries]])) } : {}),
    }),
  }
}

export type State = ReturnType<typeof createState>

/** A million payments made by requests hold one copy of each value they share, as loaded ones do. */
function sharePayment(payment: PaymentRecord): PaymentRecord {
  sharePaymentValues(payment)
  return payment
}

const NONE: ReadonlySet<string> = new Set()
/** A log a change set appends to, and its length once the set's appends so far are in. */
type AppendedLog = { account: string | undefined; log: string; length: number }
/** Never written: only appends note their logs, and they get a list of their own. */
const NO_APPENDS: AppendedLog[] = []

/** `assign`: copies a put's fields onto the stored record (record-assign.ts for the kinds put on every payment). */
function upsert<T extends object>(map: Map<string, T>, id: string, value: T | undefined, assign: (target: T, value: T) => void = Object.assign): void {
  const existing = map.get(id)
  if (value === undefined) map.delete(id)
  else if (existing && existing !== value) assign(existing, value)
  else map.set(id, value)
}

/** A record kept in an index by status (payments, orders): updated in place, then moved if its status changed. */
interface StatusIndex<T extends { id: string; status: S }, S> {
  /** Adds a record with a new id (undefined), or answers the one here: a put looks its id up once. */
  addOrFind(record: T): T | undefined
  statusChanged(record: T, previous: S): void
}

function putIndexed<T extends { id: string; status: S }, S>(index: StatusIndex<T, S>, value: T, assign: (target: T, value: T) => void): void {
  const existing = index.addOrFind(value)
  if (existing === undefined) return
  const previous = existing.status
  if (existing !== value) assign(existing, value)
  index.statusChanged(existing, previous)
}
