import type { FileHandle } from 'node:fs/promises'

/**
 * Work between two yields to the event loop (ms). A request that arrives meanwhile waits for the
 * slice to end, so a slice is a small part of what a request takes: with slices of 8 ms, requests
 * made one after another during a compaction each took about 8 ms longer.
 */
const SLICE_MS = 0.5
/**
 * While requests come in (`busy`), the longest a slice waits after the one before (ms): a client
 * sending requests one after another leaves the event loop idle only for the tenth of a millisecond
 * its next request takes to arrive, so a slice started then would hold most of them up. Waiting
 * for a pause, with a slice at least this often, a compaction takes 1 % of the event loop meanwhile
 * and holds up about 1 request in 100; should that not keep up (the next journal is full before
 * this snapshot is written), the store no longer calls it busy (file-store.ts).
 */
const BUSY_WAIT_MS = 50
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const COPY_BYTES = 1 << 20

/**
 * A line of a snapshot, and how many records it holds (a section's first line: none). A line of a
 * thousand records comes in pieces (`chunkText`), between which the writer may yield.
 */
export type Line = { text: string; records: number } | { pieces: Iterable<string>; records: number }

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

  constructor(
    private readonly file: FileHandle,
    private readonly busy: () => boolean = () => false,
  ) {}

  /** The byte offset at which the next line (or copy) starts. */
  get position(): number {
    return this.bytes + this.chunkBytes
  }

  /** A line of one piece, added without yielding. */
  line(line: { text: string; records: number }): void {
    this.add(line.text)
    this.endLine(line.records)
  }

  async write(lines: Iterable<Line>): Promise<void> {
    for (const line of lines) {
      if ('text' in line) this.line(line)
      else {
        for (const piece of line.pieces) {
          this.add(piece)
          await this.yieldIfDue()
        }
        this.endLine(line.records)
      }
      await this.yieldIfDue()
    }
  }

  private add(text: string): void {
    this.chunk += text
    this.chunkBytes += Buffer.byteLength(text)
  }

  private endLine(records: number): void {
    this.add('\n')
    this.records += records
    this.lines++
  }

  /** Yields to the event loop once the slice is over, through a write of its text, and to requests while they come in. */
  async yieldIfDue(): Promise<void> {
    if (performance.now() - this.sliceStart <= SLICE_MS) return
    const ended = performance.now()
    // Written at once, not gathered: text held across a wait outlived two young-generation collections
    // and died in the old generation, where what a compaction leaves adds up.
    if (this.chunk.length > 0) await this.flush()
    else await new Promise((resolve) => setImmediate(resolve))
    await this.giveWay(ended)
    this.sliceStart = performance.now()
  }

  /** While requests come in, waits for a pause in them, or until `BUSY_WAIT_MS` after `since`. */
  private async giveWay(since: number): Promise<void> {
    while (this.busy() && performance.now() - since < BUSY_WAIT_MS) await pause(1)
  }

  async flush(): Promise<void> {
    if (this.chunk.length > 0) this.bytes += (await this.file.write(this.chunk)).bytesWritten
    this.chunk = ''
    this.chunkBytes = 0
    this.sliceStart = performance.now()
  }

  /**
   * Lines that another file holds as they should be, at bytes `[start, end)`, with `records` records.
   * A megabyte at a time, giving way to requests between two: the copy is the kernel's work on other
   * threads, but a machine of two cores has little room for it beside the one that answers requests.
   */
  async copy(from: FileHandle, start: number, end: number, records: number): Promise<void> {
    await this.flush()
    const buffer = Buffer.allocUnsafe(Math.min(COPY_BYTES, end - start))
    for (let position = start; position < end; ) {
      const step = performance.now()
      const { bytesRead } = await from.read(buffer, 0, Math.min(buffer.length, end - position), position)
      if (bytesRead === 0) throw new Error(`the previous snapshot ends at byte ${position}, before ${end}`)
      this.bytes += (await this.file.write(buffer, 0, bytesRead)).bytesWritten
      position += bytesRead
      await this.giveWay(step)
    }
    this.records += records
    this.sliceStart = performance.now()
  }
}
