import type { BigIntStats } from 'node:fs'

// The files behind src/code-cache.ts: the bundle's remembered checksum, the cache files and the
// folders trusted to hold them. Node's modules from process.getBuiltinModule(), as there (dist/library.mjs
// carries both as an ES module, where an import of a built-in module wraps each of its exports).
const { closeSync, existsSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, renameSync, statSync, writeFileSync } = process.getBuiltinModule('node:fs')
const { basename, join } = process.getBuiltinModule('node:path')

/**
 * How old (ms) a file's last change must be before its checksum is remembered: a change within the
 * same tick of the file system's clock as the one the checksum was taken after would leave the
 * file's times as they were (git's "racily clean" entries), so a file changed this recently is
 * checksummed on every start.
 */
export const SETTLED_MS = 2_000

/**
 * The bytes' CRC-32 (zlib's, rather than a SHA from node:crypto, which was the costliest module a
 * start loaded), as 8 hex digits. Loading node:zlib and checksumming 1.35 MB was about 2 ms of a
 * start's CPU (issue 33), for a file that changes only when the package does; so, as git's index
 * trusts a file's stat data, the checksum is remembered in `memoDir` under the file's device and
 * inode, with its size, mtime and ctime (which no one can set back: an edit always moves it), and
 * computed again only when one of them changed. What a cache may hold is guarded by the folders'
 * ownership (isTrusted), not by this name.
 */
export function checksumOf(file: string, bytes: Buffer, identity: BigIntStats, memoDir: string | undefined, settledMs: number, memoDirTrusted?: boolean): string {
  const memo = memoDir === undefined ? undefined : join(memoDir, `${basename(file)}.${identity.dev}-${identity.ino}.checksum`)
  const stamp = `${identity.size} ${identity.mtimeNs} ${identity.ctimeNs}`
  // `memoDirTrusted`: isTrusted(memoDir) as the caller found it just before, which saves a start a second stat of the folder.
  if (memo !== undefined && (memoDirTrusted ?? isTrusted(memoDir!))) {
    try {
      const [memoStamp, checksum] = readFileSync(memo, 'latin1').split('\n')
      if (memoStamp === stamp && checksum !== undefined && /^[0-9a-f]{8}$/.test(checksum)) return checksum
    } catch {
      // None yet.
    }
  }
  const checksum = process.getBuiltinModule('node:zlib').crc32(bytes).toString(16).padStart(8, '0')
  if (memo !== undefined && Date.now() - Number(identity.ctimeMs) >= settledMs) {
    try {
      mkdirSync(memoDir!, { recursive: true, mode: 0o700 })
      if (isTrusted(memoDir!)) writeAtomically(memo, `${stamp}\n${checksum}`)
    } catch {
      // A folder that cannot be written: the next start checksums again.
    }
  }
  return checksum
}

/** Write then rename: parallel starts (a CI matrix) never read a half-written file. */
export function writeAtomically(file: string, data: string | NodeJS.ArrayBufferView): void {
  const partial = `${file}.${process.pid}.partial`
  writeFileSync(partial, data)
  renameSync(partial, file)
}

/**
 * The file's bytes, read into `room` when they fit: the bundle's bytes, which nothing needs once they
 * are decoded. Read into memory of its own, the cache (0.8 MB) cost a CLI start about 130 page faults
 * more (half a millisecond on the machine of docs/benchmarks.md, issue 33).
 */
export function readIfPresent(file: string, room: Buffer): Buffer | undefined {
  // Asked first, because a file that is not there made openSync() throw: node builds the error (its
  // message, its stack) for a cache that every start looks for in vain, the temp folder's when the
  // shipped one fits, about 75 us of a start against 20 for existsSync() (issue 33, round 10).
  if (!existsSync(file)) return undefined
  let fd: number
  try {
    fd = openSync(file, 'r')
  } catch {
    return undefined
  }
  try {
    const { size } = fstatSync(fd)
    if (size > room.length) return readFileSync(fd)
    let read = 0
    while (read < size) {
      const chunk = readSync(fd, room, read, size - read, read)
      if (chunk === 0) break
      read += chunk
    }
    return room.subarray(0, read)
  } catch {
    return undefined
  } finally {
    closeSync(fd)
  }
}

export function isTrusted(dir: string): boolean {
  try {
    const { uid, mode } = statSync(dir)
    const me = process.getuid?.()
    // Windows has no uids, and there the temp folder is per user anyway.
    return me === undefined || ((uid === me || uid === 0) && (mode & 0o022) === 0)
  } catch {
    return false
  }
}
