import { open } from 'node:fs/promises'
import { readLines } from './line-reader.js'
import { decodeSnapshotLine, SnapshotTrailerSchema } from './lines.js'
import { damagedLine, describeProblem, StoreLoadError } from './load-error.js'
import { readPaymentChunk } from './payment-chunks.js'
import type { PaymentIndex } from './payment-index.js'
import { loadPostingsRegion } from './postings-loader.js'
import { RegionError } from './postings-region.js'
import { PAYMENTS_PER_CHUNK } from './payment-chunks.js'
import type { ChunkBytes, SnapshotSections } from './payment-sections.js'
import { ChangeError, type State } from './state.js'

/**
 * Reads a snapshot of the current version (docs/snapshots.md) into `state`: the trailer first (it
 * says where the postings region starts), then the postings region on another thread while this one
 * reads the records before it; `sections` learns where each log's transactions are. Answers the
 * number of records. Throws a StoreLoadError naming the file and the line of any damage.
 */
export async function loadSnapshot(path: string, state: State, postingsWorker: string | undefined, sections: SnapshotSections): Promise<number> {
  const trailer = await readTrailer(path)
  const postings = loadPostingsRegion(path, trailer.postings, trailer.offset, postingsWorker)
  // Awaited below, once the records are in; a refusal before that is not left unhandled meanwhile.
  postings.result.catch(() => {})
  let records: { lines: number; records: number }
  try {
    records = await loadRecordRegion(path, state, trailer.postings, sections)
  } catch (error) {
    postings.cancel()
    throw error
  }
  let region
  try {
    region = await postings.result
  } catch (error) {
    if (error instanceof RegionError) throw damagedLine(path, { number: records.lines + error.where.line, offset: error.where.offset }, error.where.problem)
    throw new StoreLoadError(`Data file ${path} could not be read: ${(error as Error).message}. Nothing was changed.`)
  }
  for (const [account, log] of region.logs) {
    const tenant = state.accounts.get(account)
    if (!tenant) throw new StoreLoadError(`Data file ${path} is damaged: it holds postings for account '${account}', which it does not hold. Nothing was changed; restore a backup or pass another --data-file.`)
    tenant.postings = log
    sections.postings.set(log, region.sections.get(account)!)
  }
  if (records.records + region.records !== trailer.records) {
    throw new StoreLoadError(`Data file ${path} is damaged: its last line announces ${trailer.records} records, but it holds ${records.records + region.records}. Nothing was changed; restore a backup or pass another --data-file.`)
  }
  return trailer.records
}

/** The snapshot's last line, `{"end":true,"records":N,"postings":P}`, and its byte offset. */
async function readTrailer(path: string): Promise<{ records: number; postings: number; offset: number }> {
  const cutShort = new StoreLoadError(
    `Data file ${path} is damaged: it does not end with the snapshot's last line ({"end":true,…}); it was cut short or changed. Nothing was changed; restore a backup or pass another --data-file.`,
  )
  const file = await open(path, 'r')
  try {
    const { size } = await file.stat()
    const length = Math.min(size, 4096)
    const { buffer } = await file.read(Buffer.alloc(length), 0, length, size - length)
    if (buffer[length - 1] !== 0x0a) throw cutShort
    const start = buffer.lastIndexOf(0x0a, length - 2) + 1
    if (start === 0 && length < size) throw cutShort
    const parsed = SnapshotTrailerSchema.safeParse(parseOrUndefined(buffer.toString('utf8', start, length - 1)))
    const offset = size - length + start
    if (!parsed.success || parsed.data.postings === undefined || parsed.data.postings > offset) throw cutShort
    return { records: parsed.data.records, postings: parsed.data.postings, offset }
  } finally {
    await file.close()
  }
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** Everything before the postings region: the header, record lines, and each account's payments section. Answers the lines and the records read. */
async function loadRecordRegion(path: string, state: State, end: number, places: SnapshotSections): Promise<{ lines: number; records: number }> {
  let lines = 0
  let records = 0
  let section: { account: string; payments: PaymentIndex; left: number; chunks: ChunkBytes[] } | undefined
  const sections = new Set<string>()
  for await (const batch of readLines(path, 0, 1 << 20, end)) {
    for (const line of batch) {
      lines = line.number
      if (line.number === 1) continue
      // The last line before the region ends where the region starts.
      if (!line.terminated) throw damagedLine(path, line, 'the line ends where the postings region starts (the trailer\'s "postings" is not the start of a line)')
      try {
        const value: unknown = JSON.parse(line.text)
        if (section) {
          const payments = readPaymentChunk(value, section.left)
          for (const payment of payments) if (!section.payments.load(payment)) throw new ChangeError(`payment '${payment.id}' is in the snapshot twice`)
          records += payments.length
          section.left -= payments.length
          // Where the chunk is, for the next compaction to copy it (payment-sections.ts).
          section.chunks.push({ start: line.offset, end: line.offset + line.bytes + 1, count: payments.length, first: payments[0]!, last: payments.at(-1)! })
          if (section.left === 0) {
            places.payments.set(section.payments, section.chunks)
            // Changes replayed from the journal from here on mark their chunks.
            section.payments.changedChunks(PAYMENTS_PER_CHUNK)
            section = undefined
          }
          continue
        }
        const header = paymentsSection(value)
        if (!header) {
          state.load(decodeSnapshotLine(value))
          records++
          continue
        }
        const account = state.accounts.get(header.account)
        if (!account) throw new ChangeError(`no account '${header.account}'`)
        if (sections.has(header.account)) throw new ChangeError(`a second payments section for account '${header.account}'`)
        sections.add(header.account)
        if (header.count > 0) section = { account: header.account, payments: account.payments, left: header.count, chunks: [] }
      } catch (error) {
        throw damagedLine(path, line, describeProblem(error))
      }
    }
  }
  if (section) throw damagedLine(path, { number: lines + 1, offset: end }, `the payments section of account '${section.account}' ends ${section.left} payments short of its count`)
  return { lines, records }
}

/** A payments section line, or undefined for any other line; a section line that does not fit throws. */
function paymentsSection(value: unknown): { account: string; count: number } | undefined {
  if (value === null || typeof value !== 'object' || !('section' in value)) return undefined
  const section = value as Record<string, unknown>
  const fits = section.section === 'payments' && typeof section.account === 'string' && Number.isInteger(section.count) && (section.count as number) >= 0 && Object.keys(section).length === 3
  if (!fits) throw new Error(`expected a payments section line ({"section":"payments","account":"acct_…","count":N})${section.section === 'postings' ? '; postings sections belong after the records, from the trailer\'s "postings" offset on' : ''}`)
  return section as { account: string; count: number }
}
