/**
 * One account's recorded requests (or those without an account), the newest `capacity`, for the
 * request journal (request-journal.ts). Recording is on every request's path and reading is rare,
 * so a request is kept as the few values it already has, each field in a column of its own, and an
 * entry is built only when read. An entry lives for `capacity` requests of its account: long enough
 * for the garbage collector to move it to the old generation, where an object per request (and its
 * strings) was most of what a run of requests left for a full collection. The columns grow with
 * the account's requests, so an account that sent three holds three, not `capacity` empty slots.
 */

/** A body as the journal keeps it until read: the client's bytes or the answer's text (request-capture.ts). */
export type KeptBody = string | Buffer | null

/** One recorded request, as the journal keeps it. */
export interface KeptRequest {
  /** The journal's order: later requests have larger numbers, across accounts. */
  seq: number
  id: string
  method: string
  path: string
  query: string | null
  /** 0 when no answer was sent. */
  status: number
  durationMs: number
  apiKey: string | null
  accountId: string | null
  idempotencyKey: string | null
  replayed: boolean
  fault: string | null
  at: string
  /** `name\0value\0name\0value`, secrets masked (request-capture.ts). */
  headers: string
  requestBody: KeptBody
  responseBody: KeptBody
  truncated: boolean
  /** What its bodies and headers take, counted against the journal's budget. */
  bytes: number
}

type Field = keyof KeptRequest
const FIELDS: readonly Field[] = [
  'seq', 'id', 'method', 'path', 'query', 'status', 'durationMs', 'apiKey', 'accountId', 'idempotencyKey', 'replayed', 'fault', 'at', 'headers', 'requestBody', 'responseBody', 'truncated', 'bytes',
]

export class JournalRing {
  private readonly columns = Object.fromEntries(FIELDS.map((field) => [field, []])) as unknown as { [F in Field]: Array<KeptRequest[F]> }
  /** The slot of the oldest entry. */
  private start = 0
  size = 0
  /** Bytes of bodies and headers its entries hold. */
  bytes = 0

  constructor(readonly capacity: number) {}

  /** Adds `entry` as the newest; answers the bytes of the oldest it let go (0 when none went). */
  push(entry: KeptRequest): number {
    const { columns } = this
    let slot = this.size
    let freed = 0
    if (this.size < this.capacity) this.size++
    else {
      slot = this.start
      freed = columns.bytes[slot]!
      this.start = (this.start + 1) % this.capacity
    }
    for (const field of FIELDS) (columns[field] as unknown[])[slot] = entry[field]
    this.bytes += entry.bytes - freed
    return freed
  }

  /** A field of the `i`-th oldest entry. */
  get<F extends Field>(field: F, i: number): KeptRequest[F] {
    return this.columns[field][(this.start + i) % this.capacity]!
  }

  /** The `i`-th oldest entry, whole. */
  entryAt(i: number): KeptRequest {
    const slot = (this.start + i) % this.capacity
    return Object.fromEntries(FIELDS.map((field) => [field, this.columns[field][slot]])) as unknown as KeptRequest
  }

  /** The position of the newest entry with this id, or -1. */
  lastIndexOf(id: string): number {
    for (let i = this.size - 1; i >= 0; i--) if (this.get('id', i) === id) return i
    return -1
  }

  /** The position of the first entry recorded after `seq` (entries are in seq order): `size` when none was. */
  firstAfter(seq: number): number {
    let low = 0
    let high = this.size
    while (low < high) {
      const middle = (low + high) >>> 1
      if (this.get('seq', middle) <= seq) low = middle + 1
      else high = middle
    }
    return low
  }
}
