/** The first segment's size; each next one doubles, up to `MAX_SEGMENT` (a record larger than that gets one of its own size). */
const FIRST_SEGMENT = 16 * 1024
const MAX_SEGMENT = 1024 * 1024
/** A place is `serial * SERIAL + offset`: a segment and where a record starts in it. */
const SERIAL = 2 ** 32

interface Segment {
  bytes: Buffer
  used: number
  /** Records kept in it: once none and a newer segment exists, it is let go. */
  live: number
}

/**
 * Records of bytes written one after the other into a few large buffers outside the JavaScript heap
 * (as the event log keeps its events, event-ring.ts), let go in the order they were written: a
 * segment goes whole once none of its records is kept. One record is written at a time: `begin`
 * with room for it, its parts (`text`, `copy`), then `end`, which answers its place.
 */
export class ByteSegments {
  /** Oldest first; `segments[i]` has serial `firstSerial + i`. */
  private segments: Segment[] = []
  private firstSerial = 0
  /** The last segment let go, kept for the next one needed: a ring going round reuses its few segments instead of allocating anew. */
  private spare: Buffer | undefined
  private start = 0
  /** Bytes of the records kept. */
  bytes = 0

  /** Starts a record of at most `room` bytes. */
  begin(room: number): void {
    const current = this.segments[this.segments.length - 1]
    if (current && current.used + room <= current.bytes.length) {
      this.start = current.used
      return
    }
    // Nothing kept in it: the new one takes its place (and its serial) rather than sit beside it.
    if (current && current.live === 0) this.segments.pop()
    const previousSize = current?.bytes.length ?? FIRST_SEGMENT / 2
    const size = Math.max(room, Math.min(previousSize * 2, MAX_SEGMENT))
    const bytes = this.spare !== undefined && this.spare.length >= size ? this.spare : Buffer.allocUnsafeSlow(size)
    if (bytes === this.spare) this.spare = undefined
    this.segments.push({ bytes, used: 0, live: 0 })
    this.start = 0
  }

  /**
   * Writes `value` as UTF-8, at most `max` bytes of it (whole characters only); answers the bytes
   * written. `ascii`: the caller knows every character is ASCII, so its UTF-8 is its latin1, a byte
   * copied a character, where the UTF-8 encoder tests each one.
   */
  text(value: string, max = Number.MAX_SAFE_INTEGER, ascii = false): number {
    const segment = this.segments[this.segments.length - 1]!
    const written = value.length === 0 ? 0 : segment.bytes.write(value, segment.used, Math.min(max, segment.bytes.length - segment.used), ascii ? 'latin1' : 'utf8')
    segment.used += written
    return written
  }

  /** Writes `value`, all of whose characters are latin1, one byte each; answers the bytes written. */
  latin1(value: string): number {
    const segment = this.segments[this.segments.length - 1]!
    const written = segment.bytes.write(value, segment.used, 'latin1')
    segment.used += written
    return written
  }

  /** Copies `value`'s first `max` bytes of UTF-8, less the start of a character that did not fit; answers the bytes written. */
  copy(value: Buffer, max: number): number {
    let end = Math.min(max, value.length)
    // Back from a continuation byte (10xxxxxx) to the lead byte of its character, which then does not fit.
    if (end < value.length) while (end > 0 && (value[end]! & 0xc0) === 0x80) end--
    const segment = this.segments[this.segments.length - 1]!
    const written = value.copy(segment.bytes, segment.used, 0, end)
    segment.used += written
    return written
  }

  /** Ends the record; answers its place. */
  end(): number {
    const segment = this.segments[this.segments.length - 1]!
    segment.live++
    this.bytes += segment.used - this.start
    return (this.firstSerial + this.segments.length - 1) * SERIAL + this.start
  }

  /** `length` bytes at `offset` into the record at `place`, decoded. */
  read(place: number, offset: number, length: number, encoding: 'utf8' | 'latin1'): string {
    const start = (place % SERIAL) + offset
    return this.segmentAt(place).bytes.toString(encoding, start, start + length)
  }

  /** Lets the record at `place`, of `length` bytes, go (records go in the order they were written). */
  release(place: number, length: number): void {
    this.segmentAt(place).live--
    this.bytes -= length
    while (this.segments.length > 1 && this.segments[0]!.live === 0) {
      const { bytes } = this.segments.shift()!
      if (bytes.length <= MAX_SEGMENT && bytes.length > (this.spare?.length ?? 0)) this.spare = bytes
      this.firstSerial++
    }
  }

  private segmentAt(place: number): Segment {
    return this.segments[Math.floor(place / SERIAL) - this.firstSerial]!
  }
}
