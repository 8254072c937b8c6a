import type { ChangeSet } from './changes.js'
import type { Data } from '../schemas/data-file.js'
import type { Durability, FlushTimer } from './journal-writer.js'
import type { KeyRecord } from '../model/records.js'
import type { AccountState } from './account-state.js'

/** The store's interface and options, apart from `store.ts` so the file backend can name them without an import cycle. */

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
  /** The least journal that triggers a compaction, in bytes and in change sets (tests lower them; see file-store.ts). */
  compactAfterBytes?: number
  compactAfterLines?: number
  /** The journal's fsync (tests observe when it runs). */
  sync?: (fd: number, done: (error: NodeJS.ErrnoException | null) => void) => void
  /** The time written into snapshot headers. */
  now?: () => string
  /**
   * The compiled postings-worker.js, which reads a large snapshot's postings on another thread; when
   * absent (or not there, as when running from the TypeScript sources), they are read on this one.
   */
  postingsWorker?: string
  /**
   * True while requests are coming in one after another: a compaction then takes a slice of the
   * event loop only now and then, and runs at full speed once they pause (snapshot-output.ts).
   */
  busy?: () => boolean
}
