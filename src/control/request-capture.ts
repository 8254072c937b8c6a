import type { Request, Response } from 'express'
import { boundedCache } from '../bounded-cache.js'

/**
 * What the request journal keeps of one `/v1` request, taken once it has been answered (or
 * dropped): bounded whatever the client sends (the ring cuts the bodies), and never a whole key.
 */

/** Long query strings and keys are cut: the journal must stay small whatever clients send. */
const MAX_QUERY_LENGTH = 500
const MAX_IDEMPOTENCY_KEY_LENGTH = 255
/** Headers past this many characters (names and values) are not kept; node takes at most 16 KB of them. */
export const HEADER_CHARACTERS = 8 * 1024
/** Distinct Authorization headers whose masked forms are kept. */
const MASKED_KEYS = 256

/**
 * How the head of a request (its id, path, query, idempotency key and headers) is kept: as latin1,
 * one byte a character, as HTTP gives them, the cheapest text to write; a mask's ellipsis, the one
 * character beyond latin1, as this control character, which none of them can hold. A head with one
 * character beyond latin1 was a two-byte string, slower to join and to write.
 */
export const KEPT_ELLIPSIS = '\x01'
const keptForm = (text: string) => (text.includes('…') ? oneByte(text.replaceAll('…', KEPT_ELLIPSIS)) : text)

/**
 * The same characters as a one-byte string. V8 keeps what `replaceAll` makes of a two-byte string
 * two-byte, though no character needs it now: the masked Authorization header made every request's
 * head a two-byte string, twice the bytes to join and narrowed again by the latin1 write (issue 33).
 * Every character here is latin1 already (the head is written as latin1).
 */
const oneByte = (text: string) => Buffer.from(text, 'latin1').toString('latin1')

/** The masked forms of one Authorization header: the key alone (`api_key`), the header (`Bearer sk_test_…_key`), and the header as kept. */
interface Masked {
  key: string | null
  header: string
  kept: string
}

/** A request as captured (request-capture.ts), about to be kept. */
export interface CapturedRequest {
  /** Its id, path, query ('' without one), idempotency key ('' without one), then its headers' names and values, secrets masked: joined by NUL (which none of them can hold). */
  head: string
  hasIdempotencyKey: boolean
  method: string
  /** 0 when no answer was sent. */
  status: number
  durationMs: number
  atMs: number
  apiKey: string | null
  replayed: boolean
  fault: string | null
  headersCut: boolean
  requestBody: Buffer | undefined
  responseBody: string | Buffer | undefined
  /** The answer's text is all ASCII (as many bytes as characters, as `send` measured it): written as latin1. */
  responseAscii: boolean
}

export interface RequestCapture {
  /** The request as the journal keeps it; undefined when it is not a `/v1` request. */
  capture(req: Request, res: Response, timing: { requestId: string; durationMs: number }, atMs: number): CapturedRequest | undefined
}

export function createRequestCapture(): RequestCapture {
  /** The same strings for every request that sends the same header. */
  const masked = boundedCache(MASKED_KEYS, maskAuthorization)

  return {
    capture(req, res, timing, atMs) {
      const url = req.originalUrl || req.url
      const queryAt = url.indexOf('?')
      const path = queryAt === -1 ? url : url.slice(0, queryAt)
      if (path !== '/v1' && !path.startsWith('/v1/')) return undefined
      const query = queryAt === -1 ? '' : url.slice(queryAt + 1)
      const idempotencyKey = req.headers['idempotency-key']
      const authorization = req.headers.authorization
      const auth = authorization === undefined ? undefined : masked(authorization)
      const responseBody = nonEmpty(res.locals.responseBody as string | Buffer | undefined)
      let head = `${timing.requestId}\0${path}\0${query ? keptForm(maskQuery(query).slice(0, MAX_QUERY_LENGTH)) : ''}\0${typeof idempotencyKey === 'string' ? idempotencyKey.slice(0, MAX_IDEMPOTENCY_KEY_LENGTH) : ''}`
      // The headers as sent, name then value, each after a NUL: names as sent (read in lower case),
      // secrets masked, cookies replaced by `…`, no more than HEADER_CHARACTERS of them. Added to one
      // text here rather than pushed onto a list the ring then joined: the list grew twice a request,
      // and its join cost more than the additions (issue 33).
      const raw = req.rawHeaders
      let characters = 0
      let headersCut = false
      for (let i = 0; i + 1 < raw.length; i += 2) {
        const name = raw[i]!
        const value = keptHeader(name, raw[i + 1]!, auth)
        characters += name.length + value.length
        if (characters > HEADER_CHARACTERS) {
          headersCut = true
          break
        }
        head += `\0${name}\0${value}`
      }
      return {
        head,
        hasIdempotencyKey: typeof idempotencyKey === 'string',
        method: req.method,
        status: res.writableFinished ? res.statusCode : 0,
        durationMs: Math.round(timing.durationMs * 10) / 10,
        atMs,
        apiKey: auth?.key ?? null,
        replayed: res.locals.replayOf !== undefined,
        fault: (res.locals.fault as string | undefined) ?? null,
        headersCut,
        requestBody: nonEmpty(res.locals.requestBody as Buffer | undefined),
        responseBody,
        responseAscii: typeof responseBody === 'string' && res.locals.responseBytes === responseBody.length,
      }
    },
  }
}

const nonEmpty = <T extends string | Buffer>(body: T | undefined): T | undefined => (body === undefined || body.length === 0 ? undefined : body)

/** A header's value as the journal keeps it: a secret masked, a cookie replaced by `…`. */
function keptHeader(name: string, value: string, auth: Masked | undefined): string {
  // Only names of these lengths can be secrets: most headers are let through without lowering their case.
  if (name.length !== 13 && name.length !== 19 && name.length !== 6) return value
  // The Authorization header as clients spell it, every request: no call into V8's case conversion.
  const lower = name === 'authorization' || name === 'Authorization' ? 'authorization' : name.toLowerCase()
  if (lower === 'authorization') return auth?.kept ?? KEPT_ELLIPSIS
  if (lower === 'proxy-authorization') return maskAuthorization(value).kept
  if (lower === 'cookie') return KEPT_ELLIPSIS
  return value
}

/** The headers' names and values from `parts[from]` on → `{name: value}`, names in lower case, repeated ones joined with ", ". */
export function headersOf(parts: readonly string[], from: number): Record<string, string> {
  const headers: Record<string, string> = {}
  for (let i = from; i + 1 < parts.length; i += 2) {
    const name = parts[i]!.toLowerCase()
    headers[name] = name in headers ? `${headers[name]}, ${parts[i + 1]}` : parts[i + 1]!
  }
  return headers
}

/** `sk_test_…_key`: the key's kind and, for keys of 12+ characters, its last 4, as the journal shows them. */
function mask(key: string): string {
  const prefix = /^(sk|rk)_(test|live)_/.exec(key)?.[0] ?? ''
  return `${prefix}…${key.length >= 12 ? key.slice(-4) : ''}`
}

/** `Bearer sk_test_…_key`; another scheme keeps its name only (`Basic …`). */
export function maskAuthorization(authorization: string): Masked {
  const bearer = /^Bearer +(\S+)\s*$/i.exec(authorization)?.[1]
  const scheme = /^(\S+)\s/.exec(authorization)?.[1]
  const header = bearer ? `Bearer ${mask(bearer)}` : scheme ? `${scheme} …` : '…'
  return { key: bearer ? mask(bearer) : null, header, kept: keptForm(header) }
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
