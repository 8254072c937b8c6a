import { copyFileSync, constants, existsSync, readdirSync, statSync, truncateSync, unlinkSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import * as z from 'zod'
import { formatParam } from '../errors.js'
import { restoreRng } from '../rng.js'
import { firstInconsistency } from '../schemas/data-file-consistency.js'
import { DataSchema, type Data } from '../schemas/data-file.js'
import { readLines, type Line } from './line-reader.js'
import { decodeJournalLine, decodeSnapshotLine, SnapshotHeaderSchema, SnapshotTrailerSchema } from './lines.js'
import { StoreLoadError } from './load-error.js'
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
export async function loadDataFile(path: string, state: State, log: LoadLog): Promise<LoadResult> {
  const journals = listJournals(path)
  const size = existsSync(path) ? statSync(path).size : undefined
  if (!size) {
    if (journals.length > 0) {
      throw new StoreLoadError(`Data file ${path} is ${size === 0 ? 'empty' : 'missing'} but its journal ${journals[0]!.file} exists; restore the snapshot file or remove the journal. Nothing was changed.`)
    }
    return { loaded: false, journal: 1, needsSnapshot: true, seq: 0, obsolete: [] }
  }
  const header = await readHeader(path)
  if (!header) {
    await loadVersion1(path, state, log)
    return { loaded: true, journal: 1, needsSnapshot: true, seq: 0, obsolete: journals.map((j) => j.file) }
  }
  await loadSnapshot(path, state)
  const current = journals.filter((j) => j.generation >= header.journal)
  let seq = 0
  for (const [index, journal] of current.entries()) seq = await replayJournal(journal.file, state, log, index === current.length - 1, seq)
  return {
    loaded: true,
    seq,
    journal: current.at(-1)?.generation ?? header.journal,
    needsSnapshot: false,
    obsolete: journals.filter((j) => j.generation < header.journal).map((j) => j.file),
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

function damaged(file: string, line: Line, problem: string): StoreLoadError {
  return new StoreLoadError(
    `Data file ${file} is damaged at line ${line.number} (byte offset ${line.offset}): ${problem}. Nothing was changed; repair or remove that line (or restore a backup), or pass another --data-file.`,
  )
}

function describe(error: unknown): string {
  if (error instanceof z.ZodError) {
    const issue = error.issues[0]!
    return `${issue.path.length > 0 ? `${formatParam(issue.path as Array<string | number>)}: ` : ''}${issue.message}`
  }
  return error instanceof SyntaxError ? `not valid JSON (${error.message})` : (error as Error).message
}

async function loadSnapshot(path: string, state: State): Promise<void> {
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
}

/** Answers the number of the last change set read. */
async function replayJournal(file: string, state: State, log: LoadLog, last: boolean, previousSeq: number): Promise<number> {
  let previous = previousSeq
  for await (const lines of readLines(file)) {
    for (const line of lines) {
      if (!line.terminated && last) {
        // Only a crash in the middle of the very last write leaves this; that change was never acknowledged as durable.
        log.warn(`Data file ${file}: dropped a torn last line (line ${line.number}, byte offset ${line.offset}, ${Buffer.byteLength(line.text)} bytes), left by a write cut short; the file now ends before it.`)
        truncateSync(file, line.offset)
        return previous
      }
      try {
        const entry = decodeJournalLine(JSON.parse(line.text))
        if (entry.seq <= previous) throw new Error(`change ${entry.seq} follows change ${previous}; the journal is out of order`)
        previous = entry.seq
        state.apply(entry.changes, true)
        for (const [id, rng] of Object.entries(entry.rng)) {
          const account = state.accounts.get(id)
          if (account) account.rng = restoreRng(rng)
        }
      } catch (error) {
        throw damaged(file, line, describe(error))
      }
    }
  }
  return previous
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
