import { existsSync, readdirSync, statSync, truncateSync, unlinkSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import type * as z from 'zod'
import { restoreRng } from '../rng.js'
import { lookupIn, resolvePatches } from './journal-patches.js'
import { readLines } from './line-reader.js'
import { decodeJournalLine, SnapshotHeaderSchema } from './lines.js'
import { damagedLine, describeProblem, StoreLoadError } from './load-error.js'
import { loadVersion1, loadVersion2Snapshot } from './older-formats.js'
import { noSections, type SnapshotSections } from './payment-sections.js'
import { loadSnapshot } from './snapshot-loader.js'
import type { State } from './state.js'

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
  /** Where the snapshot holds each log's transactions and each account's payment chunks. */
  sections: SnapshotSections
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
    return { loaded: false, journal: 1, needsSnapshot: true, seq: 0, obsolete: [], replayed: [], sections: noSections(), snapshotRecords: 0, journalLines: 0 }
  }
  const header = await readHeader(path)
  if (!header) {
    await loadVersion1(path, state, log, journalPath(path, 1))
    return { loaded: true, journal: 1, needsSnapshot: true, seq: 0, obsolete: journals.map((j) => j.file), replayed: [], sections: noSections(), snapshotRecords: 0, journalLines: 0 }
  }
  const sections = noSections()
  const snapshotRecords = header.version === 2 ? await loadVersion2Snapshot(path, state) : await loadSnapshot(path, state, postingsWorker, sections)
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
    sections,
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
        throw damagedLine(file, line, describeProblem(error))
      }
    }
  }
  return { seq: previous, lines: replayed }
}

export function removeObsolete(files: string[]): void {
  for (const file of files) unlinkSync(file)
}
