import * as z from 'zod'
import type { RngState } from '../rng.js'
import { POSTINGS_LOG, type Change, type ChangeSet, type RecordKind } from './changes.js'
import { decodeRecord, encodeRecord, RECORD_KINDS } from './codec.js'
import { DataSchema, TransactionDataSchema, TransactionLineSchema, type TransactionData, type TransactionLine } from '../schemas/data-file.js'
import { isTransactionData, isTransactionLine } from './plain-checks.js'
import { transactionFromLine, transactionLine } from './short-forms.js'
import { journalEntry, type PostedTransaction } from './postings-data.js'
import type { Patch } from './journal-patches.js'

/**
 * The two line formats of the data file. A journal line is one change set:
 * `{"seq":12,"changes":[{"put":"payment","account":"acct_…","id":"pay_…","value":{…}}],"rng":{"acct_…":[…]}}`.
 * A snapshot line is one change of its own (`{"put":"wallet",…}`), between a header and a trailer.
 */
const kind = z.enum(RECORD_KINDS as [RecordKind, ...RecordKind[]])
const account = z.string().optional()
const ChangeLineSchema = z.union([
  z.object({ put: kind, account, id: z.string(), value: z.unknown() }).strict(),
  z.object({ delete: kind, account, id: z.string() }).strict(),
  z.object({ append: z.string(), account, at: z.number().int().min(0), value: z.unknown() }).strict(),
  z.object({ replace: z.unknown() }).strict(),
])
type ChangeLine = z.infer<typeof ChangeLineSchema>
/** Journal lines only (journal-patches.ts). */
const PatchLineSchema = z
  .object({ patch: z.enum(['wallet', 'payment', 'order']), account: z.string(), id: z.string(), value: z.record(z.string(), z.unknown()), append: z.record(z.string(), z.object({ at: z.number().int().min(0), entries: z.array(z.unknown()) }).strict()).optional() })
  .strict()

const RngSchema = z.tuple([z.number(), z.number(), z.number(), z.number()])
const JournalLineSchema = z.object({ seq: z.number().int().min(1), changes: z.array(z.union([ChangeLineSchema, PatchLineSchema])), rng: z.record(z.string(), RngSchema).optional() }).strict()

export const SNAPSHOT_FORMAT = 'wallet-sandbox/snapshot'
/** 3: payments and postings in sections of short lines, postings last (docs/snapshots.md); 2 (a line per change) still loads. */
export const SNAPSHOT_VERSION = 3
export const SnapshotHeaderSchema = z.object({ format: z.literal(SNAPSHOT_FORMAT), version: z.union([z.literal(2), z.literal(SNAPSHOT_VERSION)]), journal: z.number().int().min(1), written_at: z.string() })
/** `postings` (version 3): the byte offset where the postings region starts. */
export const SnapshotTrailerSchema = z.object({ end: z.literal(true), records: z.number().int().min(0), postings: z.number().int().min(0).optional() }).strict()

/** Undefined for changes that are never written: an idempotency record still in flight is not an answer yet. */
export function encodeChange(change: Change): ChangeLine | undefined {
  switch (change.op) {
    case 'put':
      if (change.kind === 'idempotency' && (change.value as { state: string }).state !== 'done') return undefined
      return { put: change.kind, account: change.account, id: change.id, value: encodeRecord(change.kind, change.value) }
    case 'delete':
      return { delete: change.kind, account: change.account, id: change.id }
    case 'append':
      return { append: change.log, account: change.account, at: change.at, value: change.log === POSTINGS_LOG ? transactionLine(journalEntry(change.value as PostedTransaction | TransactionData)) : change.value }
    case 'replace':
      return { replace: change.value }
  }
}

/**
 * A posting read back is checked like one in a data file: a damaged line is refused with its
 * position. There is one per payment and more, so a plain check comes first and zod runs only when
 * it fails, to name the problem. Written as a tuple (short-forms.ts); files of earlier versions hold objects.
 */
function decodeLogEntry(log: string, value: unknown): unknown {
  if (log !== POSTINGS_LOG) return value
  if (Array.isArray(value)) return transactionFromLine((isTransactionLine(value) ? value : TransactionLineSchema.parse(value)) as TransactionLine)
  return isTransactionData(value) ? value : TransactionDataSchema.parse(value)
}

export function decodeChange(line: ChangeLine): Change {
  if ('put' in line) return { op: 'put', kind: line.put, account: line.account, id: line.id, value: decodeRecord(line.put, line.value) }
  if ('delete' in line) return { op: 'delete', kind: line.delete, account: line.account, id: line.id }
  if ('append' in line) return { op: 'append', log: line.append, account: line.account, at: line.at, value: decodeLogEntry(line.append, line.value) }
  return { op: 'replace', value: DataSchema.parse(line.replace) }
}

const KINDS: ReadonlySet<unknown> = new Set(RECORD_KINDS)

/** A snapshot line; a plain `put` or `append` (all of them, unless damaged) skips the union's parse, which is most of the cost. */
export function decodeSnapshotLine(value: unknown): Change {
  return decodeChange((isPlainChange(value) ? value : ChangeLineSchema.parse(value)) as ChangeLine)
}

/**
 * The journal line of a change set, newline included; undefined when nothing in it is kept.
 * `patches` (from `patchesOf`, taken before the set was applied) says which puts to write as patches.
 */
export function encodeJournalLine(seq: number, changes: ChangeSet, rng: Record<string, RngState>, patches?: ReadonlyArray<Patch | 'unchanged' | undefined>): string | undefined {
  const lines = changes.flatMap((change, index) => {
    const patch = patches?.[index]
    if (patch === 'unchanged') return []
    return patch ?? encodeChange(change) ?? []
  })
  if (lines.length === 0) return undefined
  for (const _ in rng) return `${JSON.stringify({ seq, changes: lines, rng })}\n`
  return `${JSON.stringify({ seq, changes: lines })}\n`
}

/** A line of no changes that moves the accounts' generators on (a clean stop's last line). */
export const encodeGeneratorsLine = (seq: number, rng: Record<string, RngState>): string => `${JSON.stringify({ seq, changes: [], rng })}\n`

/**
 * A journal line. One that holds only plain puts, patches and appends (nearly all) is checked
 * without the schema's union parse, which was most of the cost of replaying a journal; anything
 * else, or anything that does not fit, goes through the schema, which names the problem. Patches
 * come back as they are: `resolvePatches` turns them into puts against the state.
 */
export function decodeJournalLine(value: unknown): { seq: number; changes: Array<Change | Patch>; rng: Record<string, RngState> } {
  const line = (isPlainJournalLine(value) ? value : JournalLineSchema.parse(value)) as z.infer<typeof JournalLineSchema>
  return { seq: line.seq, changes: line.changes.map((change) => ('patch' in change ? change : decodeChange(change))), rng: (line.rng ?? {}) as Record<string, RngState> }
}

function isPlainJournalLine(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false
  const line = value as Record<string, unknown>
  if (!Number.isInteger(line.seq) || (line.seq as number) < 1 || !Array.isArray(line.changes)) return false
  for (const key in line) if (key !== 'seq' && key !== 'changes' && key !== 'rng') return false
  if (line.rng !== undefined && !isRngStates(line.rng)) return false
  return line.changes.every((change) => isPlainChange(change) || isPlainPatch(change))
}

/** What PatchLineSchema accepts. */
function isPlainPatch(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false
  const patch = value as Record<string, unknown>
  let keys = 0
  for (const key in patch) {
    keys++
    if (key !== 'patch' && key !== 'account' && key !== 'id' && key !== 'value' && key !== 'append') return false
  }
  const isRecord = (field: unknown): field is Record<string, unknown> => field !== null && typeof field === 'object' && !Array.isArray(field)
  const { append } = patch
  if (append !== undefined && !(isRecord(append) && Object.values(append).every(isListTail))) return false
  return keys === (append === undefined ? 4 : 5) && (patch.patch === 'wallet' || patch.patch === 'payment' || patch.patch === 'order') && typeof patch.account === 'string' && typeof patch.id === 'string' && isRecord(patch.value)
}

/** What a patch's `append` holds per list: `{"at": n, "entries": […]}`, nothing else. */
function isListTail(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false
  const tail = value as Record<string, unknown>
  let keys = 0
  for (const _ in tail) keys++
  return keys === 2 && Number.isInteger(tail.at) && (tail.at as number) >= 0 && Array.isArray(tail.entries)
}

/** A `put` of a known kind or an `append`, with nothing else in it (the strict objects of ChangeLineSchema). */
function isPlainChange(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || !('value' in value)) return false
  const change = value as Record<string, unknown>
  if (change.account !== undefined && typeof change.account !== 'string') return false
  let keys = 0
  for (const key in change) {
    keys++
    if (key !== 'put' && key !== 'append' && key !== 'account' && key !== 'id' && key !== 'at' && key !== 'value') return false
  }
  if ('put' in change) return KINDS.has(change.put) && typeof change.id === 'string' && !('append' in change) && !('at' in change) && keys <= 4
  return typeof change.append === 'string' && Number.isInteger(change.at) && (change.at as number) >= 0 && !('id' in change) && keys <= 4
}

function isRngStates(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false
  for (const state of Object.values(value)) if (!Array.isArray(state) || state.length !== 4 || !state.every((n) => typeof n === 'number')) return false
  return true
}
