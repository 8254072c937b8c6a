import { readFile } from 'node:fs/promises'
import type { Low } from 'lowdb'
import * as z from 'zod'
import { formatParam } from '../errors.js'
import { accountFromData, accountToData, emptyData, keysFromData } from './data.js'
import { DataSchema, firstInconsistency, type Data } from '../schemas/data-file.js'
import type { KeyRecord } from '../model/records.js'
import type { AccountState } from './account-state.js'

/**
 * All state of one sandbox process, in memory; with a data file, also on disk. Changes go
 * through `update(fn)`: `fn` runs synchronously (so no other request sees half of it) and the
 * new state is then written behind, never on the request's path.
 */
export interface Store {
  readonly accounts: Map<string, AccountState>
  readonly keys: Map<string, KeyRecord>
  /** Sandbox-wide state of the control API (outcome rules, screening list), as plain JSON. */
  readonly control: Record<string, unknown>
  readonly dataFile: string | undefined
  update<T>(change: () => T): T
  /** Resolves once everything changed so far is on disk. */
  flush(): Promise<void>
  toData(): Data
  /** Replaces the whole state (restore, reset). */
  replace(data: Data): void
}

export class StoreLoadError extends Error {
  override name = 'StoreLoadError'
}

export interface OpenStoreResult {
  store: Store
  /** False when there was no data file yet, or none was given: the caller seeds the fixtures. */
  loaded: boolean
}

export async function openStore(options: { dataFile?: string; onWriteError?: (error: unknown) => void }): Promise<OpenStoreResult> {
  const state = createState()
  if (!options.dataFile) return { store: createStore(state, undefined, () => {}), loaded: false }

  // Loaded only for a data file: an in-memory sandbox starts without lowdb (cold start).
  const [{ Low }, { JSONFile }] = await Promise.all([import('lowdb'), import('lowdb/node')])
  const file = new JSONFile<Data>(options.dataFile)
  const existing = await readDataFile(options.dataFile)
  if (existing) state.replace(existing)
  // Constructed explicitly with JSONFile: lowdb's presets switch to memory under NODE_ENV=test.
  const db = new Low<Data>(file, emptyData())
  const writer = createWriteBehind(db, state.toData, options.onWriteError)
  return { store: createStore(state, options.dataFile, writer.schedule, writer.flush), loaded: existing !== undefined }
}

function createState() {
  const accounts = new Map<string, AccountState>()
  const keys = new Map<string, KeyRecord>()
  const control: Record<string, unknown> = {}
  return {
    accounts,
    keys,
    control,
    toData: (): Data => ({
      version: 1,
      accounts: [...accounts.values()].map(accountToData),
      keys: [...keys.values()].map((k) => ({ ...k, scopes: [...k.scopes], allowed_ips: [...k.allowed_ips] })),
      control: structuredClone(control),
    }),
    replace(data: Data) {
      accounts.clear()
      keys.clear()
      for (const key of Object.keys(control)) delete control[key]
      for (const account of data.accounts) accounts.set(account.account.id, accountFromData(account))
      for (const key of keysFromData(data)) keys.set(key.key, key)
      Object.assign(control, structuredClone(data.control))
    },
  }
}

function createStore(
  state: ReturnType<typeof createState>,
  dataFile: string | undefined,
  schedule: () => void,
  flush: () => Promise<void> = async () => {},
): Store {
  return {
    accounts: state.accounts,
    keys: state.keys,
    control: state.control,
    dataFile,
    update(change) {
      const result = change()
      schedule()
      return result
    },
    flush,
    toData: state.toData,
    replace(data) {
      state.replace(data)
      schedule()
    },
  }
}

/**
 * The ledger in the data file, or undefined when there is none yet: only a missing file or one of
 * zero bytes starts empty. Read here rather than through lowdb, which takes a file holding `null`
 * for a missing one and would then write a fresh ledger over it.
 */
async function readDataFile(path: string): Promise<Data | undefined> {
  const refuse = (problem: string) =>
    new StoreLoadError(`Data file ${path} ${problem}${problem.endsWith('\n') ? '' : '. '}The file was left untouched; fix it or pass another --data-file.`)
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw refuse(`cannot be read (${(error as Error).message})`)
  }
  if (text.length === 0) return undefined
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (error) {
    throw refuse(`is not valid JSON (${(error as Error).message})`)
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw refuse(`holds ${raw === null ? 'null' : Array.isArray(raw) ? 'an array' : `a ${typeof raw}`} where a ledger object ({"version": 1, "accounts": [...], "keys": [...]}) is expected`)
  }
  const parsed = DataSchema.safeParse(raw)
  if (!parsed.success) throw refuse(`does not match the ledger's schema:\n${z.prettifyError(parsed.error)}\n`)
  const inconsistency = firstInconsistency(parsed.data)
  if (inconsistency) throw refuse(`is inconsistent at ${formatParam(inconsistency.path)}: ${inconsistency.problem}`)
  return parsed.data
}

/**
 * Coalesces changes into whole-file writes (lowdb's JSONFile writes a temp file and renames it, one
 * write at a time). The pause before a write grows with the time the last serialisation took, so a
 * very large ledger is written less often instead of stalling request handling.
 */
function createWriteBehind(db: Low<Data>, snapshot: () => Data, onError: (error: unknown) => void = () => {}) {
  let timer: NodeJS.Timeout | undefined
  let lastSerialiseMs = 0
  let writing: Promise<void> = Promise.resolve()

  function writeNow(): Promise<void> {
    if (timer) clearTimeout(timer)
    timer = undefined
    const started = performance.now()
    db.data = snapshot()
    const write = db.write() // serialises synchronously, then writes asynchronously
    lastSerialiseMs = performance.now() - started
    writing = writing.then(() => write).catch(onError)
    return writing
  }

  return {
    schedule() {
      if (timer) return
      timer = setTimeout(writeNow, Math.min(lastSerialiseMs * 4, 2000))
    },
    async flush() {
      if (timer) await writeNow()
      else await writing
    },
  }
}
