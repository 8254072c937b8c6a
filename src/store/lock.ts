import { readFileSync, unlinkSync, writeFileSync } from 'node:fs'
import { StoreLoadError } from './load-error.js'

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
      return () => releaseLock(path)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error
    }
    const holder = readHolder(path)
    if (holder !== undefined && isAlive(holder)) {
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

function isAlive(pid: number): boolean {
  // Another sandbox of this very process holds it: that one is alive too.
  if (pid === process.pid) return true
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function releaseLock(path: string): void {
  if (readHolder(path) === process.pid) unlinkSync(path)
}
