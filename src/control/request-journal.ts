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
 */
export function createRequestJournal(options: { capacity?: number } = {}): RequestJournal {
  const capacity = options.capacity ?? JOURNAL_CAPACITY
  // Oldest first, so that recording is a push and bounding a shift.
  let entries: RequestJournalEntry[] = []

  return {
    record(req, res, info) {
      const [path = '/', query] = (req.originalUrl || req.url).split(/\?(.*)/s)
      if (path !== '/v1' && !path.startsWith('/v1/')) return
      const idempotencyKey = req.headers['idempotency-key']
      entries.push({
        id: info.requestId,
        method: req.method,
        path,
        query: query ? maskQuery(query).slice(0, MAX_QUERY_LENGTH) : null,
        status: res.writableFinished ? res.statusCode : null,
        duration_ms: Math.round(info.durationMs * 10) / 10,
        api_key: maskKey(req.headers.authorization),
        account_id: (res.locals.accountId as string | undefined) ?? null,
        idempotency_key: typeof idempotencyKey === 'string' ? idempotencyKey.slice(0, MAX_IDEMPOTENCY_KEY_LENGTH) : null,
        replayed: res.getHeader('Idempotent-Replayed') === 'true',
        fault: (res.locals.fault as RequestJournalEntry['fault'] | undefined) ?? null,
        at: info.at,
        request_body: cut(res.locals.requestBody as Buffer | undefined),
        response_body: cut(res.locals.responseBody as string | Buffer | undefined),
      })
      if (entries.length > capacity) entries.shift()
    },
    list(filter = {}) {
      const method = filter.method?.toUpperCase()
      return entries
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
      entries = accountId === undefined ? [] : entries.filter((entry) => entry.account_id !== accountId)
    },
  }
}

/**
 * A body's first characters, as a string of their own: a slice of a long string keeps the whole
 * string alive (V8 makes it a view), and the journal would hold every large answer it saw, 360 KB
 * for each request of the OpenAPI document. The copy goes through UTF-16, which keeps every code
 * unit as it is. Bytes are decoded only as far as those characters go (a UTF-16 unit takes at most
 * 3 bytes of UTF-8).
 */
function cut(body: string | Buffer | undefined): string | null {
  if (body === undefined || body.length === 0) return null
  const text = typeof body === 'string' ? body : body.toString('utf8', 0, 3 * MAX_BODY_LENGTH)
  return text.length <= MAX_BODY_LENGTH ? text : Buffer.from(text.slice(0, MAX_BODY_LENGTH), 'utf16le').toString('utf16le')
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
