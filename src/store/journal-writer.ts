import { closeSync, fdatasync, openSync, writeSync } from 'node:fs'

export type Durability = 'strict' | 'batched'

/** The timer that paces batched writes; tests pass a manual one. */
export interface FlushTimer {
  setTimeout(run: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

/** Batched mode writes at most this long after a change (CONTRACT.md section 18: on disk within 100 ms). */
export const BATCH_MS = 50

/**
 * Appends journal lines to the current journal file. `strict`: the lines of one event-loop turn
 * are written and fsynced together (group commit), and `durable()` resolves once they are;
 * `batched`: written and fsynced every BATCH_MS. The write itself is synchronous (the page cache
 * makes it quick and a kill -9 cannot lose it); the fsync runs off the event loop.
 */
export function createJournalWriter(options: {
  path: string
  durability: Durability
  timer: FlushTimer
  onError: (error: unknown) => void
  /** The fsync of the journal (tests observe it). */
  sync?: (fd: number, done: (error: NodeJS.ErrnoException | null) => void) => void
}) {
  const { durability, timer, onError, sync = fdatasync } = options
  let fd = openSync(options.path, 'a')
  let pending: string[] = []
  let appended = 0
  let synced = 0
  let syncing = false
  /** The fsync of the file `rotate` left is running: later lines wait for it (their order on disk). */
  let rotating = false
  let scheduled: unknown
  let bytes = 0
  const waiters: Array<{ upTo: number; resolve: () => void }> = []
  /** Journal files left by `rotate` while an fsync of theirs was still running. */
  const retired: number[] = []

  function writePending(): void {
    if (pending.length === 0) return
    const buffer = Buffer.from(pending.join(''), 'utf8')
    pending = []
    for (let done = 0; done < buffer.length; ) done += writeSync(fd, buffer, done)
    bytes += buffer.length
  }

  function markSynced(upTo: number): void {
    synced = Math.max(synced, upTo)
    for (let i = waiters.length - 1; i >= 0; i--) {
      if (waiters[i]!.upTo <= synced) waiters.splice(i, 1)[0]!.resolve()
    }
  }

  function commit(): void {
    if (scheduled !== undefined) {
      if (durability === 'batched') timer.clearTimeout(scheduled)
      scheduled = undefined
    }
    if (syncing || rotating || appended === synced) return
    const upTo = appended
    try {
      writePending()
    } catch (error) {
      onError(error)
      return markSynced(upTo)
    }
    syncing = true
    sync(fd, (error) => {
      syncing = false
      for (const old of retired.splice(0)) closeSync(old)
      if (error) onError(error)
      markSynced(upTo)
      // Someone waits in flush(): no reason to wait for the batch timer.
      if (appended > synced) waiters.length > 0 ? commit() : schedule()
    })
  }

  function schedule(): void {
    if (scheduled !== undefined) return
    scheduled = durability === 'strict' ? setImmediate(commit) : timer.setTimeout(commit, BATCH_MS)
  }

  const untilSynced = (upTo: number) => new Promise<void>((resolve) => waiters.push({ upTo, resolve }))

  return {
    append(line: string): void {
      pending.push(line)
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
    /** Bytes in the current journal file written by this writer. */
    get bytes() {
      return bytes
    },
    /**
     * Continues in a new journal file. Synchronous, so that no change can fall between the two
     * files and the snapshot that starts now: everything before is in the state it iterates.
     */
    rotate(path: string): void {
      writePending()
      const upTo = appended
      const previous = fd
      fd = openSync(path, 'a')
      bytes = 0
      rotating = true
      sync(previous, (error) => {
        rotating = false
        if (syncing) retired.push(previous)
        else closeSync(previous)
        if (error) onError(error)
        markSynced(upTo)
        if (appended > synced) waiters.length > 0 ? commit() : schedule()
      })
    },
    async close(): Promise<void> {
      await this.flush()
      while (syncing || rotating) await new Promise((resolve) => setImmediate(resolve))
      closeSync(fd)
    },
  }
}

export type JournalWriter = ReturnType<typeof createJournalWriter>
