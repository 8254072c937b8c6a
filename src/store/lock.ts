import { readFileSync, unlinkSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { StoreLoadError } from './load-error.js'

/** Lock files this process holds: a lock with our own pid that is not here is a previous process's. */
const HELD = new Set<string>()

/**
 * One process per data file: `<data file>.lock` is created exclusively and holds the owner's pid.
 * A lock whose pid is gone (a crash, kill -9) is stale and taken over. proper-lockfile was not used:
 * it does not record the holder, and the refusal has to name it.
 */
export function acquireLock(dataFile: string): () => void {
  const path = `${dataFile}.lock`
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(path, `${process.pid}\n`, { flag: 'wx' })
      HELD.add(resolve(path))
      return () => releaseLock(path)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error
    }
    const holder = readHolder(path)
    if (holder !== undefined && isAlive(holder, path)) {
      throw new StoreLoadError(
        `Data file ${dataFile} is in use by process ${holder} (lock file ${path}). Stop that process first, or pass another --data-file.`,
      )
    }
    unlinkSync(path)
  }
}

function readHolder(path: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(path, 'utf8').trim(), 10)
    return Number.isInteger(pid) && pid > 0 ? pid : undefined
  } catch {
    return undefined
  }
}

function isAlive(pid: number, path: string): boolean {
  // Our own pid: another sandbox of this very process (alive), or a process before us that had the
  // same pid, as PID 1 of a container restarted after a kill or a crash has (stale).
  if (pid === process.pid) return HELD.has(resolve(path))
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function releaseLock(path: string): void {
  if (!HELD.delete(resolve(path))) return
  if (readHolder(path) === process.pid) unlinkSync(path)
}
