import type { FileHandle } from 'node:fs/promises'
import type { PaymentRecord } from '../model/records.js'
import { chunkText } from './columns.js'
import { paymentColumns, PAYMENTS_PER_CHUNK } from './payment-chunks.js'
import type { PaymentIndex } from './payment-index.js'
import type { PostingsSections } from './postings-region.js'
import type { SnapshotOutput } from './snapshot-output.js'

/** A chunk line of a payments section in a snapshot: bytes `[start, end)`, its payments' count, first and last. */
export interface ChunkBytes {
  start: number
  end: number
  count: number
  first: PaymentRecord
  last: PaymentRecord
}

/** Each account's payment chunks in the snapshot on disk, by its index (an account reset or restored gets a new one). */
export type PaymentSections = WeakMap<PaymentIndex, ChunkBytes[]>

/** What the snapshot on disk holds where: the parts a compaction may copy instead of writing them again. */
export interface SnapshotSections {
  postings: PostingsSections
  payments: PaymentSections
}

export const noSections = (): SnapshotSections => ({ postings: new WeakMap(), payments: new WeakMap() })

/**
 * Writes an account's payments section: the section line, then its payments a thousand to a line.
 * A chunk whose payments are the ones the snapshot on disk (`source`) holds in that chunk, none of
 * them put again since that snapshot began, is copied from it byte for byte: a payment changes a
 * few times in its first seconds and then hardly ever, so at a million payments a compaction writes
 * the few dozen chunks of the newest (and copies the rest), where encoding all of them was most of
 * its work, and seconds of the event loop's time, in slices that held up every request meanwhile.
 * Records in `written` where the new snapshot holds each chunk.
 */
export async function writePaymentSection(
  out: SnapshotOutput,
  account: string,
  index: PaymentIndex,
  source: { file: FileHandle; sections: PaymentSections } | undefined,
  written: PaymentSections,
): Promise<void> {
  // Taken first: a change from here on is in the lines written below, or the next snapshot rewrites its chunk.
  const changed = index.changedChunks(PAYMENTS_PER_CHUNK)
  const payments = index.values()
  const count = payments.length
  if (count === 0) return
  out.line({ text: JSON.stringify({ section: 'payments', account, count }), records: 0 })
  const before = changed && source?.sections.get(index)
  const chunks: ChunkBytes[] = []
  /** Chunks to copy, consecutive in the old file: their old places. */
  let run: ChunkBytes[] = []
  const copyRun = async () => {
    if (run.length === 0) return
    await out.flush()
    const shift = out.position - run[0]!.start
    await out.copy(source!.file, run[0]!.start, run.at(-1)!.end, run.reduce((sum, chunk) => sum + chunk.count, 0))
    for (const chunk of run) chunks.push({ ...chunk, start: chunk.start + shift, end: chunk.end + shift })
    run = []
  }
  for (let from = 0, c = 0; from < count; from += PAYMENTS_PER_CHUNK, c++) {
    const to = Math.min(from + PAYMENTS_PER_CHUNK, count)
    const old = before ? before[c] : undefined
    // The same payments (added, never removed: the same first and last are the same chunk), none changed.
    if (old && !changed!.has(c) && old.count === to - from && old.first === payments[from] && old.last === payments[to - 1]) {
      if (run.length > 0 && run.at(-1)!.end !== old.start) await copyRun()
      run.push(old)
      continue
    }
    await copyRun()
    const slice = payments.slice(from, to)
    const start = out.position
    // A column at a time, with yields between, from the payments as they are: one put meanwhile may
    // leave the line with some of its fields from before and some from after. Such a payment is
    // in the journal this snapshot starts (as every change since it began), whose patch sets every
    // field the put changed, and the next compaction writes its chunk anew. Copies of the chunk's
    // payments, held across the yields, were garbage promoted to the old generation.
    await out.write([{ pieces: chunkText(paymentColumns(slice)), records: slice.length }])
    chunks.push({ start, end: out.position, count: slice.length, first: slice[0]!, last: slice.at(-1)! })
  }
  await copyRun()
  written.set(index, chunks)
}
