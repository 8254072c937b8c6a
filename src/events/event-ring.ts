import { firstAfter } from '../long-polls.js'
import { grownColumn, grownTypedColumn, slotsInOrder } from '../ring-columns.js'
import type { SandboxEvent } from '../model/events.js'

/** The first segment's size; each next one doubles, up to `MAX_SEGMENT`. */
const FIRST_SEGMENT = 16 * 1024
const MAX_SEGMENT = 1024 * 1024
/** Slots for the first events; the columns double as the log grows, up to its limit. */
const FIRST_SLOTS = 64

interface Segment {
  bytes: Buffer
  used: number
  /** Events kept in it: once none and a newer segment exists, it is let go. */
  live: number
}

/**
 * One account's newest events, most as the JSON text a webhook delivery carries, in a few large byte
 * segments outside the JavaScript heap, and the few values a read filters on in columns. An event
 * the publisher made (`pushPublished`: a payment's, on every POST) keeps only its time and its
 * object's text there: the rest of its head is its id and type, which the columns hold anyway, the
 * account, which is the ring's, and two constants, so its head is made again when it is read rather
 * than written for every event (about 170 bytes, most of them never read). A log of
 * ten thousand events per account lives long enough for every event in it to reach the old
 * generation: kept as objects (an event and the payment it carries, about a kilobyte each), they were
 * a quarter of the process's memory after a million payments created through the API, most of it
 * garbage waiting for a full collection. Here such an event costs its bytes, written once into a
 * segment that is let go whole once every event in it is dropped, and its id; the type and object id
 * are strings the process holds anyway. A read parses the events it answers.
 *
 * An event may also be kept as the object it is (`pushObject`), for events whose text costs more
 * than the object: see the event log.
 */
export class EventRing {
  /** Oldest first, from `head`, wrapping: the log's order across the sandbox, for merged reads. */
  private seqs = new Float64Array(FIRST_SLOTS)
  private ids: string[] = new Array<string>(FIRST_SLOTS)
  private types: string[] = new Array<string>(FIRST_SLOTS)
  private objectIds: Array<string | undefined> = new Array<string | undefined>(FIRST_SLOTS)
  /** The event itself, for one pushed as an object; undefined for one kept as text. */
  private objects: Array<SandboxEvent | undefined> = new Array<SandboxEvent | undefined>(FIRST_SLOTS)
  /**
   * For an event kept by `pushPublished`, the length of its `created_at`: the first bytes of its
   * text, its object's JSON after them. 0 for an event kept as its whole text.
   */
  private createdAtLengths = new Uint8Array(FIRST_SLOTS)
  /** Where each event's text lies: its segment's serial, its offset and its length in bytes. */
  private segmentSerials = new Uint32Array(FIRST_SLOTS)
  private offsets = new Uint32Array(FIRST_SLOTS)
  private lengths = new Uint32Array(FIRST_SLOTS)
  private head = 0
  size = 0
  /** Events dropped to keep within the limit. */
  dropped = 0
  /** Oldest first; `segments[i]` has serial `firstSerial + i`. */
  private segments: Segment[] = []
  private firstSerial = 0

  /** `accountId`: the account whose events these are, every event's `account_id`. */
  constructor(
    private readonly limit: number,
    private readonly accountId: string,
  ) {}

  /** Keeps `event` as `text`, its JSON. */
  push(seq: number, event: SandboxEvent, text: string, objectId: string | undefined): void {
    const slot = this.nextSlot(seq, event, objectId)
    // Room for the most the text can take (3 bytes a UTF-16 unit), and the write tells what it took:
    // one pass over the text, where Buffer.byteLength and then the write were two.
    const segment = this.segmentFor(text.length * 3)
    this.place(slot, segment, segment.bytes.write(text, segment.used), 0)
  }

  /**
   * Keeps an event the publisher made (PublishedEvent: its keys are SandboxEvent's, in that order,
   * its `data` holds its object alone, its `account_id` is this ring's) as its time and `objectText`,
   * its object's JSON. A time that is not a short ASCII text (never the clock's) is kept whole.
   */
  pushPublished(seq: number, event: SandboxEvent, objectText: string, objectId: string | undefined): void {
    const createdAt = event.created_at
    if (!isShortAscii(createdAt)) return this.push(seq, event, JSON.stringify(event), objectId)
    const slot = this.nextSlot(seq, event, objectId)
    const segment = this.segmentFor(createdAt.length + objectText.length * 3)
    const { bytes, used } = segment
    // A byte at a time: a write leaves the heap, which costs more than two dozen ASCII bytes.
    for (let i = 0; i < createdAt.length; i++) bytes[used + i] = createdAt.charCodeAt(i)
    this.place(slot, segment, createdAt.length + bytes.write(objectText, used + createdAt.length), createdAt.length)
  }

  /** Notes that the slot's text is the `length` bytes just written at the end of `segment`. */
  private place(slot: number, segment: Segment, length: number, createdAtLength: number): void {
    this.segmentSerials[slot] = this.firstSerial + this.segments.length - 1
    this.offsets[slot] = segment.used
    this.lengths[slot] = length
    this.createdAtLengths[slot] = createdAtLength
    segment.used += length
    segment.live++
  }

  /** Keeps `event` as the object it is. */
  pushObject(seq: number, event: SandboxEvent, objectId: string | undefined): void {
    // The slot first: taking it may grow the columns, replacing `objects`.
    const slot = this.nextSlot(seq, event, objectId)
    this.objects[slot] = event
  }

  /** A slot for the next event (the oldest dropped at the limit), its columns but where it lies filled. */
  private nextSlot(seq: number, event: SandboxEvent, objectId: string | undefined): number {
    if (this.size === this.limit) this.dropOldest()
    else if (this.size === this.seqs.length) this.grow()
    const slot = (this.head + this.size) % this.seqs.length
    this.seqs[slot] = seq
    this.ids[slot] = event.id
    this.types[slot] = event.type
    this.objectIds[slot] = objectId
    this.size++
    return slot
  }

  /** The i-th kept event's order across the sandbox (0: the oldest kept). */
  seqAt(i: number): number {
    return this.seqs[this.slot(i)]!
  }

  typeAt(i: number): string {
    return this.types[this.slot(i)]!
  }

  objectIdAt(i: number): string | undefined {
    return this.objectIds[this.slot(i)]
  }

  eventAt(i: number): SandboxEvent {
    const slot = this.slot(i)
    const object = this.objects[slot]
    if (object !== undefined) return object
    const { bytes } = this.segments[this.segmentSerials[slot]! - this.firstSerial]!
    const offset = this.offsets[slot]!
    const end = offset + this.lengths[slot]!
    const createdAtLength = this.createdAtLengths[slot]!
    if (createdAtLength === 0) return JSON.parse(bytes.toString('utf8', offset, end)) as SandboxEvent
    // A published event's head, made again in its keys' order: the text JSON.stringify writes of it is the one it had.
    return {
      id: this.ids[slot]!,
      object: 'event',
      type: this.types[slot]! as SandboxEvent['type'],
      created_at: bytes.toString('latin1', offset, offset + createdAtLength),
      api_version: 'v1',
      account_id: this.accountId,
      data: { object: JSON.parse(bytes.toString('utf8', offset + createdAtLength, end)) as unknown },
    }
  }

  /** The position of the kept event with this id, if any. */
  indexOf(eventId: string): number | undefined {
    for (let i = 0; i < this.size; i++) if (this.ids[this.slot(i)] === eventId) return i
    return undefined
  }

  /** The position of the first kept event after `seq` (events are in `seq` order). */
  firstAfter(seq: number): number {
    return firstAfter(this.size, (i) => this.seqAt(i), seq)
  }

  private slot(i: number): number {
    return (this.head + i) % this.seqs.length
  }

  private dropOldest(): void {
    const slot = this.head
    if (this.objects[slot] === undefined) this.segments[this.segmentSerials[slot]! - this.firstSerial]!.live--
    this.ids[slot] = undefined as unknown as string
    this.objectIds[slot] = undefined
    this.objects[slot] = undefined
    this.head = (this.head + 1) % this.seqs.length
    this.size--
    this.dropped++
    // Segments empty in front of the one being written go (events leave in the order they came).
    while (this.segments.length > 1 && this.segments[0]!.live === 0) {
      this.segments.shift()
      this.firstSerial++
    }
  }

  /** The segment being written, or a new one when `length` bytes do not fit in it. */
  private segmentFor(length: number): Segment {
    const current = this.segments[this.segments.length - 1]
    if (current && current.used + length <= current.bytes.length) return current
    // Nothing kept in it: the new one takes its place (and its serial) rather than sit beside it.
    if (current && current.live === 0) this.segments.pop()
    const previousSize = current?.bytes.length ?? FIRST_SEGMENT / 2
    const size = Math.max(length, Math.min(previousSize * 2, MAX_SEGMENT))
    const segment: Segment = { bytes: Buffer.allocUnsafeSlow(size), used: 0, live: 0 }
    this.segments.push(segment)
    return segment
  }

  /** Doubles the columns (up to the limit), the kept events moved to the front in order. */
  private grow(): void {
    const capacity = Math.min(this.seqs.length * 2, this.limit)
    const order = slotsInOrder(this.head, this.size, this.seqs.length)
    const typed = <T extends Float64Array | Uint32Array | Uint8Array>(values: T) => grownTypedColumn(values, order, capacity)
    this.seqs = typed(this.seqs)
    this.segmentSerials = typed(this.segmentSerials)
    this.offsets = typed(this.offsets)
    this.lengths = typed(this.lengths)
    this.createdAtLengths = typed(this.createdAtLengths)
    const column = <T>(values: T[]) => grownColumn(values, order, capacity)
    this.ids = column(this.ids)
    this.types = column(this.types)
    this.objectIds = column(this.objectIds)
    this.objects = column(this.objects)
    this.head = 0
  }
}

/** Whether `text` is 1 to 255 ASCII characters: a length the `createdAtLengths` column holds, bytes that are its characters. */
function isShortAscii(text: unknown): text is string {
  if (typeof text !== 'string' || text.length === 0 || text.length > 255) return false
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= 0x80) return false
  return true
}
