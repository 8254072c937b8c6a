import { copyFileSync, constants, existsSync, readdirSync, statSync, truncateSync, unlinkSync } from 'node:fs'
import { open, readFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import * as z from 'zod'
import { formatParam } from '../errors.js'
import { restoreRng } from '../rng.js'
import { firstInconsistency } from '../schemas/data-file-consistency.js'
import { DataSchema, type Data } from '../schemas/data-file.js'
import { lookupIn, resolvePatches } from './journal-patches.js'
import { readLines, type Line } from './line-reader.js'
import { decodeJournalLine, decodeSnapshotLine, SnapshotHeaderSchema, SnapshotTrailerSchema } from './lines.js'
import { damagedLine, describeProblem, StoreLoadError } from './load-error.js'
import { readPaymentChunk } from './payment-chunks.js'
import type { PaymentIndex } from './payment-index.js'
import { loadPostingsRegion } from './postings-loader.js'
import { RegionError, type PostingsSections } from './postings-region.js'
import { ChangeError, type State } from './state.js'

export interface LoadResult {
  /** False for a missing or empty data file: the caller seeds the fixtures. */
  loaded: boolean
  /** Journal generation to append to; the snapshot to write, for a new or migrated file. */
  journal: number
  needsSnapshot: boolean
  /** Number of the last change set read; the next one continues from it. */
  seq: number
  /** Journal files older than the snapshot, left by an interrupted compaction; delete once open. */
  obsolete: string[]
  /** The snapshot's format version, when it is older than the one written now (the caller migrates it). */
  olderVersion?: number
  /** The journals that were replayed over the snapshot, oldest first. */
  replayed: string[]
  /** Where the snapshot holds each log's transactions. */
  postings: PostingsSections
  /** Records in the snapshot, and change sets replayed over it: what decides the next compaction. */
  snapshotRecords: number
  journalLines: number
}

export interface LoadLog {
  warn(message: string): void
}

export const journalPath = (dataFile: string, generation: number) => `${dataFile}.journal.${generation}`

/**
 * Reads `<data file>` (the snapshot) and its journals into `state`, line by line. A torn last
 * journal line (a write cut short by a crash) is dropped with a warning; damage anywhere else
 * refuses start-up naming the file, the line and its byte offset, and changes no file.
 */
export async function loadDataFile(path: string, state: State, log: LoadLog, postingsWorker?: string): Promise<LoadResult> {
  const journals = listJournals(path)
  const size = existsSync(path) ? statSync(path).size : undefined
  if (!size) {
    if (journals.length > 0) {
      throw new StoreLoadError(`Data file ${path} is ${size === 0 ? 'empty' : 'missing'} but its journal ${journals[0]!.file} exists; restore the snapshot file or remove the journal. Nothing was changed.`)
    }
    return { loaded: false, journal: 1, needsSnapshot: true, seq: 0, obsolete: [], replayed: [], postings: new WeakMap(), snapshotRecords: 0, journalLines: 0 }
  }
  const header = await readHeader(path)
  if (!header) {
    await loadVersion1(path, state, log)
    return { loaded: true, journal: 1, needsSnapshot: true, seq: 0, obsolete: journals.map((j) => j.file), replayed: [], postings: new WeakMap(), snapshotRecords: 0, journalLines: 0 }
  }
  const postings: PostingsSections = new WeakMap()
  const snapshotRecords = header.version === 2 ? await loadVersion2Snapshot(path, state) : await loadSnapshot(path, state, postingsWorker, postings)
  const current = journals.filter((j) => j.generation >= header.journal)
  let seq = 0
  let journalLines = 0
  for (const [index, journal] of current.entries()) {
    const replayed = await replayJournal(journal.file, state, log, index === current.length - 1, seq)
    seq = replayed.seq
    journalLines += replayed.lines
  }
  // The payments' lists by filter, built once the journal's changes are in too (PaymentIndex.load).
  for (const account of state.accounts.values()) account.payments.loaded()
  return {
    loaded: true,
    seq,
    journal: current.at(-1)?.generation ?? header.journal,
    needsSnapshot: false,
    obsolete: journals.filter((j) => j.generation < header.journal).map((j) => j.file),
    replayed: current.map((j) => j.file),
    postings,
    snapshotRecords,
    journalLines,
    ...(header.version === 2 ? { olderVersion: 2 } : {}),
  }
}

function listJournals(path: string): Array<{ file: string; generation: number }> {
  const prefix = `${basename(path)}.journal.`
  const directory = dirname(path)
  if (!existsSync(directory)) return []
  return readdirSync(directory)
    .filter((name) => name.startsWith(prefix) && /^\d+$/.test(name.slice(prefix.length)))
    .map((name) => ({ file: join(directory, name), generation: Number(name.slice(prefix.length)) }))
    .sort((a, b) => a.generation - b.generation)
}

async function readHeader(path: string): Promise<z.infer<typeof SnapshotHeaderSchema> | undefined> {
  for await (const [line] of readLines(path)) {
    try {
      return SnapshotHeaderSchema.safeParse(JSON.parse(line!.text)).data
    } catch {
      return undefined
    }
  }
  return undefined
}

const damaged = damagedLine
const describe = describeProblem

/**
 * A snapshot of the current version: the trailer first (it says where the postings region starts),
 * then the postings region on another thread while this one reads the records before it.
 */
/** Answers the number of records. */
async function loadSnapshot(path: string, state: State, postingsWorker: string | undefined, sections: PostingsSections): Promise<number> {
  const trailer = await readTrailer(path)
  const postings = loadPostingsRegion(path, trailer.postings, trailer.offset, postingsWorker)
  // Awaited below, once the records are in; a refusal before that is not left unhandled meanwhile.
  postings.result.catch(() => {})
  let records: { lines: number; records: number }
  try {
    records = await loadRecordRegion(path, state, trailer.postings)
  } catch (error) {
    postings.cancel()
    throw error
  }
  let region
  try {
    region = await postings.result
  } catch (error) {
    if (error instanceof RegionError) throw damaged(path, { number: records.lines + error.where.line, offset: error.where.offset }, error.where.problem)
    throw new StoreLoadError(`Data file ${path} could not be read: ${(error as Error).message}. Nothing was changed.`)
  }
  for (const [account, log] of region.logs) {
    const tenant = state.accounts.get(account)
    if (!tenant) throw new StoreLoadError(`Data file ${path} is damaged: it holds postings for account '${account}', which it does not hold. Nothing was changed; restore a backup or pass another --data-file.`)
    tenant.postings = log
    sections.set(log, region.sections.get(account)!)
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
async function loadRecordRegion(path: string, state: State, end: number): Promise<{ lines: number; records: number }> {
  let lines = 0
  let records = 0
  let section: { account: string; payments: PaymentIndex; left: number } | undefined
  const sections = new Set<string>()
  for await (const batch of readLines(path, 0, 1 << 20, end)) {
    for (const line of batch) {
      lines = line.number
      if (line.number === 1) continue
      // The last line before the region ends where the region starts.
      if (!line.terminated) throw damaged(path, line, 'the line ends where the postings region starts (the trailer\'s "postings" is not the start of a line)')
      try {
        const value: unknown = JSON.parse(line.text)
        if (section) {
          const payments = readPaymentChunk(value, section.left)
          for (const payment of payments) if (!section.payments.load(payment)) throw new ChangeError(`payment '${payment.id}' is in the snapshot twice`)
          records += payments.length
          section.left -= payments.length
          if (section.left === 0) section = undefined
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
        if (header.count > 0) section = { account: header.account, payments: account.payments, left: header.count }
      } catch (error) {
        throw damaged(path, line, describe(error))
      }
    }
  }
  if (section) throw damaged(path, { number: lines + 1, offset: end }, `the payments section of account '${section.account}' ends ${section.left} payments short of its count`)
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

/** Version 2: one change a line, payments and postings included; migrated on start (file-store.ts). Answers the number of records. */
async function loadVersion2Snapshot(path: string, state: State): Promise<number> {
  let trailer: Line | undefined
  let records = 0
  for await (const lines of readLines(path)) {
    for (const line of lines) {
      if (line.number === 1) continue
      if (trailer) throw damaged(path, line, 'there is a line after the end of the snapshot')
      if (!line.terminated) throw damaged(path, line, 'the snapshot ends in the middle of a line')
      try {
        const value: unknown = JSON.parse(line.text)
        if (value !== null && typeof value === 'object' && 'end' in value) {
          const end = SnapshotTrailerSchema.parse(value)
          if (end.records !== records) throw new Error(`the snapshot announces ${end.records} records but holds ${records}`)
          trailer = line
          continue
        }
        state.load(decodeSnapshotLine(value))
        records++
      } catch (error) {
        throw damaged(path, line, describe(error))
      }
    }
  }
  if (!trailer) throw new StoreLoadError(`Data file ${path} is damaged: it ends after ${records} records, without the snapshot's last line ({"end":true,…}). Nothing was changed; restore a backup or pass another --data-file.`)
  return records
}

/** Answers the number of the last change set read, and how many lines were. */
async function replayJournal(file: string, state: State, log: LoadLog, last: boolean, previousSeq: number): Promise<{ seq: number; lines: number }> {
  let previous = previousSeq
  let replayed = 0
  const lookup = lookupIn(state.accounts)
  for await (const lines of readLines(file)) {
    for (const line of lines) {
      if (!line.terminated && last) {
        // Only a crash in the middle of the very last write leaves this; that change was never acknowledged as durable.
        log.warn(`Data file ${file}: dropped a torn last line (line ${line.number}, byte offset ${line.offset}, ${Buffer.byteLength(line.text)} bytes), left by a write cut short; the file now ends before it.`)
        truncateSync(file, line.offset)
        return { seq: previous, lines: replayed }
      }
      try {
        const entry = decodeJournalLine(JSON.parse(line.text))
        if (entry.seq <= previous) throw new Error(`change ${entry.seq} follows change ${previous}; the journal is out of order`)
        previous = entry.seq
        state.apply(resolvePatches(entry.changes, lookup), true)
        replayed++
        for (const [id, rng] of Object.entries(entry.rng)) {
          const account = state.accounts.get(id)
          if (account) account.rng = restoreRng(rng)
        }
      } catch (error) {
        throw damaged(file, line, describe(error))
      }
    }
  }
  return { seq: previous, lines: replayed }
}

/** The format before the journal: one JSON document (`version: 1`). Read whole (it was written whole), then migrated. */
async function loadVersion1(path: string, state: State, log: LoadLog): Promise<void> {
  let raw: unknown
  try {
    raw = JSON.parse(await readFile(path, 'utf8'))
  } catch (error) {
    const reason = error instanceof SyntaxError ? `it is not valid JSON (${error.message})` : `it cannot be read (${(error as Error).message})`
    throw new StoreLoadError(`Data file ${path}: ${reason}. The file was left untouched; fix it or pass another --data-file.`)
  }
  const data = parseVersion1(path, raw)
  state.replace(data)
  const backup = backupPath(path)
  copyFileSync(path, backup, constants.COPYFILE_EXCL)
  log.warn(`Data file ${path} was in the version 1 format (one JSON document); it is migrated to a snapshot and a journal (${journalPath(path, 1)}). The original is kept at ${backup}.`)
}

function parseVersion1(path: string, raw: unknown): Data {
  // JSON of the wrong kind says what it is, rather than a schema error about the root.
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    const kind = raw === null ? 'null' : Array.isArray(raw) ? 'an array' : `a ${typeof raw}`
    throw new StoreLoadError(`Data file ${path} holds ${kind} where a ledger object ({"version": 1, "accounts": [...], "keys": [...]}) is expected. The file was left untouched; fix it or pass another --data-file.`)
  }
  const parsed = DataSchema.safeParse(raw)
  if (!parsed.success) {
    throw new StoreLoadError(
      `Data file ${path} does not match the ledger's schema:\n${z.prettifyError(parsed.error)}\nThe file was left untouched; fix it or pass another --data-file.`,
    )
  }
  const inconsistency = firstInconsistency(parsed.data)
  if (inconsistency) throw new StoreLoadError(`Data file ${path} is inconsistent at ${formatParam(inconsistency.path)}: ${inconsistency.problem}. The file was left untouched; fix it or pass another --data-file.`)
  return parsed.data
}

function backupPath(path: string): string {
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? `${path}.v1-backup` : `${path}.v1-backup.${n}`
    if (!existsSync(candidate)) return candidate
  }
}

export function removeObsolete(files: string[]): void {
  for (const file of files) unlinkSync(file)
}
