import { COMPARED_HEADERS } from './compare.js'
import { createPacer, realSleep, type Sleep } from './pacer.js'

/**
 * One side of a comparison, the local sandbox or the hosted one: a base URL and a key, nothing else
 * (the hosted side is just another URL). Requests are paced at `--rate`; a 429 is waited out
 * (`Retry-After`, else 1 s) and sent again, at most 3 times, and counted.
 */

/** How a request authenticates: with the side's key, without `Authorization`, or with a malformed one. */
export type Auth = 'key' | 'none' | 'malformed'

export interface SideRequest {
  method: string
  /** From `/v1`, without the query. */
  path: string
  query?: Record<string, string | string[]>
  body?: unknown
  /** The body's media type when it is not JSON (a replayed form body): the body, a string, is sent as it is. */
  contentType?: string
  /** Extra request headers (`Idempotency-Key`). */
  headers?: Record<string, string>
  auth: Auth
}

export interface SideAnswer {
  status: number
  /** The compared headers the answer had, lower-case. */
  headers: Record<string, string>
  /** Parsed JSON, or the text when it is not JSON, or null when empty. */
  body: unknown
  /** 429s waited out before this answer. */
  retries429: number
}

export type SideName = 'local' | 'hosted'

export interface Side {
  name: SideName
  /** Where `/v1` is: `https://sandbox.example.com` for `https://sandbox.example.com/v1`. */
  root: string
  send(request: SideRequest): Promise<SideAnswer>
}

/** The side cannot be reached at all (refused, reset, timed out): the run stops with exit code 2. */
export class SideUnreachableError extends Error {
  override name = 'SideUnreachableError'
  constructor(
    readonly side: SideName,
    message: string,
  ) {
    super(message)
  }
}

const MAX_429_RETRIES = 3
const REQUEST_TIMEOUT_MS = 30_000
/** `parity:parity` as Basic credentials: an Authorization header that is not a bearer key. */
const MALFORMED_AUTHORIZATION = 'Basic cGFyaXR5OnBhcml0eQ=='

export interface SideOptions {
  name: SideName
  root: string
  apiKey: string
  rate: number
  sleep?: Sleep
  fetch?: typeof fetch
}

export function createSide(options: SideOptions): Side {
  const sleep = options.sleep ?? realSleep
  const pace = createPacer(options.rate, { sleep })
  const doFetch = options.fetch ?? fetch
  const root = options.root.replace(/\/+$/, '')
  return {
    name: options.name,
    root,
    async send(request) {
      const url = `${root}${request.path}${queryString(request.query)}`
      const init = requestInit(request, options.apiKey)
      for (let retries = 0; ; retries++) {
        await pace()
        let res: Response
        try {
          res = await doFetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) })
        } catch (error) {
          throw new SideUnreachableError(options.name, `${request.method} ${root}${request.path}: ${reasonOf(error)}`)
        }
        if (res.status === 429 && retries < MAX_429_RETRIES) {
          await res.arrayBuffer()
          await sleep(retryAfterMs(res.headers.get('retry-after')))
          continue
        }
        return { status: res.status, headers: comparedHeaders(res.headers), body: parseBody(await res.text()), retries429: retries }
      }
    },
  }
}

function requestInit(request: SideRequest, apiKey: string): RequestInit {
  const headers: Record<string, string> = { accept: 'application/json', ...request.headers }
  if (request.auth === 'key') headers.authorization = `Bearer ${apiKey}`
  if (request.auth === 'malformed') headers.authorization = MALFORMED_AUTHORIZATION
  if (request.body === undefined) return { method: request.method, headers }
  const raw = request.contentType !== undefined && !/json/i.test(request.contentType) && typeof request.body === 'string'
  headers['content-type'] = request.contentType ?? 'application/json'
  return { method: request.method, headers, body: raw ? (request.body as string) : JSON.stringify(request.body) }
}

export function queryString(query: SideRequest['query']): string {
  if (!query || Object.keys(query).length === 0) return ''
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(query)) for (const item of Array.isArray(value) ? value : [value]) params.append(name, item)
  return `?${params}`
}

/** `Retry-After` in seconds (or an HTTP date); 1 s when absent or unreadable. */
export function retryAfterMs(header: string | null): number {
  if (header === null || header.trim() === '') return 1000
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000
  const at = Date.parse(header)
  return Number.isNaN(at) ? 1000 : Math.max(0, at - Date.now())
}

function comparedHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {}
  for (const name of COMPARED_HEADERS) {
    const value = headers.get(name)
    if (value !== null) out[name] = value
  }
  return out
}

export function parseBody(text: string): unknown {
  if (text === '') return null
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}

/** What went wrong with a connection, in its own words: `connect ECONNREFUSED 127.0.0.1:4400`. */
export function reasonOf(error: unknown): string {
  const cause = (error as { cause?: { message?: string; code?: string } }).cause
  return cause?.message ?? cause?.code ?? (error as Error).message
}
