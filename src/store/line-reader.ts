import { createReadStream } from 'node:fs'

export interface Line {
  text: string
  /** 1-based. */
  number: number
  /** Byte offset of the line's first byte in the file. */
  offset: number
  /** False for a last line without its newline (a write cut short). */
  terminated: boolean
}

const NEWLINE = 0x0a

/**
 * The lines of a file, read in chunks: the file's text is never held whole, so a snapshot of a
 * million records loads in constant memory besides the records themselves. Lines come in batches,
 * one per chunk read (about 1 MB): a million lines cost a thousand awaits, not a million.
 */
export async function* readLines(path: string, start = 0): AsyncGenerator<Line[]> {
  let carry: Buffer | undefined
  let offset = start
  let number = 0
  for await (const chunk of createReadStream(path, { start, highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    const buffer = carry ? Buffer.concat([carry, chunk]) : chunk
    const lines: Line[] = []
    let from = 0
    for (let end = buffer.indexOf(NEWLINE, from); end !== -1; end = buffer.indexOf(NEWLINE, from)) {
      lines.push({ text: buffer.toString('utf8', from, end), number: ++number, offset, terminated: true })
      offset += end + 1 - from
      from = end + 1
    }
    carry = from < buffer.length ? buffer.subarray(from) : undefined
    if (lines.length > 0) yield lines
  }
  if (carry && carry.length > 0) yield [{ text: carry.toString('utf8'), number: ++number, offset, terminated: false }]
}
