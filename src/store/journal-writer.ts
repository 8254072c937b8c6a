import { closeSync, fdatasync, fstatSync, openSync, writeSync } from 'node:fs'

export type Durability = 'strict' | 'batched'

/** The timer that paces batched writes; tests pass a manual one. */
export interface FlushTimer {
  setTimeout(run: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

/** Batched mode writes at most this long after a change (CONTRACT.md section 18: on disk within 100 ms). */
export const BATCH_MS = 50

/**
 * Lines waiting for their write are kept as bytes, in a buffer of this size to start with (grown for
 * a burst, and let go once it is written if it grew past `KEPT_BYTES`). Kept as strings, a batch's
 * lines lived up to 50 ms: when requests come fast, long enough to outlive two young-generation
 * collections, so that they died in the old generation (a third of what a payment left there with
 * --settle auto, four lines a payment).
 */
const PENDING_BYTES = 64 << 10
const KEPT_BYTES = 4 << 20

type Sync = (fd: number, done: (error: NodeJS.ErrnoException | null) => void) => void

/**
 * Appends journal lines to the current journal file. `strict`: the lines of one event-loop turn
 * are written together and `durable()` resolves once an fsync covers them (group commit);
 * `batched`: written every BATCH_MS. Writes are synchronous and never wait for an fsync (the page
 * cache makes them quick, and a kill -9 cannot lose what was written); fsyncs run off the event
 * loop, one at a time, each covering everything written before it started.
 */
export function createJournalWriter(options: {
  path: string
  durability: Durability
  timer: FlushTimer
  onError: (error: unknown) => void
  /** The fsync of the journal (tests observe it). */
  sync?: Sync
}) {
  const { durability, timer, onError, sync = fdatasync } = options
  let fd = openSync(options.path, 'a')
  let pending = Buffer.allocUnsafeSlow(PENDING_BYTES)
  let pendingBytes = 0
  let appended = 0
  let written = 0
  let synced = 0
  let syncing = false
  let scheduled: unknown
  /** Of the current journal file, what earlier runs wrote included. */
  let bytes = fstatSync(fd).size
  const waiters: Array<{ upTo: number; resolve: () => void }> = []
  /** Journal files left by `rotate`: each gets a last fsync, then is closed. */
  const retiring: Array<{ fd: number; upTo: number }> = []

  function markSynced(upTo: number): void {
    synced = Math.max(synced, upTo)
    for (let i = waiters.length - 1; i >= 0; i--) {
      if (waiters[i]!.upTo <= synced) waiters.splice(i, 1)[0]!.resolve()
    }
  }

  function append(line: string): void {
    // At most 3 bytes a UTF-16 unit; a long line (a whole state replaced) is measured instead.
    const room = pendingBytes + (line.length > PENDING_BYTES ? Buffer.byteLength(line) : line.length * 3)
    if (room > pending.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(room, pending.length * 2))
      pending.copy(grown, 0, 0, pendingBytes)
      pending = grown
    }
    pendingBytes += pending.write(line, pendingBytes)
  }

  function writePending(): void {
    if (pendingBytes === 0) return
    const size = pendingBytes
    pendingBytes = 0
    try {
      for (let done = 0; done < size; ) done += writeSync(fd, pending, done, size - done)
      bytes += size
    } catch (error) {
      onError(error)
    }
    if (pending.length > KEPT_BYTES) pending = Buffer.allocUnsafeSlow(PENDING_BYTES)
    written = appended
  }

  /**
   * One fsync at a time, each covering what was written before it started; a retired file's
   * last one comes first. Serialised, so a line counts as synced only once every line before it is.
   */
  function requestSync(): void {
    if (syncing) return
    const old = retiring.shift()
    if (old) runSync(old.fd, old.upTo, true)
    else if (written > synced) runSync(fd, written, false)
  }

  function runSync(target: number, upTo: number, closeAfter: boolean): void {
    syncing = true
    sync(target, (error) => {
      syncing = false
      if (closeAfter) closeSync(target)
      if (error) onError(error)
      markSynced(upTo)
      requestSync()
    })
  }

  function commit(): void {
    if (scheduled !== undefined && durability === 'batched') timer.clearTimeout(scheduled)
    scheduled = undefined
    writePending()
    requestSync()
  }

  function schedule(): void {
    if (scheduled !== undefined) return
    scheduled = durability === 'strict' ? setImmediate(commit) : timer.setTimeout(commit, BATCH_MS)
  }

  const untilSynced = (upTo: number) => new Promise<void>((resolve) => waiters.push({ upTo, resolve }))

  return {
    append(line: string): void {
      append(line)
      appended++
      schedule()
    },
    /** Strict mode: resolves once every line appended so far is fsynced; undefined when they are. */
    durable(): Promise<void> | undefined {
      if (durability !== 'strict' || synced >= appended) return undefined
      return untilSynced(appended)
    },
    /** Writes and fsyncs everything appended so far. */
    async flush(): Promise<void> {
      if (synced >= appended) return
      const done = untilSynced(appended)
      commit()
      await done
    },
    /** Size of the current journal file. */
    get bytes() {
      return bytes
    },
    /**
     * Continues in a new journal file. Synchronous, so that no change can fall between the two
     * files and the snapshot that starts now: everything before is in the state it iterates.
     */
    rotate(path: string): void {
      writePending()
      retiring.push({ fd, upTo: written })
      fd = openSync(path, 'a')
      bytes = 0
      requestSync()
    },
    async close(): Promise<void> {
      await this.flush()
      while (syncing || retiring.length > 0) await new Promise((resolve) => setImmediate(resolve))
      closeSync(fd)
    },
  }
}

export type JournalWriter = ReturnType<typeof createJournalWriter>
