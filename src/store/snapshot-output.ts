import type { FileHandle } from 'node:fs/promises'

/** Work between two yields to the event loop (ms): well under the 50 ms a request may be stalled. */
const SLICE_MS = 8
const COPY_BYTES = 1 << 20

/** A line of a snapshot, and how many records it holds (a section's first line: none). */
export interface Line {
  text: string
  records: number
}

/**
 * The snapshot file being written: lines gathered into chunks, each chunk's write a yield to the
 * event loop, and byte ranges copied from another file. `position` is where the next line starts.
 */
export class SnapshotOutput {
  records = 0
  lines = 0
  /** Bytes written to the file. */
  bytes = 0
  private chunk = ''
  private chunkBytes = 0
  private sliceStart = performance.now()

  constructor(private readonly file: FileHandle) {}

  /** The byte offset at which the next line (or copy) starts. */
  get position(): number {
    return this.bytes + this.chunkBytes
  }

  line({ text, records }: Line): void {
    this.chunk += `${text}\n`
    this.chunkBytes += Buffer.byteLength(text) + 1
    this.records += records
    this.lines++
  }

  async write(lines: Iterable<Line>): Promise<void> {
    for (const line of lines) {
      this.line(line)
      await this.yieldIfDue()
    }
  }

  /** A line may hold a thousand records: the clock is read after each. */
  async yieldIfDue(): Promise<void> {
    if (performance.now() - this.sliceStart > SLICE_MS) await this.flush()
  }

  async flush(): Promise<void> {
    if (this.chunk.length > 0) this.bytes += (await this.file.write(this.chunk)).bytesWritten
    this.chunk = ''
    this.chunkBytes = 0
    this.sliceStart = performance.now()
  }

  /** Lines that another file holds as they should be, at bytes `[start, end)`, with `records` records. */
  async copy(from: FileHandle, start: number, end: number, records: number): Promise<void> {
    await this.flush()
    const buffer = Buffer.allocUnsafe(Math.min(COPY_BYTES, end - start))
    for (let position = start; position < end; ) {
      const { bytesRead } = await from.read(buffer, 0, Math.min(buffer.length, end - position), position)
      if (bytesRead === 0) throw new Error(`the previous snapshot ends at byte ${position}, before ${end}`)
      this.bytes += (await this.file.write(buffer, 0, bytesRead)).bytesWritten
      position += bytesRead
    }
    this.records += records
  }
}
