import { describeProblem } from './load-error.js'
import { readLines } from './line-reader.js'
import { PostingsLog } from './postings-log.js'
import { appendTransactionChunk } from './transaction-chunks.js'

/**
 * The postings region of a snapshot: its last part, bytes `[start, end)`, where each account's
 * transactions follow a section line, `{"section":"postings","account":"acct_…","count":N}`, a
 * thousand to a line in columns (transaction-chunks.ts). It sits apart from the records so that
 * another thread can read it while the main one reads the records (postings-worker.ts): it is a
 * third of a snapshot's bytes, and what it builds (typed arrays) moves between threads without a
 * copy. Nothing here needs the rest of the store, or zod.
 */

/** Where the region does not fit: `line` counts from the region's first line. */
export interface RegionProblem {
  line: number
  offset: number
  problem: string
}

export class RegionError extends Error {
  override name = 'RegionError'
  constructor(readonly where: RegionProblem) {
    super(where.problem)
  }
}

/** Where a section's transactions lie in the file: bytes `[start, end)`, `count` lines. */
export interface SectionBytes {
  start: number
  end: number
  count: number
}

/**
 * Where each account's log has its transactions in the snapshot on disk, by the log (an account
 * reset or restored gets a new one): what a compaction may copy from it.
 */
export type PostingsSections = WeakMap<PostingsLog, SectionBytes>

export interface PostingsRegion {
  logs: Map<string, PostingsLog>
  /** By account, where its transactions are (a compaction copies them instead of writing them again). */
  sections: Map<string, SectionBytes>
  /** Lines read, section lines included, and the transactions they hold. */
  lines: number
  records: number
}

export async function readPostingsRegion(path: string, start: number, end: number): Promise<PostingsRegion> {
  const logs = new Map<string, PostingsLog>()
  const sections = new Map<string, SectionBytes>()
  let log: PostingsLog | undefined
  let current: SectionBytes | undefined
  let left = 0
  let lines = 0
  let records = 0
  for await (const batch of readLines(path, start, 1 << 20, end)) {
    for (const line of batch) {
      lines = line.number
      try {
        if (!line.terminated) throw new Error('the region ends in the middle of a line')
        const value: unknown = JSON.parse(line.text)
        if (left > 0) {
          const appended = appendTransactionChunk(log!, value, left)
          left -= appended
          records += appended
          continue
        }
        // The section before ends where this one's line starts.
        if (current) current.end = line.offset
        const section = sectionOf(value)
        if (logs.has(section.account)) throw new Error(`a second postings section for account '${section.account}'`)
        logs.set(section.account, (log = new PostingsLog()))
        current = { start: line.offset + Buffer.byteLength(line.text) + 1, end, count: section.count }
        sections.set(section.account, current)
        left = section.count
      } catch (error) {
        throw new RegionError({ line: line.number, offset: line.offset, problem: describeProblem(error) })
      }
    }
  }
  if (left > 0) throw new RegionError({ line: lines + 1, offset: end, problem: `the last postings section ends ${left} transactions short of its count` })
  return { logs, sections, lines, records }
}

function sectionOf(value: unknown): { account: string; count: number } {
  const section = value as Record<string, unknown> | null
  const fits =
    section !== null && typeof section === 'object' && !Array.isArray(section) && section.section === 'postings' && typeof section.account === 'string' &&
    Number.isInteger(section.count) && (section.count as number) >= 0 && Object.keys(section).length === 3
  if (!fits) throw new Error('expected a postings section line ({"section":"postings","account":"acct_…","count":N})')
  return section as { account: string; count: number }
}
