import { open, rename } from 'node:fs/promises'
import { dirname } from 'node:path'
import { POSTINGS_LOG, put, type Change } from './changes.js'
import { encodeChange, SNAPSHOT_FORMAT } from './lines.js'
import { PaymentIndex } from './payment-index.js'
import { SettlementIndex } from './settlement-index.js'
import { transactionToData } from './postings-data.js'
import { PostingsLog } from './postings-log.js'
import type { AccountState } from './account-state.js'
import type { State } from './state.js'

/** Work between two yields to the event loop (ms): well under the 50 ms a request may be stalled. */
const SLICE_MS = 8

/**
 * Every record of the state as one snapshot line each. The state may change between two chunks
 * (compaction runs while requests go on): a record is always read whole, and the journal that
 * starts with the snapshot replays every change made since, so the result is exact.
 */
function* snapshotChanges(state: State): Generator<Change> {
  for (const [account, tenant] of state.accounts) {
    // The account and its generator's position; its records follow one line each.
    const empty: AccountState = {
      ...tenant,
      wallets: new Map(),
      payments: new PaymentIndex(),
      payouts: new Map(),
      settlements: new SettlementIndex(),
      whitelist: new Map(),
      webhooks: new Map(),
      idempotency: new Map(),
      quotes: new Map(),
      postings: new PostingsLog(),
    }
    yield put('tenant', undefined, account, empty)
    for (const wallet of tenant.wallets.values()) yield put('wallet', account, wallet.id, wallet)
    const payments = tenant.payments.values()
    // By index: payments created meanwhile are appended and picked up too.
    for (let i = 0; i < payments.length; i++) yield put('payment', account, payments[i]!.id, payments[i]!)
    for (const payout of tenant.payouts.values()) yield put('payout', account, payout.id, payout)
    for (const settlement of tenant.settlements.values()) yield put('settlement', account, settlement.id, settlement)
    for (const entry of tenant.whitelist.values()) yield put('whitelist', account, entry.id, entry)
    for (const endpoint of tenant.webhooks.values()) yield put('webhook', account, endpoint.id, endpoint)
    for (const record of tenant.idempotency.values()) yield put('idempotency', account, record.scope, record)
    for (const quote of tenant.quotes.values()) yield put('quote', account, quote.id, quote)
    // By index too: transactions posted meanwhile are picked up (the journal's copies are then skipped).
    for (let id = 1; id <= tenant.postings.size; id++) {
      yield { op: 'append', log: POSTINGS_LOG, account, at: id - 1, value: transactionToData(tenant.postings.transaction(id)) }
    }
  }
  for (const key of state.keys.values()) yield put('key', undefined, key.key, key)
  for (const [id, value] of Object.entries(state.control)) yield put('control', undefined, id, value)
  for (const [key, entries] of state.logs) {
    const slash = key.indexOf('/')
    const account = slash === 0 ? undefined : key.slice(0, slash)
    for (let at = 0; at < entries.length; at++) yield { op: 'append', log: key.slice(slash + 1), account, at, value: entries[at] }
  }
}

/**
 * Writes a snapshot of `state` to `path` (through a temporary file and a rename, so the old one
 * stays whole until the new one is), yielding to the event loop after every chunk.
 */
export async function writeSnapshot(path: string, state: State, journal: number, now: string): Promise<{ records: number; bytes: number }> {
  const temporary = `${path}.tmp`
  const file = await open(temporary, 'w')
  let records = 0
  let bytes = 0
  try {
    let chunk = `${JSON.stringify({ format: SNAPSHOT_FORMAT, version: 2, journal, written_at: now })}\n`
    let sliceStart = performance.now()
    for (const change of snapshotChanges(state)) {
      const line = encodeChange(change)
      if (!line) continue
      chunk += `${JSON.stringify(line)}\n`
      records++
      // The write's await is the yield: requests run while the chunk goes to disk.
      if ((records & 15) === 0 && performance.now() - sliceStart > SLICE_MS) {
        bytes += (await file.write(chunk)).bytesWritten
        chunk = ''
        sliceStart = performance.now()
      }
    }
    chunk += `${JSON.stringify({ end: true, records })}\n`
    bytes += (await file.write(chunk)).bytesWritten
    await file.sync()
  } finally {
    await file.close()
  }
  // Not the synchronous calls: on a busy disk a rename or a directory's fsync can hold the event loop for long.
  await rename(temporary, path)
  await syncDirectory(dirname(path))
  return { records, bytes }
}

/** The rename itself is durable only once the directory is. */
async function syncDirectory(directory: string): Promise<void> {
  let handle
  try {
    handle = await open(directory, 'r')
    await handle.sync()
  } catch {
    // Some platforms cannot open a directory; the rename is still atomic there.
  } finally {
    await handle?.close()
  }
}
