import type { ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { ApiError } from '../errors.js'
import { setIn, type DeferredHeaders } from './answer-headers.js'
import type { CursorResult, ListResult } from './route.js'
import { jsonString, paymentJson, PresentedPayment } from '../payment-json.js'
import { PlainResponse } from './plain-messages.js'

const JSON_TYPE = 'application/json; charset=utf-8'

export interface Rendered {
  status: number
  text: string
  headers?: Record<string, string>
}

/**
 * An answer encoded once and sent as it is to every request (the OpenAPI document, 360 KB): a
 * Buffer goes to the socket without a copy, where a string is measured and encoded anew each time.
 */
export interface Encoded {
  status: number
  bytes: Buffer
}

/** `{data, request_id}`, or the bare resource with `--envelope bare` (CONTRACT.md section 2). */
export function renderResource(status: number, resource: unknown, requestId: string, envelope: 'wrapped' | 'bare'): Rendered {
  // A payment's text, written once for its event and its answer (src/payment-json.ts).
  if (resource instanceof PresentedPayment) {
    const text = paymentJson(resource)
    return { status, text: envelope === 'bare' ? text : `{"data":${text},"request_id":${jsonString(requestId)}}` }
  }
  const body = envelope === 'bare' ? resource : { data: resource, request_id: requestId }
  return { status, text: JSON.stringify(body) }
}

/** Lists keep `data` and `pagination` in both envelope modes. */
export function renderList(result: ListResult<unknown>, page: { limit: number; offset: number }, requestId: string): Rendered {
  const pagination = { limit: page.limit, offset: page.offset, total: result.total, has_more: page.offset + result.items.length < result.total }
  return { status: 200, text: JSON.stringify({ data: result.items, pagination, ...result.extra, request_id: requestId }) }
}

/** A list read from a cursor: `{data, has_more, …extra, request_id}`, no page numbers. */
export function renderCursorList(result: CursorResult<unknown>, requestId: string): Rendered {
  return { status: 200, text: JSON.stringify({ data: result.items, has_more: result.hasMore, ...result.extra, request_id: requestId }) }
}

/** Any thrown value → the one error wire shape. Unknown errors are a 500 that never shows its stack. */
export function renderError(error: unknown, requestId: string, log: (error: unknown) => void): Rendered {
  if (error instanceof ApiError) {
    return { status: error.status, text: JSON.stringify({ error: error.toBody(), request_id: requestId }), headers: error.headers }
  }
  log(error)
  const internal = new ApiError('internal_error', `An internal error occurred; it has been logged with request id ${requestId}.`)
  return { status: 500, text: JSON.stringify({ error: internal.toBody(), request_id: requestId }) }
}

/** A response's locals as `send` sees them: the deferred headers, and where it notes the answer's length in bytes. */
interface AnswerLocals {
  locals?: NonNullable<DeferredHeaders['locals']> & { responseBytes?: number }
}

export function send(res: ServerResponse, rendered: Rendered | Encoded, extraHeaders?: Record<string, string>): void {
  if (res.headersSent) return
  const body = 'bytes' in rendered ? rendered.bytes : rendered.text
  const more = 'headers' in rendered ? rendered.headers : undefined
  const locals = (res as AnswerLocals).locals
  const deferred = locals?.headers
  const length = Buffer.byteLength(body)
  // For the request journal: an answer whose bytes are as many as its characters is ASCII, kept as latin1.
  if (locals) locals.responseBytes = length
  if (deferred === undefined) {
    res.statusCode = rendered.status
    res.setHeader('Content-Type', JSON_TYPE)
    res.setHeader('Content-Length', length)
    for (const headers of [more, extraHeaders]) {
      if (headers) for (const name in headers) res.setHeader(name, headers[name]!)
    }
    endWith(res, body)
    return
  }
  // The fast path's headers, all at once (answer-headers.ts), in the order setHeader would give them.
  locals!.headers = undefined
  deferred.push('Content-Type', JSON_TYPE, 'Content-Length', String(length))
  if (more) for (const name in more) setIn(deferred, name, more[name]!)
  if (extraHeaders) for (const name in extraHeaders) setIn(deferred, name, extraHeaders[name]!)
  res.writeHead(rendered.status, deferred)
  endWith(res, body)
}

/**
 * `res.end(body)`, in one write to the socket where it can be. node's `end(body)` corks the socket,
 * queues the head and body as one string, then always queues an empty chunk after it, so every
 * answer went out through `writev` of two chunks (node's C++ reads each chunk and its encoding's
 * name through the V8 API before encoding). Corked by us, `write` queues the same string, `uncork`
 * sends it alone (a plain `write` of one string), and `end()` then has nothing left to send unless
 * the kernel took less than all of it. The same bytes on the wire, and the same one syscall; 75 →
 * 57 µs of server CPU a POST in a bare node:http server answering as `send` does, 0.90-0.95× a
 * sandbox's POST (issue 33, round 8, docs/benchmarks.md). A Buffer (an encoded
 * answer) goes out as before, its head a chunk of its own either way; so does an answer whose
 * response has no socket yet (a pipelined one waiting for its turn) or whose socket is corked, and
 * one whose `end` something has wrapped to see or hold the answer (`--durability strict` holds it
 * until the data file is fsynced, durable-answers.ts): the body must go through that `end`. The
 * sandbox's own layer's response (plain-messages.ts) writes its head and body in one write anyway.
 */
function endWith(res: ServerResponse, body: string | Buffer): void {
  const socket = res.socket as Socket | null
  if (res instanceof PlainResponse || typeof body !== 'string' || socket === null || socket.writableCorked !== 0 || Object.hasOwn(res, 'end')) {
    res.end(body)
    return
  }
  socket.cork()
  try {
    res.write(body)
  } finally {
    // Never left corked: the connection's later answers would wait behind it.
    socket.uncork()
  }
  res.end()
}
