import { createReadStream } from 'node:fs'

export interface Line {
  text: string
  /** 1-based. */
  number: number
  /** Byte offset of the line's first byte in the file. */
  offset: number
  /** Its length in bytes, the newline left out. */
  bytes: number
  /** False for a last line without its newline (a write cut short). */
  terminated: boolean
}

const NEWLINE = 0x0a

/**
 * The lines of a file, read in chunks: the file's text is never held whole, so a snapshot of a
 * million records loads in constant memory besides the records themselves. Lines come in batches,
 * one per chunk read (`chunkBytes`, 1 MB): a million lines cost a thousand awaits, not a million.
 *
 * Only a line that spans two chunks is copied to join it; joining each chunk to the rest of the
 * previous one copied the whole file once more, a tenth of the load of a million records.
 * `start` and `end` (exclusive) read a region of the file: its line numbers count from 1.
 */
export async function* readLines(path: string, start = 0, chunkBytes = 1 << 20, end = Infinity): AsyncGenerator<Line[]> {
  if (end <= start) return
  let carry: Buffer | undefined
  let offset = start
  let number = 0
  // createReadStream's end is inclusive.
  for await (const chunk of createReadStream(path, { start, end: end === Infinity ? undefined : end - 1, highWaterMark: chunkBytes }) as AsyncIterable<Buffer>) {
    const lines: Line[] = []
    let from = 0
    let end = chunk.indexOf(NEWLINE)
    if (carry && end !== -1) {
      // The line the last chunk left unfinished: the only bytes copied.
      const whole = Buffer.concat([carry, chunk.subarray(0, end)])
      lines.push({ text: whole.toString('utf8'), number: ++number, offset, bytes: whole.length, terminated: true })
      offset += whole.length + 1
      from = end + 1
      carry = undefined
      end = chunk.indexOf(NEWLINE, from)
    }
    for (; end !== -1; end = chunk.indexOf(NEWLINE, from)) {
      lines.push({ text: chunk.toString('utf8', from, end), number: ++number, offset, bytes: end - from, terminated: true })
      offset += end + 1 - from
      from = end + 1
    }
    if (from < chunk.length) carry = carry ? Buffer.concat([carry, chunk]) : chunk.subarray(from)
    if (lines.length > 0) yield lines
  }
  if (carry && carry.length > 0) yield [{ text: carry.toString('utf8'), number: ++number, offset, bytes: carry.length, terminated: false }]
}
