import { copyFileSync, constants, existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import * as z from 'zod'
import { formatParam } from '../errors.js'
import { firstInconsistency } from '../schemas/data-file-consistency.js'
import { DataSchema, type Data } from '../schemas/data-file.js'
import { readLines, type Line } from './line-reader.js'
import { decodeSnapshotLine, SnapshotTrailerSchema } from './lines.js'
import { damagedLine, describeProblem, StoreLoadError } from './load-error.js'
import type { State } from './state.js'

/** The data file's earlier formats: still read, then written anew in the current one (file-store.ts). */

/** Version 2: one change a line, payments and postings included; migrated on start (file-store.ts). Answers the number of records. */
export async function loadVersion2Snapshot(path: string, state: State): Promise<number> {
  let trailer: Line | undefined
  let records = 0
  for await (const lines of readLines(path)) {
    for (const line of lines) {
      if (line.number === 1) continue
      if (trailer) throw damagedLine(path, line, 'there is a line after the end of the snapshot')
      if (!line.terminated) throw damagedLine(path, line, 'the snapshot ends in the middle of a line')
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
        throw damagedLine(path, line, describeProblem(error))
      }
    }
  }
  if (!trailer) throw new StoreLoadError(`Data file ${path} is damaged: it ends after ${records} records, without the snapshot's last line ({"end":true,…}). Nothing was changed; restore a backup or pass another --data-file.`)
  return records
}

/** The format before the journal: one JSON document (`version: 1`). Read whole (it was written whole), then migrated. */
/** `journal`: the journal the migrated file continues in, which the warning names. */
export async function loadVersion1(path: string, state: State, log: { warn(message: string): void }, journal: string): Promise<void> {
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
  log.warn(`Data file ${path} was in the version 1 format (one JSON document); it is migrated to a snapshot and a journal (${journal}). The original is kept at ${backup}.`)
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
