import type { IncomingMessage } from 'node:http'
import { ApiError, echoId } from '../../errors.js'
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../schemas/json-depth.js'

export type RawBody =
  | { kind: 'empty' }
  | { kind: 'json'; text: string; value: unknown }
  | { kind: 'form'; text: string; value: Record<string, unknown> }
  | { kind: 'invalid_json'; text: string; message: string }

/** A request without a body. */
export const EMPTY_BODY: RawBody = Object.freeze({ kind: 'empty' })

/**
 * The body's bytes as received, within the size limit (413), handed to `done` once all have come
 * (a callback, not a promise: one request in a test suite's loop has no time to spare). A signed
 * request's `Content-Digest` is checked against these before the body is read as JSON.
 */
export function readBody(req: IncomingMessage, limit: number, done: (error: ApiError | Error | undefined, bytes?: Buffer) => void): void {
  const declared = Number(req.headers['content-length'] ?? NaN)
  if (declared > limit) return done(tooLarge(limit))
  const chunks: Buffer[] = []
  let size = 0
  let finished = false
  const finish = (error: Error | undefined, bytes?: Buffer) => {
    if (finished) return
    finished = true
    done(error, bytes)
  }
  req.on('data', (chunk: Buffer) => {
    size += chunk.length
    if (size > limit) {
      req.removeAllListeners('data')
      req.resume() // discard the rest; the connection closes after the answer
      finish(tooLarge(limit))
      return
    }
    chunks.push(chunk)
  })
  // A body that came in one chunk (as most do) is that chunk: node made it for this request, and concat would copy it.
  req.on('end', () => finish(undefined, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)))
  req.on('error', (error) => finish(error))
}

/**
 * Received bytes → the body as the route sees it, enforcing the media type (415). Invalid JSON is
 * returned as such, not thrown: idempotency checks come before body validation (CONTRACT.md
 * section 13), and the error is raised there.
 */
export function interpretBody(bytes: Buffer, contentType: string | undefined, lenient: boolean): RawBody {
  const text = bytes.toString('utf8')
  if (text.length === 0) return EMPTY_BODY

  // The type as every JSON client sends it, without splitting it into parts to compare.
  const type = contentType === 'application/json' ? contentType : (contentType ?? '').split(';')[0]!.trim().toLowerCase()
  if (type === 'application/json' || type.endsWith('+json')) {
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) return { kind: 'invalid_json', text, message: TOO_DEEP }
    try {
      return { kind: 'json', text, value: JSON.parse(text) }
    } catch {
      return { kind: 'invalid_json', text, message: NOT_JSON }
    }
  }
  if (type === 'application/x-www-form-urlencoded') {
    if (!lenient) {
      throw new ApiError('unsupported_media_type', 'Form-encoded bodies are accepted only when the sandbox runs with --lenient; send JSON with Content-Type: application/json.')
    }
    return { kind: 'form', text, value: formToObject(new URLSearchParams(text)) }
  }
  throw new ApiError('unsupported_media_type', `Content-Type ${type ? `'${echoId(type)}'` : '(none)'} is not supported; send JSON with Content-Type: application/json.`)
}

const NOT_JSON = 'The request body is not valid JSON. Check for trailing commas, unquoted keys or single quotes.'
const TOO_DEEP = `The request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep; no request needs that many.`

function tooLarge(limit: number): ApiError {
  return new ApiError('body_too_large', `The request body exceeds the limit of ${limit} bytes.`, { headers: { Connection: 'close' } })
}

/** `amount=10&metadata[order]=42` → `{ amount: '10', metadata: { order: '42' } }`. */
function formToObject(params: URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [name, value] of params) {
    const nested = /^(\w+)\[(\w+)\]$/.exec(name)
    if (nested) {
      const parent = (out[nested[1]!] ??= {}) as Record<string, unknown>
      if (typeof parent === 'object') parent[nested[2]!] = value
    } else out[name] = value
  }
  return out
}
