import type { ServerOptions } from 'node:http'
import { isIP, type Server, type Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import { ApiError } from '../errors.js'
import { writeRawError } from '../raw-answer.js'
import { monotonicMs } from '../clock.js'

/**
 * Protection of the HTTP server against slow and hostile clients (see docs/reliability.md):
 * deadlines for receiving a request (`--headers-timeout`, `--request-timeout`; node answers 408 and
 * closes), and a deadline for answers a client leaves unread (`--send-timeout`), so that a client
 * that never reads cannot make the server hold its answers in memory.
 */
export interface ServerGuardConfig {
  headersTimeout: number
  requestTimeout: number
  sendTimeout: number
}

/** How often deadlines are checked; node's default (30 s) would let a 10 s deadline run to 40 s. */
const CHECK_INTERVAL_MS = 1000

export function serverOptions(config: ServerGuardConfig): ServerOptions {
  // node refuses a headers deadline longer than the whole request's.
  const requestTimeout = Math.max(config.requestTimeout, config.headersTimeout)
  return {
    headersTimeout: config.headersTimeout,
    requestTimeout,
    connectionsCheckingInterval: Math.min(CHECK_INTERVAL_MS, config.headersTimeout),
  }
}

/** node's net.Server keeps this name (setupListenHandle) for code that wraps it: binds and listens, no lookup, no cluster. */
interface DirectListen {
  _listen2?(address: string, port: number, addressType: number, backlog?: number, fd?: number, flags?: number): void
}

/**
 * `server.listen(port, host)` for a host that is an IP address, as node itself ends up doing it
 * (binding and listening in `_listen2`, then 'listening' or 'error' in the next tick), without the
 * two detours node's public `listen` takes first: loading `node:dns` to look up an address that
 * needs no lookup, and `node:cluster` (with child_process, dgram and what they load) to learn that
 * this process is not a cluster worker. Those loads were 104 KB of a cold start's young allocation
 * (115 -> 12 KB from `listen` to 'listening') and 6.9 M instructions (10.6 -> 3.6 M, callgrind)
 * (issue 33, round 9); a bare node:http server pays them too. A host name, a cluster worker (whose
 * listen asks the primary for its handle) and a node without `_listen2` go through `listen` as
 * before. Errors are node's own (EADDRINUSE from the same call, in the same words).
 */
export function listenOn(server: Server, port: number, host: string): void {
  const direct = (server as Server & DirectListen)._listen2
  const family = process.env.NODE_UNIQUE_ID === undefined && typeof direct === 'function' ? ipFamily(host) : 0
  if (family === 0) {
    server.listen(port, host)
    return
  }
  direct!.call(server, host, port, family, undefined, undefined, 0)
}

/**
 * node's `isIP(host)`: 4, 6, or 0 for a host name. A dotted quad is read here by hand, as node's
 * `isIPv4` accepts one (four decimal numbers to 255, none with a leading zero): `isIPv4` is a regular
 * expression that V8 compiles at its first use: a first call 0.25 ms in a fresh process, this one's
 * 0.05 ms, for a start that listens on 127.0.0.1 (issue 33, round 12). Every IPv6 address has a
 * colon, so a host without one that is no dotted quad is a name.
 */
export function ipFamily(host: string): 0 | 4 | 6 {
  if (isDottedQuad(host)) return 4
  return host.includes(':') ? (isIP(host) as 0 | 6) : 0
}

function isDottedQuad(host: string): boolean {
  let parts = 0
  let value = 0
  let digits = 0
  // One step past the end, read as a dot, closes the last part.
  for (let i = 0; i <= host.length; i++) {
    const code = i < host.length ? host.charCodeAt(i) : DOT
    if (code === DOT) {
      if (digits === 0 || value > 255 || ++parts > 4) return false
      value = 0
      digits = 0
    } else if (code >= ZERO && code <= ZERO + 9) {
      // A second digit after a leading zero ("01"), or a fourth digit.
      if ((digits > 0 && value === 0) || ++digits > 3) return false
      value = value * 10 + (code - ZERO)
    } else return false
  }
  return parts === 4
}

const DOT = 0x2e
const ZERO = 0x30

/**
 * Closes connections whose answers have waited unread for `sendTimeout`: bytes are queued for the
 * client and none has gone out since. Answers that flow, however slowly, are never cut, and neither
 * is a request that takes long to answer (an advance waiting for webhook receivers): only output
 * the client does not take counts. Returns the stop function for `close()`.
 */
export function guardUnreadAnswers(server: Server, config: ServerGuardConfig): () => void {
  const watched = new Map<Socket, { written: number; since: number }>()
  // bytesWritten counts what is still queued too; what has really gone out is the difference.
  const sent = (socket: Socket) => socket.bytesWritten - socket.writableLength
  server.on('connection', (socket: Socket) => {
    watched.set(socket, { written: sent(socket), since: monotonicMs() })
    socket.once('close', () => watched.delete(socket))
  })
  const timer = setInterval(() => {
    const now = monotonicMs()
    for (const [socket, seen] of watched) {
      const written = sent(socket)
      if (socket.writableLength === 0 || written !== seen.written) {
        seen.written = written
        seen.since = now
      } else if (now - seen.since >= config.sendTimeout) socket.destroy()
    }
  }, Math.min(CHECK_INTERVAL_MS, config.sendTimeout))
  timer.unref()
  return () => clearInterval(timer)
}

/**
 * What node refuses before express sees a request (a deadline passed, headers too large, a header
 * value with CR or LF, anything that is not HTTP) is answered in the usual error shape, and the
 * connection closed: node's own answer would be a bare status line.
 */
export function answerClientErrors(server: Server, nextRequestId: () => string): void {
  server.on('clientError', (error: Error & { code?: string }, socket: Duplex) => {
    // Nothing to answer to, or an answer already under way.
    if (error.code === 'ECONNRESET' || !socket.writable || (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) {
      socket.destroy()
      return
    }
    writeRawError(socket, describeClientError(error.code), nextRequestId())
  })
}

function describeClientError(code: string | undefined): ApiError {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError('request_timeout', 'The request was not received in time (see --headers-timeout and --request-timeout); send the headers and the body without pausing.')
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError('headers_too_large', 'The request headers are too large (16 KB in all at most); send shorter headers.')
    default:
      return new ApiError('malformed_request', 'The request is not valid HTTP/1.1 (a header value with CR, LF or another control character, or a malformed request line); fix the client that sent it.')
  }
}
