import { copyFileSync, existsSync, linkSync, mkdirSync, statSync } from 'node:fs'
import { unlink } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { createJournalWriter } from './journal-writer.js'
import { lookupIn, patchesOf } from './journal-patches.js'
import { encodeGeneratorsLine, encodeJournalLine, SNAPSHOT_VERSION } from './lines.js'
import { journalPath, loadDataFile, removeObsolete } from './load.js'
import { acquireLock } from './lock.js'
import { writeSnapshot } from './snapshot-writer.js'
import { createState } from './state.js'
import { createRngJournal } from './rng-states.js'
import type { OpenStoreResult, StoreOptions } from './store-types.js'
import { isoOf } from '../date-text.js'

/**
 * When a compaction starts: once the journal holds more than a quarter of the snapshot's bytes, or
 * more change sets than a 32nd of its records, and at least these many of either. Replaying a
 * change set at start-up costs several times what reading a record of the snapshot does (a
 * million payments: about 4 s for a snapshot that holds them all, 20 to 30 µs a change set on
 * top), so these bounds keep a start within about half again the snapshot's; and a compaction
 * costs about 2.5 µs of CPU a payment (it copies the transactions the snapshot holds), once every
 * many thousand changes.
 */
const COMPACT_BYTES_SHARE = 4
const COMPACT_LINES_SHARE = 32
const MIN_COMPACT_BYTES = 64 * 1024 * 1024
const MIN_COMPACT_LINES = 50_000

/** The longest journal (bytes, change sets) a snapshot of this size lets grow before a compaction. */
export function journalLimits(snapshot: { bytes: number; records: number }, least: { bytes?: number; lines?: number } = {}): { bytes: number; lines: number } {
  return {
    bytes: Math.max(least.bytes ?? MIN_COMPACT_BYTES, snapshot.bytes / COMPACT_BYTES_SHARE),
    lines: Math.max(least.lines ?? MIN_COMPACT_LINES, snapshot.records / COMPACT_LINES_SHARE),
  }
}

/**
 * The data file: `<path>` is a snapshot (one record per line) and `<path>.journal.<n>` the
 * change sets applied since, one per line. A compaction writes a new snapshot from the live state
 * in chunks, continuing in journal n+1 meanwhile, then deletes journal n.
 */
export async function openFileStore(options: StoreOptions & { dataFile: string }): Promise<OpenStoreResult> {
  const path = options.dataFile
  const warn = options.warn ?? (() => {})
  const onError = options.onWriteError ?? (() => {})
  const now = options.now ?? (() => isoOf(Date.now()))
  mkdirSync(dirname(path), { recursive: true })
  const release = acquireLock(path)
  const state = createState()
  let loaded
  try {
    loaded = await loadDataFile(path, state, { warn }, options.postingsWorker)
    if (loaded.needsSnapshot) loaded.sections = (await writeSnapshot(path, state, loaded.journal, now())).sections
    removeObsolete(loaded.obsolete)
    if (loaded.olderVersion !== undefined) {
      const backup = keepBackup(path, loaded.olderVersion, loaded.replayed)
      warn(`Data file ${path} was written in the version ${loaded.olderVersion} format; a new snapshot in version ${SNAPSHOT_VERSION} (faster to load) is being written. The files as they were are kept in ${backup}.`)
    }
  } catch (error) {
    release()
    throw error
  }

  let generation = loaded.journal
  let seq = loaded.seq
  let snapshotBytes = statSync(path).size
  let snapshotRecords = loaded.snapshotRecords
  let snapshotSections = loaded.sections
  let journalLines = loaded.journalLines
  let compacting: Promise<void> | undefined
  let closing: Promise<void> | undefined
  const journal = createJournalWriter({ path: journalPath(path, generation), durability: options.durability ?? 'batched', timer: options.timer ?? { setTimeout, clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout) }, onError, sync: options.sync })
  const lookup = lookupIn(state.accounts)
  const rngJournal = createRngJournal()
  const compactionDue = () => {
    const limits = journalLimits({ bytes: snapshotBytes, records: snapshotRecords }, { bytes: options.compactAfterBytes, lines: options.compactAfterLines })
    return journal.bytes > limits.bytes || journalLines > limits.lines
  }
  // A compaction gives way to requests, unless the journal it started has grown past the limit
  // already: then it is late, and runs at full speed, requests or not.
  const busy = () => (options.busy?.() ?? false) && !compactionDue()

  /** Starts a compaction unless one runs (what a full journal asks for). */
  function startCompaction(): Promise<void> {
    compacting ??= (async () => {
      const previous = journalPath(path, generation)
      generation++
      journal.rotate(journalPath(path, generation))
      journalLines = 0
      rngJournal.restart()
      const written = await writeSnapshot(path, state, generation, now(), snapshotSections, busy)
      snapshotBytes = written.bytes
      snapshotRecords = written.records
      snapshotSections = written.sections
      // Unlinking a journal of hundreds of megabytes takes a while: not on the event loop.
      await unlink(previous)
    })()
      .catch(onError)
      .finally(() => (compacting = undefined))
    return compacting
  }

  /**
   * A snapshot of everything applied so far: after the compaction that runs, if any (it holds only
   * what came before it started), a new one, unless nothing was journaled since that one started.
   */
  async function compact(): Promise<void> {
    if (compacting) {
      await compacting
      if (journalLines === 0) return
    }
    await startCompaction()
  }

  // A snapshot of an older version is written anew at once, so that the next start reads the current one.
  if (loaded.olderVersion !== undefined) void startCompaction()

  return {
    loaded: loaded.loaded,
    store: {
      accounts: state.accounts,
      keys: state.keys,
      control: state.control,
      logs: state.logs,
      dataFile: path,
      apply(changes) {
        // Taken before the set applies: a patch says what a put changes in the record as it was.
        const patches = patchesOf(changes, lookup)
        state.apply(changes)
        const line = encodeJournalLine(++seq, changes, rngJournal.statesOf(state.accounts, changes), patches)
        if (!line) return
        journal.append(line)
        journalLines++
        // A whole-state replace is one long line; a new snapshot makes it a starting point instead.
        if (compactionDue() || changes.some((change) => change.op === 'replace')) void startCompaction()
      },
      durable: () => journal.durable(),
      flush: () => journal.flush(),
      compact,
      toData: state.toData,
      close() {
        closing ??= (async () => {
          await compacting
          const moved = rngJournal.moved(state.accounts)
          if (Object.keys(moved).length > 0) journal.append(encodeGeneratorsLine(++seq, moved))
          await journal.close()
          release()
        })()
        return closing
      },
    },
  }
}

/**
 * Keeps the snapshot and the journals it needs, as they are, in `<path>.v<N>-backup/` before a
 * compaction replaces them: hard links when the file system has them (no copy of a large file),
 * copies otherwise. An earlier version of wallet-sandbox reads the folder's files.
 */
function keepBackup(path: string, version: number, journals: string[]): string {
  let folder = `${path}.v${version}-backup`
  for (let n = 2; existsSync(folder); n++) folder = `${path}.v${version}-backup.${n}`
  mkdirSync(folder)
  for (const file of [path, ...journals]) {
    const target = join(folder, basename(file))
    try {
      linkSync(file, target)
    } catch {
      copyFileSync(file, target)
    }
  }
  return folder
}
