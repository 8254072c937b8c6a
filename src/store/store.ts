import type { RngState } from '../rng.js'
import type { ChangeSet } from './changes.js'
import type { Data } from './data.js'
import type { Durability, FlushTimer } from './journal-writer.js'
import type { AccountState, KeyRecord } from './records.js'
import { createState } from './state.js'

export { StoreLoadError } from './load-error.js'
export type { Durability } from './journal-writer.js'

/**
 * All state of one sandbox process. Reads go straight to the records and their indexes (an
 * account's payments are indexed per filter); every change is a change set given to `apply`,
 * which applies all of it or none. With a data file, the file backend also journals each set.
 */
export interface Store {
  readonly accounts: ReadonlyMap<string, AccountState>
  readonly keys: ReadonlyMap<string, KeyRecord>
  /** Sandbox-wide state of the control API (outcome rules, screening list), as plain JSON, by module. */
  readonly control: Readonly<Record<string, unknown>>
  /** Append-only logs by `account/log`; a change set appends with `{op: 'append', at: length}`. */
  readonly logs: ReadonlyMap<string, readonly unknown[]>
  readonly dataFile: string | undefined
  apply(changes: ChangeSet): void
  /**
   * Undefined when everything applied so far is as durable as promised; otherwise (`--durability
   * strict` with changes not yet fsynced) resolves once it is. Answers wait for it.
   */
  durable(): Promise<void> | undefined
  /** Resolves once everything changed so far is on disk. */
  flush(): Promise<void>
  /** Writes a fresh snapshot and starts a new journal (in the background; requests go on). */
  compact(): Promise<void>
  toData(): Data
  /** Flushes, stops the file backend and releases the data file's lock. */
  close(): Promise<void>
}

export interface OpenStoreResult {
  store: Store
  /** False when there was no data file yet, or none was given: the caller seeds the fixtures. */
  loaded: boolean
}

export interface StoreOptions {
  dataFile?: string
  durability?: Durability
  onWriteError?: (error: unknown) => void
  /** Start-up notices (a torn line dropped, a migration). */
  warn?: (message: string) => void
  /** Paces batched writes (tests drive it by hand). */
  timer?: FlushTimer
  /** Journal size that triggers a compaction (bytes; at least the snapshot's size). */
  compactAfterBytes?: number
  /** The journal's fsync (tests observe when it runs). */
  sync?: (fd: number, done: (error: NodeJS.ErrnoException | null) => void) => void
  /** The time written into snapshot headers. */
  now?: () => string
}

export async function openStore(options: StoreOptions): Promise<OpenStoreResult> {
  if (!options.dataFile) return { store: createMemoryStore(), loaded: false }
  // Loaded only for a data file: an in-memory sandbox starts without the file machinery (cold start).
  const { openFileStore } = await import('./file-store.js')
  return openFileStore({ ...options, dataFile: options.dataFile })
}

export function createMemoryStore(): Store {
  const state = createState()
  return {
    accounts: state.accounts,
    keys: state.keys,
    control: state.control,
    logs: state.logs,
    dataFile: undefined,
    apply: (changes) => state.apply(changes),
    durable: () => undefined,
    flush: async () => {},
    compact: async () => {},
    toData: state.toData,
    close: async () => {},
  }
}

/** The generator positions of the accounts a change set touched, journaled with it so ids are never reused. */
export function rngStatesOf(accounts: ReadonlyMap<string, AccountState>, changes: ChangeSet): Record<string, RngState> {
  const states: Record<string, RngState> = {}
  for (const change of changes) {
    const id = change.op === 'replace' ? undefined : (change.account ?? (change.op === 'put' && change.kind === 'tenant' ? change.id : undefined))
    const account = id === undefined ? undefined : accounts.get(id)
    if (account) states[id!] = account.rng.state()
  }
  return states
}
