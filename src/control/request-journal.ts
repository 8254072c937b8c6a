import type { Request, Response } from 'express'
import { matchesPath } from './fault-rules.js'
import type { RequestJournalEntry } from '../schemas/control.js'

/** How many `/v1` requests the journal keeps; older ones fall off. */
export const JOURNAL_CAPACITY = 500

/** Long query strings and keys are cut: the journal must stay small whatever clients send. */
const MAX_QUERY_LENGTH = 500
const MAX_IDEMPOTENCY_KEY_LENGTH = 255
/** Bodies are kept to their first characters: enough to read, bounded whatever clients send. */
export const MAX_BODY_LENGTH = 4096

export interface JournalFilter {
  method?: string
  /** Exact, or a prefix ending in `*`. */
  path?: string
  status?: number
  account_id?: string
}

export interface RequestJournal {
  record(req: Request, res: Response, info: { requestId: string; durationMs: number; at: string }): void
  /** Newest first. */
  list(filter?: JournalFilter): RequestJournalEntry[]
  /** Forgets everything, or one account's requests (its reset). */
  clear(accountId?: string): void
}

/**
 * `GET /_sandbox/requests` (CONTRACT.md section 10): the last `/v1` requests, answered or not, for a
 * test that wants to know what its client really sent. In memory only, like the delivery log.
 *
 * Recording is on every request's path and lists are rare, so a request is kept as the few values
 * it already has (its id, path, and the masked key shared by every request with that key), each field
 * in a ring of its own, and the entry is built when listed. An entry lives for `capacity` requests:
 * long enough for the garbage collector to move it to the old generation, where an object and strings
 * per request (about 300 bytes) were most of what a run of requests left for a full collection.
 */
export function createRequestJournal(options: { capacity?: number } = {}): RequestJournal {
  const capacity = options.capacity ?? JOURNAL_CAPACITY
  let ring = createRing(capacity)
  const keys = new Map<string, string | null>()

  /** The masked key for an Authorization header, the same string for every request that sends it. */
  function maskedKey(authorization: string | undefined): string | null {
    if (authorization === undefined) return null
    let masked = keys.get(authorization)
    if (masked === undefined) {
      masked = maskKey(authorization)
      // Keys are few; a client sending a new one each time only empties the cache now and then.
      if (keys.size >= MASKED_KEYS) keys.clear()
      keys.set(authorization, masked)
    }
    return masked
  }

  return {
    record(req, res, info) {
      const url = req.originalUrl || req.url
      const queryAt = url.indexOf('?')
      // A URL without a query (most requests) is kept as the string it is.
      const path = queryAt === -1 ? url : url.slice(0, queryAt)
      if (path !== '/v1' && !path.startsWith('/v1/')) return
      const query = queryAt === -1 ? '' : url.slice(queryAt + 1)
      const idempotencyKey = req.headers['idempotency-key']
      push(ring, {
        id: info.requestId,
        method: req.method,
        path,
        query: query ? maskQuery(query).slice(0, MAX_QUERY_LENGTH) : null,
        status: res.writableFinished ? res.statusCode : null,
        duration_ms: Math.round(info.durationMs * 10) / 10,
        api_key: maskedKey(req.headers.authorization),
        account_id: (res.locals.accountId as string | undefined) ?? null,
        idempotency_key: typeof idempotencyKey === 'string' ? idempotencyKey.slice(0, MAX_IDEMPOTENCY_KEY_LENGTH) : null,
        replayed: res.getHeader('Idempotent-Replayed') === 'true',
        fault: (res.locals.fault as RequestJournalEntry['fault'] | undefined) ?? null,
        at: info.at,
        request_body: keep(res.locals.requestBody as Buffer | undefined),
        response_body: keep(res.locals.responseBody as string | Buffer | undefined),
      })
    },
    list(filter = {}) {
      const method = filter.method?.toUpperCase()
      return entriesOf(ring)
        .filter(
          (entry) =>
            (method === undefined || entry.method === method) &&
            (filter.path === undefined || matchesPath(filter.path, entry.path)) &&
            (filter.status === undefined || entry.status === filter.status) &&
            (filter.account_id === undefined || entry.account_id === filter.account_id),
        )
        .reverse()
    },
    clear(accountId) {
      const kept = accountId === undefined ? [] : entriesOf(ring).filter((entry) => entry.account_id !== accountId)
      ring = createRing(capacity)
      for (const entry of kept) push(ring, entry)
    },
  }
}

/** Distinct Authorization headers whose masked form is kept. */
const MASKED_KEYS = 256

type Field = keyof RequestJournalEntry
const FIELDS: readonly Field[] = ['id', 'method', 'path', 'query', 'status', 'duration_ms', 'api_key', 'account_id', 'idempotency_key', 'replayed', 'fault', 'at', 'request_body', 'response_body']

/** The last `capacity` requests, a column per field, oldest at `start`. */
interface Ring {
  columns: Record<Field, unknown[]>
  start: number
  size: number
}

function createRing(capacity: number): Ring {
  const columns = Object.fromEntries(FIELDS.map((field) => [field, new Array<unknown>(capacity).fill(null)])) as Record<Field, unknown[]>
  return { columns, start: 0, size: 0 }
}

/** `entry` as recorded: its bodies as `keep` keeps them, or as listed. */
function push(ring: Ring, entry: Record<Field, unknown>): void {
  const capacity = ring.columns.id.length
  if (capacity === 0) return
  const at = (ring.start + ring.size) % capacity
  for (const field of FIELDS) ring.columns[field][at] = entry[field]
  if (ring.size < capacity) ring.size++
  else ring.start = (ring.start + 1) % capacity
}

/** Oldest first. */
function entriesOf(ring: Ring): RequestJournalEntry[] {
  const capacity = ring.columns.id.length
  return Array.from({ length: ring.size }, (_, i) => {
    const at = (ring.start + i) % capacity
    const entry = Object.fromEntries(FIELDS.map((field) => [field, ring.columns[field][at]]))
    entry.request_body = cut(entry.request_body as KeptBody)
    entry.response_body = cut(entry.response_body as KeptBody)
    return entry as unknown as RequestJournalEntry
  })
}

/** A body as the journal keeps it until listed: the client's bytes or the answer's text, bounded. */
type KeptBody = string | Buffer | null

/**
 * What a body costs to keep is what it already costs: a short body is kept as the bytes or text the
 * request already has, and decoded only when listed. A long one is cut now, as a copy of its own, so
 * that the journal never holds a large answer whole (a slice would keep the whole alive: V8 makes a
 * slice of a long string a view of it, and `subarray` shares the bytes), 360 KB for each request of the
 * OpenAPI document otherwise. A UTF-16 unit takes at most 3 bytes of UTF-8, so 3 × the characters
 * kept is enough bytes.
 */
function keep(body: string | Buffer | undefined): KeptBody {
  if (body === undefined || body.length === 0) return null
  if (typeof body === 'string') return body.length <= MAX_BODY_LENGTH ? body : Buffer.from(body.slice(0, MAX_BODY_LENGTH), 'utf16le').toString('utf16le')
  return body.length <= 3 * MAX_BODY_LENGTH ? body : Buffer.from(body.subarray(0, 3 * MAX_BODY_LENGTH))
}

/** A kept body's first characters, as listed. */
function cut(body: KeptBody): string | null {
  if (body === null) return null
  const text = typeof body === 'string' ? body : body.toString('utf8')
  return text.length <= MAX_BODY_LENGTH ? text : text.slice(0, MAX_BODY_LENGTH)
}

/** `sk_test_…_key`: the key's kind and, for keys of 12+ characters, its last 4, as the request log shows them. */
function mask(key: string): string {
  const prefix = /^(sk|rk)_(test|live)_/.exec(key)?.[0] ?? ''
  return `${prefix}…${key.length >= 12 ? key.slice(-4) : ''}`
}

function maskKey(authorization: string | undefined): string | null {
  const key = authorization === undefined ? undefined : /^Bearer +(\S+)\s*$/i.exec(authorization)?.[1]
  return key ? mask(key) : null
}

/** A key in the query string (`?api_key=`) is masked like the header's. */
function maskQuery(query: string): string {
  return query.replace(/(^|&)(api_key=)([^&]*)/gi, (_match, start: string, name: string, value: string) => `${start}${name}${mask(decodeSafely(value))}`)
}

function decodeSafely(value: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}
