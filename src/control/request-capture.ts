import type { Request, Response } from 'express'
import type { KeptBody, KeptRequest } from './journal-ring.js'

/**
 * What the request journal keeps of one `/v1` request, taken once it has been answered (or
 * dropped): bounded whatever the client sends, and never a whole key.
 */

/** Long query strings and keys are cut: the journal must stay small whatever clients send. */
const MAX_QUERY_LENGTH = 500
const MAX_IDEMPOTENCY_KEY_LENGTH = 255
/** Headers past this many characters (names and values) are not kept; node takes at most 16 KB of them. */
export const HEADER_CHARACTERS = 8 * 1024
/** Distinct Authorization headers whose masked forms are kept. */
const MASKED_KEYS = 256

/** The masked forms of one Authorization header: the key alone (`api_key`) and the header (`Bearer sk_test_…_key`). */
interface Masked {
  key: string | null
  header: string
}

export type CapturedRequest = Omit<KeptRequest, 'seq' | 'accountId'>

export interface RequestCapture {
  /** The request as the journal keeps it, bodies to `bodyBytes` each; undefined when it is not a `/v1` request. */
  capture(req: Request, res: Response, info: { requestId: string; durationMs: number; at: string }, bodyBytes: number): CapturedRequest | undefined
}

export function createRequestCapture(): RequestCapture {
  const masks = new Map<string, Masked>()

  /** The same strings for every request that sends the same header. */
  function masked(authorization: string): Masked {
    let found = masks.get(authorization)
    if (found === undefined) {
      found = maskAuthorization(authorization)
      // Keys are few; a client sending a new one each time only empties the cache now and then.
      if (masks.size >= MASKED_KEYS) masks.clear()
      masks.set(authorization, found)
    }
    return found
  }

  return {
    capture(req, res, info, bodyBytes) {
      const url = req.originalUrl || req.url
      const queryAt = url.indexOf('?')
      // A URL without a query (most requests) is kept as the string it is.
      const path = queryAt === -1 ? url : url.slice(0, queryAt)
      if (path !== '/v1' && !path.startsWith('/v1/')) return undefined
      const query = queryAt === -1 ? '' : url.slice(queryAt + 1)
      const idempotencyKey = req.headers['idempotency-key']
      const authorization = req.headers.authorization
      const auth = authorization === undefined ? undefined : masked(authorization)
      const headers = keptHeaders(req.rawHeaders, auth)
      const request = keep(res.locals.requestBody as Buffer | undefined, bodyBytes)
      const response = keep(res.locals.responseBody as string | Buffer | undefined, bodyBytes)
      return {
        id: info.requestId,
        method: req.method,
        path,
        query: query ? maskQuery(query).slice(0, MAX_QUERY_LENGTH) : null,
        status: res.writableFinished ? res.statusCode : 0,
        durationMs: Math.round(info.durationMs * 10) / 10,
        apiKey: auth?.key ?? null,
        idempotencyKey: typeof idempotencyKey === 'string' ? idempotencyKey.slice(0, MAX_IDEMPOTENCY_KEY_LENGTH) : null,
        replayed: res.getHeader('Idempotent-Replayed') === 'true',
        fault: (res.locals.fault as string | undefined) ?? null,
        at: info.at,
        headers: headers.text,
        requestBody: request.body,
        responseBody: response.body,
        truncated: headers.cut || request.cut || response.cut,
        bytes: headers.text.length + request.bytes + response.bytes,
      }
    },
  }
}

/**
 * The headers as sent, in one string (one object for the collector to keep instead of a dozen):
 * names as sent (read in lower case), secrets masked, cookies replaced by `…`, and no more than
 * HEADER_CHARACTERS of them.
 */
function keptHeaders(raw: readonly string[], auth: Masked | undefined): { text: string; cut: boolean } {
  const parts: string[] = []
  let characters = 0
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!
    let value = raw[i + 1]!
    // Only names of these lengths can be secrets: most headers are let through without lowering their case.
    if (name.length === 13 || name.length === 19 || name.length === 6) {
      const lower = name.toLowerCase()
      if (lower === 'authorization') value = auth?.header ?? '…'
      else if (lower === 'proxy-authorization') value = maskAuthorization(value).header
      else if (lower === 'cookie') value = '…'
    }
    characters += name.length + value.length
    if (characters > HEADER_CHARACTERS) return { text: parts.join('\0'), cut: true }
    parts.push(name, value)
  }
  return { text: parts.join('\0'), cut: false }
}

/** `name\0value\0…` (as keptHeaders writes it) → `{name: value}`, names in lower case, repeated ones joined with ", ". */
export function headersOf(text: string): Record<string, string> {
  const headers: Record<string, string> = {}
  if (text === '') return headers
  const parts = text.split('\0')
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const name = parts[i]!.toLowerCase()
    headers[name] = name in headers ? `${headers[name]}, ${parts[i + 1]}` : parts[i + 1]!
  }
  return headers
}

/**
 * What a body costs to keep is what it already costs: one up to `limit` bytes is kept as the bytes
 * or text the request already has, and decoded only when read. A longer one is cut now, as a copy of
 * its own at a character's boundary, so that the journal never holds a large answer whole (a slice
 * would keep the whole alive: V8 makes a slice of a long string a view of it, and `subarray` shares
 * the bytes). A UTF-16 unit takes at most 3 bytes of UTF-8, so text of up to a third of `limit`
 * characters needs no counting.
 */
function keep(body: string | Buffer | undefined, limit: number): { body: KeptBody; bytes: number; cut: boolean } {
  if (body === undefined || body.length === 0) return { body: null, bytes: 0, cut: false }
  if (typeof body === 'string') {
    if (body.length * 3 <= limit || Buffer.byteLength(body) <= limit) return { body, bytes: body.length, cut: false }
    const bytes = cutBytes(Buffer.from(body.slice(0, limit)), limit)
    return { body: bytes, bytes: bytes.length, cut: true }
  }
  if (body.length <= limit) return { body, bytes: body.length, cut: false }
  const bytes = cutBytes(body, limit)
  return { body: bytes, bytes: bytes.length, cut: true }
}

/** A copy of the first `limit` bytes of UTF-8, less the start of a character that did not fit. */
function cutBytes(bytes: Buffer, limit: number): Buffer {
  let end = Math.min(limit, bytes.length)
  // Back from a continuation byte (10xxxxxx) to the lead byte of its character, which then does not fit.
  if (end < bytes.length) while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--
  return Buffer.from(bytes.subarray(0, end))
}

/** A kept body, as read. */
export const bodyText = (body: KeptBody): string | null => (body === null ? null : typeof body === 'string' ? body : body.toString('utf8'))

/** `sk_test_…_key`: the key's kind and, for keys of 12+ characters, its last 4, as the journal shows them. */
function mask(key: string): string {
  const prefix = /^(sk|rk)_(test|live)_/.exec(key)?.[0] ?? ''
  return `${prefix}…${key.length >= 12 ? key.slice(-4) : ''}`
}

/** `Bearer sk_test_…_key`; another scheme keeps its name only (`Basic …`). */
export function maskAuthorization(authorization: string): Masked {
  const bearer = /^Bearer +(\S+)\s*$/i.exec(authorization)?.[1]
  if (bearer) return { key: mask(bearer), header: `Bearer ${mask(bearer)}` }
  const scheme = /^(\S+)\s/.exec(authorization)?.[1]
  return { key: null, header: scheme ? `${scheme} …` : '…' }
}

/** A key in the query string (`?api_key=`) is masked like the header's. */
export function maskQuery(query: string): string {
  return query.replace(/(^|&)(api_key=)([^&]*)/gi, (_match, start: string, name: string, value: string) => `${start}${name}${mask(decodeSafely(value))}`)
}

function decodeSafely(value: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}
