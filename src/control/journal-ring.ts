import type { RequestJournalEntry } from '../schemas/requests.js'
import { firstAfter } from '../long-polls.js'
import { grownColumn, grownTypedColumn, slotsInOrder } from '../ring-columns.js'
import { ByteSegments } from './byte-segments.js'
import { headersOf, KEPT_ELLIPSIS, type CapturedRequest } from './request-capture.js'
import { isoOf } from '../date-text.js'

/**
 * One account's recorded requests (or those without an account), the newest `capacity`, for the
 * request journal (request-journal.ts). Recording is on every request's path and reading is rare.
 * An entry lives for `capacity` requests of its account: long enough to reach the old generation,
 * where an object and strings per request (an answer's text alone is a kilobyte) were garbage
 * waiting for a full collection. So a request's text (its id, path, query, idempotency key, headers
 * and bodies) is written once as bytes into segments outside the heap (byte-segments.ts), its
 * numbers into typed columns, and only values the process shares anyway (the method, the masked
 * key, the fault) are kept as strings. An entry is built only when read.
 */

/**
 * The texts of an entry, one after the other in its segment: first its head, its id, path, query,
 * idempotency key and headers joined by NUL (which none of them can hold, request-capture.ts), as latin1
 * (request-capture.ts says why), then the two bodies as UTF-8. Three writes a request: each write
 * leaves the JavaScript heap, and one for each header cost more than the rest of the journal.
 */
const HEAD = 0
const REQUEST_BODY = 1
const RESPONSE_BODY = 2
const TEXTS = 3
/** Positions in the head, then the headers from HEADERS on. */
const ID = 0
const PATH = 1
const QUERY = 2
const IDEMPOTENCY_KEY = 3
const HEADERS = 4

const REPLAYED = 1
const TRUNCATED = 2
const HAS_IDEMPOTENCY_KEY = 4

/** Slots for the first entries; the columns double as the account sends more, up to `capacity`. */
const FIRST_SLOTS = 16

export class JournalRing {
  private seqs = new Float64Array(FIRST_SLOTS)
  private times = new Float64Array(FIRST_SLOTS)
  private durations = new Float64Array(FIRST_SLOTS)
  private statuses = new Uint16Array(FIRST_SLOTS)
  private flags = new Uint8Array(FIRST_SLOTS)
  /** Where each entry's texts lie: a segment, the offset of the first, and each one's length in bytes. */
  private places = new Float64Array(FIRST_SLOTS)
  private lengths = new Uint32Array(FIRST_SLOTS * TEXTS)
  private methods: string[] = new Array<string>(FIRST_SLOTS)
  private apiKeys: Array<string | null> = new Array<string | null>(FIRST_SLOTS)
  private faults: Array<string | null> = new Array<string | null>(FIRST_SLOTS)
  private readonly segments = new ByteSegments()
  private oldest = 0
  size = 0

  /** `accountId`: the account every entry belongs to (null: the ring of requests without one). */
  constructor(readonly capacity: number, readonly accountId: string | null) {}

  /** Bytes its texts take. */
  get bytes(): number {
    return this.segments.bytes
  }

  /** Keeps `request` as the newest, each body to its first `bodyBytes` bytes (whole characters); the oldest goes at capacity. */
  push(seq: number, request: CapturedRequest, bodyBytes: number): void {
    if (this.size === this.capacity) this.dropOldest()
    else if (this.size === this.seqs.length) this.grow()
    const slot = (this.oldest + this.size) % this.seqs.length
    this.size++
    this.seqs[slot] = seq
    this.times[slot] = request.atMs
    this.durations[slot] = request.durationMs
    this.statuses[slot] = request.status
    this.methods[slot] = request.method
    this.apiKeys[slot] = request.apiKey
    this.faults[slot] = request.fault
    const lengths = this.lengths
    const at = slot * TEXTS
    const { segments } = this
    const { requestBody, responseBody } = request
    const { head } = request
    // Room for all of it: a character of the answer takes at most 3 bytes of UTF-8; the exact counts come from the writes.
    const responseRoom = Math.min(typeof responseBody === 'string' ? responseBody.length * (request.responseAscii ? 1 : 3) : (responseBody?.length ?? 0), bodyBytes)
    segments.begin(head.length + Math.min(requestBody?.length ?? 0, bodyBytes) + responseRoom)
    lengths[at + HEAD] = segments.latin1(head)
    lengths[at + REQUEST_BODY] = requestBody ? segments.copy(requestBody, bodyBytes) : 0
    lengths[at + RESPONSE_BODY] = responseBody === undefined ? 0 : typeof responseBody === 'string' ? segments.text(responseBody, bodyBytes, request.responseAscii) : segments.copy(responseBody, bodyBytes)
    this.places[slot] = segments.end()
    const cut = request.headersCut || (requestBody?.length ?? 0) > lengths[at + REQUEST_BODY]! || isCut(responseBody, lengths[at + RESPONSE_BODY]!, bodyBytes)
    this.flags[slot] = (request.replayed ? REPLAYED : 0) | (cut ? TRUNCATED : 0) | (request.hasIdempotencyKey ? HAS_IDEMPOTENCY_KEY : 0)
  }

  seqAt = (i: number): number => this.seqs[this.slot(i)]!
  methodAt = (i: number): string => this.methods[this.slot(i)]!
  /** 0 when no answer was sent. */
  statusAt = (i: number): number => this.statuses[this.slot(i)]!
  pathAt = (i: number): string => this.headOf(this.slot(i))[PATH]!
  idAt = (i: number): string => this.headOf(this.slot(i))[ID]!
  idempotencyKeyAt(i: number): string | null {
    const slot = this.slot(i)
    return this.flags[slot]! & HAS_IDEMPOTENCY_KEY ? this.headOf(slot)[IDEMPOTENCY_KEY]! : null
  }

  /** The `i`-th oldest entry as `GET /_sandbox/requests` answers it. */
  entryAt(i: number): RequestJournalEntry {
    const slot = this.slot(i)
    const flags = this.flags[slot]!
    const head = this.headOf(slot)
    const body = (part: number) => (this.lengths[slot * TEXTS + part] === 0 ? null : this.text(slot, part))
    return {
      id: head[ID]!,
      method: this.methods[slot]!,
      path: head[PATH]!,
      query: head[QUERY] || null,
      status: this.statuses[slot] || null,
      duration_ms: this.durations[slot]!,
      api_key: this.apiKeys[slot]!,
      account_id: this.accountId,
      idempotency_key: flags & HAS_IDEMPOTENCY_KEY ? head[IDEMPOTENCY_KEY]! : null,
      headers: headersOf(head, HEADERS),
      replayed: (flags & REPLAYED) !== 0,
      fault: this.faults[slot] as RequestJournalEntry['fault'],
      at: isoOf(this.times[slot]!),
      request_body: body(REQUEST_BODY),
      response_body: body(RESPONSE_BODY),
      truncated: (flags & TRUNCATED) !== 0,
    }
  }

  /** The position of the newest entry with this id, or -1. */
  lastIndexOf(id: string): number {
    for (let i = this.size - 1; i >= 0; i--) if (this.idAt(i) === id) return i
    return -1
  }

  /** The position of the first entry recorded after `seq` (entries are in seq order): `size` when none was. */
  firstAfter(seq: number): number {
    return firstAfter(this.size, this.seqAt, seq)
  }

  /** The entry's id, path, query, idempotency key, then its headers' names and values. */
  private headOf(slot: number): string[] {
    return this.text(slot, HEAD).replaceAll(KEPT_ELLIPSIS, '…').split('\0')
  }

  /** One of the texts of the entry in `slot`. */
  private text(slot: number, part: number): string {
    const at = slot * TEXTS
    let offset = 0
    for (let before = 0; before < part; before++) offset += this.lengths[at + before]!
    return this.segments.read(this.places[slot]!, offset, this.lengths[at + part]!, part === HEAD ? 'latin1' : 'utf8')
  }

  private slot(i: number): number {
    return (this.oldest + i) % this.seqs.length
  }

  private dropOldest(): void {
    const slot = this.oldest
    let length = 0
    for (let part = 0; part < TEXTS; part++) length += this.lengths[slot * TEXTS + part]!
    this.segments.release(this.places[slot]!, length)
    this.methods[slot] = this.apiKeys[slot] = this.faults[slot] = null as unknown as string
    this.oldest = (this.oldest + 1) % this.seqs.length
    this.size--
  }

  /** Doubles the columns (up to capacity), the kept entries moved to the front in order. */
  private grow(): void {
    const capacity = Math.min(this.seqs.length * 2, this.capacity)
    const order = slotsInOrder(this.oldest, this.size, this.seqs.length)
    const typed = <T extends Float64Array | Uint16Array | Uint8Array>(values: T) => grownTypedColumn(values, order, capacity)
    this.seqs = typed(this.seqs)
    this.times = typed(this.times)
    this.durations = typed(this.durations)
    this.places = typed(this.places)
    this.statuses = typed(this.statuses)
    this.flags = typed(this.flags)
    const lengths = new Uint32Array(capacity * TEXTS)
    order.forEach((slot, i) => lengths.set(this.lengths.subarray(slot * TEXTS, (slot + 1) * TEXTS), i * TEXTS))
    this.lengths = lengths
    const column = <T>(values: T[]) => grownColumn(values, order, capacity)
    this.methods = column(this.methods)
    this.apiKeys = column(this.apiKeys)
    this.faults = column(this.faults)
    this.oldest = 0
  }
}

/** Whether a body was longer than the `kept` bytes written of it, at most `limit`. */
function isCut(body: string | Buffer | undefined, kept: number, limit: number): boolean {
  if (body === undefined) return false
  if (typeof body !== 'string') return body.length > kept
  // Text of up to a third of `limit` characters had room enough (a character takes at most 3 bytes).
  return body.length * 3 > limit && Buffer.byteLength(body) > kept
}
