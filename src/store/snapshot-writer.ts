import { open, rename } from 'node:fs/promises'
import { dirname } from 'node:path'
import { put, type Change } from './changes.js'
import { encodeChange, SNAPSHOT_FORMAT, SNAPSHOT_VERSION } from './lines.js'
import { OrderIndex } from './order-index.js'
import { PaymentIndex } from './payment-index.js'
import { SettlementIndex } from './settlement-index.js'
import { PostingsLog } from './postings-log.js'
import { noSections, writePaymentSection, type SnapshotSections } from './payment-sections.js'
import { SnapshotOutput, type Line } from './snapshot-output.js'
import { chunkText } from './columns.js'
import { transactionColumns, TRANSACTIONS_PER_CHUNK } from './transaction-chunks.js'
import type { AccountState } from './account-state.js'
import type { State } from './state.js'

/**
 * The lines of a snapshot (see docs/snapshots.md), header and trailer aside. Records come first,
 * one a line: an account's here, then its payments in a section (`{"section":"payments",…,"count":N}`)
 * of lines of a thousand in columns (payment-sections.ts, payment-chunks.ts); then, from byte
 * `postings` of the trailer on, every account's transactions in sections of their own
 * (postings-region.ts), which a loader reads on another thread.
 *
 * The state may change between two slices (compaction runs while requests go on): a record is
 * always read whole, a section holds what was there when its first line was written, and the journal
 * that starts with the snapshot replays every change made since, so the result is exact.
 */
function* accountLines(account: string, tenant: AccountState): Generator<Line> {
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
}

/** The sandbox-wide records, after every account's. */
function* globalLines(state: State): Generator<Line> {
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
    const last = Math.min(first + TRANSACTIONS_PER_CHUNK - 1, to)
    yield { pieces: chunkText(transactionColumns(last - first + 1, postings.fieldsOf(first, last))), records: last - first + 1 }
  }
}

const changeLine = (change: Change): Line => ({ text: JSON.stringify(encodeChange(change)), records: 1 })
const section = (kind: 'postings', account: string, count: number) => JSON.stringify({ section: kind, account, count })

/**
 * Writes a snapshot of `state` to `path` (through a temporary file and a rename, so the old one
 * stays whole until the new one is), yielding to the event loop between slices of half a millisecond,
 * and leaving it to requests while they come in (`busy`, snapshot-output.ts).
 *
 * What the snapshot on disk holds as it should be (`previous`) is copied from it byte for byte:
 * every account's transactions (they never change), of which only those since are written, and
 * the chunks of payments that were not put again since it began (payment-sections.ts). Answers
 * where the new one holds them.
 */
export async function writeSnapshot(path: string, state: State, journal: number, now: string, previous?: SnapshotSections, busy?: () => boolean): Promise<{ records: number; bytes: number; sections: SnapshotSections }> {
  const temporary = `${path}.tmp`
  const file = await open(temporary, 'w')
  // The snapshot on disk, while it still is (the rename below replaces it).
  const source = previous ? await open(path, 'r').catch(() => undefined) : undefined
  const out = new SnapshotOutput(file, busy)
  const sections = noSections()
  let postingsStart: number
  try {
    out.line({ text: JSON.stringify({ format: SNAPSHOT_FORMAT, version: SNAPSHOT_VERSION, journal, written_at: now }), records: 0 })
    const written: string[] = []
    for (const [account, tenant] of state.accounts) {
      written.push(account)
      await out.write(accountLines(account, tenant))
      await writePaymentSection(out, account, tenant.payments, source && { file: source, sections: previous!.payments }, sections.payments)
    }
    await out.write(globalLines(state))
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
      const before = source && previous!.postings.get(log)
      let from = 1
      if (before && before.count <= count) {
        await out.copy(source!, before.start, before.end, before.count)
        from = before.count + 1
      }
      await out.write(transactionLines(log, from, count))
      await out.flush()
      sections.postings.set(log, { start, end: out.bytes, count })
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
  return { records: out.records, bytes: out.bytes, sections }
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
