import { open, rename } from 'node:fs/promises'
import { dirname } from 'node:path'
import { put, type Change } from './changes.js'
import { encodeRecord } from './codec.js'
import { encodeChange, SNAPSHOT_FORMAT, SNAPSHOT_VERSION } from './lines.js'
import { OrderIndex } from './order-index.js'
import { PaymentIndex } from './payment-index.js'
import { SettlementIndex } from './settlement-index.js'
import { transactionToData } from './postings-data.js'
import { PostingsLog } from './postings-log.js'
import { transactionLine } from './short-forms.js'
import type { AccountState } from './account-state.js'
import type { State } from './state.js'

/** Work between two yields to the event loop (ms): well under the 50 ms a request may be stalled. */
const SLICE_MS = 8

/**
 * The lines of a snapshot (see docs/snapshots.md), header and trailer aside. Records come first,
 * each account's payments in a section of short lines (`{"section":"payments",…,"count":N}`); then,
 * from byte `postings` of the trailer on, every account's transactions in sections of their own
 * (postings-region.ts), which a loader reads on another thread.
 *
 * The state may change between two slices (compaction runs while requests go on): a record is
 * always read whole, a section holds what was there when its first line was written, and the journal
 * that starts with the snapshot replays every change made since, so the result is exact.
 */
function* recordLines(state: State, written: Set<string>): Generator<string> {
  for (const [account, tenant] of state.accounts) {
    written.add(account)
    // The account and its generator's position; its records follow.
    const empty: AccountState = {
      ...tenant,
      wallets: new Map(),
      payments: new PaymentIndex(),
      orders: new OrderIndex(),
      payouts: new Map(),
      settlements: new SettlementIndex(),
      whitelist: new Map(),
      webhooks: new Map(),
      idempotency: new Map(),
      quotes: new Map(),
      postings: new PostingsLog(),
    }
    yield changeLine(put('tenant', undefined, account, empty))
    for (const wallet of tenant.wallets.values()) yield changeLine(put('wallet', account, wallet.id, wallet))
    for (const order of tenant.orders.values()) yield changeLine(put('order', account, order.id, order))
    for (const payout of tenant.payouts.values()) yield changeLine(put('payout', account, payout.id, payout))
    for (const settlement of tenant.settlements.values()) yield changeLine(put('settlement', account, settlement.id, settlement))
    for (const entry of tenant.whitelist.values()) yield changeLine(put('whitelist', account, entry.id, entry))
    for (const endpoint of tenant.webhooks.values()) yield changeLine(put('webhook', account, endpoint.id, endpoint))
    for (const record of tenant.idempotency.values()) {
      // In-flight requests are not answers yet.
      if (record.state === 'done') yield changeLine(put('idempotency', account, record.scope, record))
    }
    for (const quote of tenant.quotes.values()) yield changeLine(put('quote', account, quote.id, quote))
    const payments = tenant.payments.values()
    const count = payments.length
    if (count === 0) continue
    yield section('payments', account, count)
    for (let i = 0; i < count; i++) yield JSON.stringify(encodeRecord('payment', payments[i]!))
  }
  for (const key of state.keys.values()) yield changeLine(put('key', undefined, key.key, key))
  for (const [id, value] of Object.entries(state.control)) yield changeLine(put('control', undefined, id, value))
  for (const [key, entries] of state.logs) {
    const slash = key.indexOf('/')
    const account = slash === 0 ? undefined : key.slice(0, slash)
    for (let at = 0; at < entries.length; at++) yield changeLine({ op: 'append', log: key.slice(slash + 1), account, at, value: entries[at] })
  }
}

/** Only for accounts whose records were written (one created since has its postings in the journal). */
function* postingsLines(state: State, written: ReadonlySet<string>): Generator<string> {
  for (const account of written) {
    const postings = state.accounts.get(account)?.postings
    if (!postings || postings.size === 0) continue
    const count = postings.size
    yield section('postings', account, count)
    for (let id = 1; id <= count; id++) yield JSON.stringify(transactionLine(transactionToData(postings.transaction(id))))
  }
}

const changeLine = (change: Change) => JSON.stringify(encodeChange(change))
const section = (kind: 'payments' | 'postings', account: string, count: number) => JSON.stringify({ section: kind, account, count })

/**
 * Writes a snapshot of `state` to `path` (through a temporary file and a rename, so the old one
 * stays whole until the new one is), yielding to the event loop between slices of a few milliseconds.
 */
export async function writeSnapshot(path: string, state: State, journal: number, now: string): Promise<{ records: number; bytes: number }> {
  const temporary = `${path}.tmp`
  const file = await open(temporary, 'w')
  let records = 0
  let bytes = 0
  let chunk = `${JSON.stringify({ format: SNAPSHOT_FORMAT, version: SNAPSHOT_VERSION, journal, written_at: now })}\n`
  let sliceStart = performance.now()
  const flush = async () => {
    bytes += (await file.write(chunk)).bytesWritten
    chunk = ''
    sliceStart = performance.now()
  }
  const writeAll = async (lines: Generator<string>) => {
    for (const line of lines) {
      chunk += `${line}\n`
      records++
      // The write's await is the yield: requests run while the chunk goes to disk.
      if ((records & 15) === 0 && performance.now() - sliceStart > SLICE_MS) await flush()
    }
  }
  try {
    const written = new Set<string>()
    await writeAll(recordLines(state, written))
    await flush()
    const postings = bytes
    await writeAll(postingsLines(state, written))
    chunk += `${JSON.stringify({ end: true, records, postings })}\n`
    await flush()
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
