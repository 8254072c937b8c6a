import { open, rename, type FileHandle } from 'node:fs/promises'
import { dirname } from 'node:path'
import { put, type Change } from './changes.js'
import { encodeChange, SNAPSHOT_FORMAT, SNAPSHOT_VERSION } from './lines.js'
import { OrderIndex } from './order-index.js'
import { PaymentIndex } from './payment-index.js'
import { SettlementIndex } from './settlement-index.js'
import { PostingsLog } from './postings-log.js'
import type { PostingsSections } from './postings-region.js'
import { paymentChunk, PAYMENTS_PER_CHUNK } from './payment-chunks.js'
import { transactionChunk, TRANSACTIONS_PER_CHUNK } from './transaction-chunks.js'
import type { LedgerTransaction } from '../model/postings.js'
import type { AccountState } from './account-state.js'
import type { State } from './state.js'

/** Work between two yields to the event loop (ms): well under the 50 ms a request may be stalled. */
const SLICE_MS = 8
const COPY_BYTES = 1 << 20

/**
 * The lines of a snapshot (see docs/snapshots.md), header and trailer aside. Records come first,
 * one a line, but each account's payments in a section (`{"section":"payments",…,"count":N}`) of
 * lines of a thousand in columns (payment-chunks.ts); then, from byte `postings` of the trailer on,
 * every account's transactions in sections of their own (postings-region.ts), which a loader reads
 * on another thread.
 *
 * The state may change between two slices (compaction runs while requests go on): a record is
 * always read whole, a section holds what was there when its first line was written, and the journal
 * that starts with the snapshot replays every change made since, so the result is exact.
 */
function* recordLines(state: State, written: Set<string>): Generator<Line> {
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
    yield { text: section('payments', account, count), records: 0 }
    for (let from = 0; from < count; from += PAYMENTS_PER_CHUNK) {
      const chunk = payments.slice(from, Math.min(from + PAYMENTS_PER_CHUNK, count))
      yield { text: JSON.stringify(paymentChunk(chunk)), records: chunk.length }
    }
  }
  for (const key of state.keys.values()) yield changeLine(put('key', undefined, key.key, key))
  for (const [id, value] of Object.entries(state.control)) yield changeLine(put('control', undefined, id, value))
  for (const [key, entries] of state.logs) {
    const slash = key.indexOf('/')
    const account = slash === 0 ? undefined : key.slice(0, slash)
    for (let at = 0; at < entries.length; at++) yield changeLine({ op: 'append', log: key.slice(slash + 1), account, at, value: entries[at] })
  }
}

function* transactionLines(postings: PostingsLog, from: number, to: number): Generator<Line> {
  for (let first = from; first <= to; first += TRANSACTIONS_PER_CHUNK) {
    const transactions: LedgerTransaction[] = []
    for (let id = first; id <= Math.min(first + TRANSACTIONS_PER_CHUNK - 1, to); id++) transactions.push(postings.transaction(id))
    yield { text: JSON.stringify(transactionChunk(transactions)), records: transactions.length }
  }
}

/** A line of the snapshot, and how many records it holds (a section's first line: none). */
interface Line {
  text: string
  records: number
}

const changeLine = (change: Change): Line => ({ text: JSON.stringify(encodeChange(change)), records: 1 })
const section = (kind: 'payments' | 'postings', account: string, count: number) => JSON.stringify({ section: kind, account, count })

/** The snapshot file being written: lines gathered into chunks, each chunk's write a yield to the event loop. */
class SnapshotOutput {
  records = 0
  lines = 0
  bytes = 0
  private chunk = ''
  private sliceStart = performance.now()

  constructor(private readonly file: FileHandle) {}

  line({ text, records }: Line): void {
    this.chunk += `${text}\n`
    this.records += records
    this.lines++
  }

  async write(lines: Iterable<Line>): Promise<void> {
    for (const line of lines) {
      this.line(line)
      // A line may hold a thousand records: the clock is read after each.
      if (performance.now() - this.sliceStart > SLICE_MS) await this.flush()
    }
  }

  async flush(): Promise<void> {
    if (this.chunk.length > 0) this.bytes += (await this.file.write(this.chunk)).bytesWritten
    this.chunk = ''
    this.sliceStart = performance.now()
  }

  /** Lines that another file holds as they should be, at bytes `[start, end)`, with `records` records. */
  async copy(from: FileHandle, start: number, end: number, records: number): Promise<void> {
    await this.flush()
    const buffer = Buffer.allocUnsafe(Math.min(COPY_BYTES, end - start))
    for (let position = start; position < end; ) {
      const { bytesRead } = await from.read(buffer, 0, Math.min(buffer.length, end - position), position)
      if (bytesRead === 0) throw new Error(`the previous snapshot ends at byte ${position}, before ${end}`)
      this.bytes += (await this.file.write(buffer, 0, bytesRead)).bytesWritten
      position += bytesRead
    }
    this.records += records
  }
}

/**
 * Writes a snapshot of `state` to `path` (through a temporary file and a rename, so the old one
 * stays whole until the new one is), yielding to the event loop between slices of a few milliseconds.
 *
 * Transactions never change, so an account's log that the snapshot on disk holds (`previous`) is
 * copied from it byte for byte, and only the transactions since are written: the postings region is
 * a third of a snapshot and half of what writing one costs. Answers where the new one holds them.
 */
export async function writeSnapshot(path: string, state: State, journal: number, now: string, previous?: PostingsSections): Promise<{ records: number; bytes: number; postings: PostingsSections }> {
  const temporary = `${path}.tmp`
  const file = await open(temporary, 'w')
  // The snapshot on disk, while it still is (the rename below replaces it).
  const source = previous ? await open(path, 'r').catch(() => undefined) : undefined
  const out = new SnapshotOutput(file)
  const postings: PostingsSections = new WeakMap()
  let postingsStart: number
  try {
    out.line({ text: JSON.stringify({ format: SNAPSHOT_FORMAT, version: SNAPSHOT_VERSION, journal, written_at: now }), records: 0 })
    const written = new Set<string>()
    await out.write(recordLines(state, written))
    await out.flush()
    postingsStart = out.bytes
    // Only for accounts whose records were written (one created since has its postings in the journal).
    for (const account of written) {
      const log = state.accounts.get(account)?.postings
      if (!log || log.size === 0) continue
      const count = log.size
      out.line({ text: section('postings', account, count), records: 0 })
      await out.flush()
      const start = out.bytes
      const before = source && previous!.get(log)
      let from = 1
      if (before && before.count <= count) {
        await out.copy(source!, before.start, before.end, before.count)
        from = before.count + 1
      }
      await out.write(transactionLines(log, from, count))
      await out.flush()
      postings.set(log, { start, end: out.bytes, count })
    }
    out.line({ text: JSON.stringify({ end: true, records: out.records, postings: postingsStart }), records: 0 })
    await out.flush()
    await file.sync()
  } finally {
    await file.close()
    await source?.close()
  }
  // Not the synchronous calls: on a busy disk a rename or a directory's fsync can hold the event loop for long.
  await rename(temporary, path)
  await syncDirectory(dirname(path))
  return { records: out.records, bytes: out.bytes, postings }
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
