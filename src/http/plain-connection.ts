import type { Server } from 'node:http'
import type { Server as NetServer, Socket } from 'node:net'
import type { LocatedRoute } from './app.js'
import { PlainRequest, PlainResponse, type ResponseOwner } from './plain-messages.js'
import { boundedCache } from '../bounded-cache.js'

/** What the layer needs of the app (src/http/app.ts): which requests a route object takes, and the listener's work for them. */
export interface PlainApp {
  locate(method: string, url: string): LocatedRoute | undefined
  serve(req: PlainRequest, res: PlainResponse, located: LocatedRoute, url: string): void
}

/**
 * The sandbox's own HTTP/1.1 layer in front of node:http (issue 33, round 11). `server` is a
 * node:net server, and every connection it accepts starts here. A request in the strict, common subset below, already whole in the bytes received,
 * for a route object (not express), goes through the same pipeline as one node parsed (the listener's
 * `serve`), with a request and response of the layer's own (plain-messages.ts) that write the bytes
 * node would write. Anything else (a request not whole yet, a body still to come, chunked, `Expect`,
 * an upgrade, HEAD or OPTIONS, a path for express, HTTP/1.0, a header node might read otherwise,
 * anything malformed) hands the connection to node:http for good, from that request on: once the
 * layer's answers on it have gone out, the bytes not answered go back to the socket and node's own
 * server takes it, so node answers as it always has (its 400, 408 and 431, the sandbox's
 * clientError answers, its timeouts, keep-alive). node's server (`options.nodeServer`) is made, and
 * node:http loaded, with the first connection handed over: a start and a test's API requests need
 * none of it, and loading it and making the server was about 1.25 ms of a cold start.
 *
 * The subset: `METHOD SP origin-form SP HTTP/1.1`, the method in capitals, the target's characters
 * those of a path and query (no '#', no space, nothing outside ASCII); header lines `token ":" OWS
 * value`, the value's characters visible ASCII, space and tab, nothing trailing; every name once;
 * `Host`; at most one `Content-Length`, digits only; no `Transfer-Encoding`, `Expect` or `Upgrade`;
 * `Connection` absent, `keep-alive` or `close`; a head of 8 KB at most (node takes 16 KB).
 *
 * node:http's own work for the sandbox's request and answer was 10.5 µs of a POST's server CPU
 * more than a minimal layer's (bench/post-floor.mjs, issue 33, round 10); see docs/benchmarks.md,
 * "Issue 33, round 11: post-layer", for what this layer saves.
 */
export function servePlainConnections(server: NetServer, options: PlainServerOptions, app: PlainApp, onRequest: () => void): PlainConnections {
  const live = new Set<PlainConnection>()
  let nodeServer: Server | undefined
  const handOver = (socket: Socket) => {
    if (nodeServer === undefined) {
      nodeServer = options.nodeServer()
      // node tracks a server's connections (their deadlines, so the 408s; closeAllConnections) from
      // its 'listening' on (setupConnectionsTracking, lib/_http_server.js). This one never listens
      // itself: `server` does, and hands it its connections.
      nodeServer.emit('listening')
    }
    nodeServer.emit('connection', socket)
  }
  const layer: Layer = { events: server, headersTimeout: options.headersTimeout, keepAliveTimeout: options.keepAliveTimeout ?? KEEP_ALIVE_TIMEOUT, app, onRequest, handOver, live }
  server.on('connection', (socket: Socket) => {
    live.add(new PlainConnection(layer, socket))
  })
  return {
    close() {
      for (const connection of live) connection.socket.destroy()
      if (nodeServer === undefined) return
      nodeServer.closeAllConnections()
      // Its deadline check's timer.
      nodeServer.close()
    },
  }
}

export interface PlainServerOptions {
  /** node's own server (node:http's `createServer`), made on the first connection the layer hands over. */
  nodeServer: () => Server
  /** `--headers-timeout`: a connection's first request must come whole within it, or node's 408. */
  headersTimeout: number
  /** An idle connection closes after it (and node's second more); node's server's default unless given (a test shortens it). */
  keepAliveTimeout?: number
}

/** What closing the server needs of the layer: net.Server's `close()` waits for every connection, and closes none. */
export interface PlainConnections {
  /** Destroys every connection, the layer's and those handed to node's server, and closes node's server if one was made. */
  close(): void
}

interface Layer {
  /** The listening server: the layer emits 'clientError' and 'timeout' on it, as node's server does on itself. */
  events: NetServer
  headersTimeout: number
  keepAliveTimeout: number
  app: PlainApp
  onRequest: () => void
  handOver: (socket: Socket) => void
  live: Set<PlainConnection>
}

/**
 * node:http's default `server.keepAliveTimeout` (5 s), which the layer's connections keep and its
 * answers announce (`Keep-Alive: timeout=5`); test/http/plain-layer.test.ts compares those bytes
 * with node's own server's.
 */
const KEEP_ALIVE_TIMEOUT = 5000
/** node adds this to `server.keepAliveTimeout` for the socket's own timeout (lib/_http_server.js, HTTP_SERVER_KEEP_ALIVE_TIMEOUT_BUFFER). */
const KEEP_ALIVE_TIMEOUT_BUFFER = 1000
/** The longest head the layer reads itself; node's limit is 16 KB (`--max-http-header-size`), so the layer never takes one node would refuse. */
const MAX_HEAD = 8192
/** Bytes held while the answers before them go out, before the layer stops reading (node's socket buffers hold 16 KB). */
const MAX_HELD = 65536
const HEAD_END = Buffer.from('\r\n\r\n', 'latin1')
/**
 * A head the layer takes, whole: the request line, then header lines, each value without trailing
 * whitespace. One test of the whole head, then the lines cut by position: a match of each line's
 * own pattern was 0.3 µs more a POST (a microbenchmark of the bench's head, 1.15 against 1.45 µs).
 */
const HEAD = /^[A-Z]{1,16} \/[A-Za-z0-9\-._~!$&'()*+,;=:@/?%]* HTTP\/1\.1(?:\r\n[!#$%&'*+\-.^_`|~0-9A-Za-z]+:[ \t]*(?:(?:[\x21-\x7e][\x20-\x7e\t]*)?[\x21-\x7e])?)*$/
const DIGITS = /^[0-9]{1,15}$/
/** What `parse` says of the bytes from an offset: wait for more, or give the connection to node. */
const INCOMPLETE = -1
const ODD = -2

/** Header names as clients spell them, in lower case, without a call into V8's case conversion each time. */
const lowerOf = boundedCache(256, (name: string) => name.toLowerCase())

class PlainConnection implements ResponseOwner {
  /** Bytes received and not yet taken: the start of a request still to come whole, or what node is to have. */
  private pending: Buffer | undefined = undefined
  /** The response that has the socket, and those waiting their turn (pipelined requests, answered in order). */
  private current: PlainResponse | null = null
  private readonly queue: PlainResponse[] = []
  /** The connection goes to node once the answers under way have gone out. */
  private handing = false
  /** Given to node (or closing after a last answer): the layer reads nothing more. */
  private done = false
  /** A request asked `Connection: close`: node's parser takes nothing after it. */
  private lastTaken = false
  /**
   * When the connection last became idle, its answers all gone out (Date.now(); -1: a request is
   * under way), and the timer that closes it after node's keep-alive timeout, made once and moved on
   * by hand where node sets the socket's timeout twice a request (off when a request comes, on when
   * its answer has gone).
   */
  private idleSince = -1
  private idleLimit = 0
  private idleTimer: NodeJS.Timeout | undefined = undefined
  private firstTimer: NodeJS.Timeout | undefined = undefined
  private readonly onData = (chunk: Buffer) => this.received(chunk)
  private readonly onEnd = () => this.ended()
  private readonly onClose = () => this.closed()
  private readonly onError = (error: Error) => this.failed(error)
  private readonly onIdleCheck = () => this.idleCheck()
  private readonly onDrain = () => this.resumeReading()
  /** Reading stopped (pauseReading). */
  private paused = false

  constructor(
    private readonly layer: Layer,
    readonly socket: Socket,
  ) {
    socket.on('data', this.onData)
    socket.on('end', this.onEnd)
    socket.on('close', this.onClose)
    socket.on('error', this.onError)
    // node times a connection's first request from its start (--headers-timeout); one that sends nothing gets its 408 as from node.
    const { headersTimeout } = layer
    if (headersTimeout > 0) this.firstTimer = setTimeout(() => this.firstRequestLate(), headersTimeout).unref()
  }

  keepAliveTimeout(): number {
    return this.layer.keepAliveTimeout
  }

  private received(chunk: Buffer): void {
    if (this.lastTaken) return this.dataAfterLast()
    if (this.done) return
    if (this.firstTimer !== undefined) {
      clearTimeout(this.firstTimer)
      this.firstTimer = undefined
    }
    this.idleSince = -1
    const bytes = this.pending === undefined ? chunk : Buffer.concat([this.pending, chunk])
    this.pending = undefined
    if (this.handing) {
      this.pending = bytes
      if (bytes.length > MAX_HELD) this.pauseReading(false)
      return
    }
    let offset = 0
    while (offset < bytes.length) {
      const next = this.take(bytes, offset)
      if (next >= 0) {
        offset = next
        if (this.done) return
        continue
      }
      this.pending = bytes.subarray(offset)
      if (next === ODD) this.handing = true
      if (this.current === null) return this.handOff()
      // Bytes that wait for the answers before them are held, but not without end: reading stops until the connection goes to node.
      if (this.pending.length > MAX_HELD) this.pauseReading(false)
      return
    }
    // As node's parserOnIncoming: a client that sends requests and does not read their answers is
    // not read from either until the answers drain, so that its requests are not made and held.
    if (this.socket.writableNeedDrain) this.pauseReading(true)
  }

  /** Stops reading the socket: until its answers drain, or until the connection goes to node. */
  private pauseReading(untilDrained: boolean): void {
    if (this.paused) return
    this.paused = true
    this.socket.pause()
    if (untilDrained) this.socket.once('drain', this.onDrain)
  }

  private resumeReading(): void {
    if (!this.paused) return
    this.paused = false
    this.socket.removeListener('drain', this.onDrain)
    this.socket.resume()
  }

  /** Takes the request at `from` if it is one of the layer's: dispatched, and the offset after it; or INCOMPLETE or ODD. */
  private take(bytes: Buffer, from: number): number {
    const end = bytes.indexOf(HEAD_END, from)
    if (end === -1) return bytes.length - from > MAX_HEAD ? ODD : INCOMPLETE
    if (end - from > MAX_HEAD) return ODD
    const head = bytes.toString('latin1', from, end)
    if (!HEAD.test(head)) return ODD
    const lines = head.split('\r\n')
    const requestLine = lines[0]!
    const space = requestLine.indexOf(' ')
    const method = requestLine.slice(0, space)
    // The target, between the method and ' HTTP/1.1'.
    const url = requestLine.slice(space + 1, requestLine.length - 9)
    const headers: Record<string, string> = {}
    const rawHeaders: string[] = []
    let length = 0
    let keepAlive = true
    let host = false
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i]!
      const colon = line.indexOf(':')
      const name = line.slice(0, colon)
      let at = colon + 1
      let code = line.charCodeAt(at)
      while (code === 32 || code === 9) code = line.charCodeAt(++at)
      const value = line.slice(at)
      const lower = lowerOf(name)
      // A name sent twice is joined, or the first kept, by rules of node's own: node reads those.
      if (headers[lower] !== undefined) return ODD
      switch (lower) {
        case 'host':
          host = true
          break
        case 'content-length':
          if (!DIGITS.test(value)) return ODD
          length = Number(value)
          break
        case 'connection': {
          const token = value.length === 10 || value.length === 5 ? value.toLowerCase() : ''
          if (token === 'close') keepAlive = false
          else if (token !== 'keep-alive') return ODD
          break
        }
        case 'transfer-encoding':
        case 'expect':
        case 'upgrade':
          return ODD
      }
      headers[lower] = value
      rawHeaders.push(name, value)
    }
    if (!host) return ODD
    const bodyAt = end + 4
    const after = bodyAt + length
    if (bytes.length < after) return INCOMPLETE
    // A last request with more bytes after it: node reads those bytes as an error of their own.
    if (!keepAlive && after !== bytes.length) return ODD
    const located = this.layer.app.locate(method, url)
    if (located === undefined) return ODD
    // The body's bytes where they came: node gives each read a buffer of its own and never reuses it,
    // and nothing keeps them beyond the request (the journal copies what it keeps, the body is read
    // as text). A copy of their own, as node's parser makes, was 0.3 µs a POST (a microbenchmark of
    // 150 bytes: 0.31-0.38 against 0.05-0.06 µs).
    const body = length > 0 ? bytes.subarray(bodyAt, after) : undefined
    const req = new PlainRequest(method, url, headers, rawHeaders, this.socket, body)
    const res = new PlainResponse(req, this, keepAlive)
    if (!keepAlive) this.done = this.lastTaken = true
    if (this.current === null) {
      this.current = res
      res.assignSocket(this.socket)
    } else this.queue.push(res)
    this.layer.onRequest()
    this.layer.app.serve(req, res, located, url)
    return after
  }

  /** An answer has gone out whole, as node's `resOnFinish`: the next one's turn, or the connection idle (or closing). */
  finished(res: PlainResponse): void {
    const { socket } = this
    res.detachSocket(socket)
    if (this.current === res) this.current = null
    process.nextTick(emitClose, res)
    if (res.last) {
      this.done = true
      socket.destroySoon()
      return
    }
    const next = this.queue.shift()
    if (next !== undefined) {
      this.current = next
      next.assignSocket(socket)
      return
    }
    if (this.pending !== undefined || this.handing) return this.handOff()
    const timeout = this.layer.keepAliveTimeout
    if (timeout && !this.done) {
      this.idleSince = Date.now()
      this.idleLimit = timeout + KEEP_ALIVE_TIMEOUT_BUFFER
      this.idleTimer ??= setTimeout(this.onIdleCheck, this.idleLimit).unref()
    }
  }

  /** The connection is node's from here: what it has not answered goes back to the socket, for node's parser. */
  private handOff(): void {
    const { socket, layer } = this
    this.stop()
    const pending = this.pending
    this.pending = undefined
    layer.handOver(socket)
    if (pending !== undefined && pending.length > 0) socket.unshift(pending)
    this.resumeReading()
  }

  private stop(): void {
    const { socket } = this
    this.done = true
    this.layer.live.delete(this)
    if (this.firstTimer !== undefined) clearTimeout(this.firstTimer)
    this.firstTimer = undefined
    this.stopIdleTimer()
    socket.removeListener('data', this.onData)
    socket.removeListener('end', this.onEnd)
    socket.removeListener('close', this.onClose)
    socket.removeListener('error', this.onError)
  }

  /** The client has sent its last byte, as node's `socketOnEnd` (the server is not half-open): a request not whole yet is node's to refuse. */
  private ended(): void {
    if (this.pending !== undefined && this.current === null && !this.done) {
      this.handOff()
      this.socket.emit('end')
      return
    }
    this.socket.end()
  }

  private closed(): void {
    this.done = true
    this.stopIdleTimer()
    this.layer.live.delete(this)
    if (this.firstTimer !== undefined) clearTimeout(this.firstTimer)
    this.firstTimer = undefined
    // node's `onServerResponseClose`: the answer that has the socket closes with it; those waiting their turn never had it.
    const current = this.current
    if (current !== null) current.socketClosed()
  }

  /**
   * Bytes after a request that asked `Connection: close`: node's parser refuses them (llhttp's
   * "Data after `Connection: close`"), and its 'clientError' goes to the server's listener, which
   * answers 400 in the error shape if the answer has not gone yet, or closes the connection.
   */
  private dataAfterLast(): void {
    this.lastTaken = false
    this.socket.removeListener('data', this.onData)
    this.failed(Object.assign(new Error('Parse Error: Data after `Connection: close`'), { code: 'HPE_CLOSED_CONNECTION' }))
  }

  /** As node's `socketOnError`: the server's 'clientError' listener decides (the sandbox's destroys a reset connection). */
  private failed(error: Error): void {
    const { socket } = this
    socket.removeListener('error', this.onError)
    socket.on('error', noop)
    if (!this.layer.events.emit('clientError', error, socket)) socket.destroy(error)
  }

  /** The idle timer has come: the keep-alive timeout closes the connection if it has been idle since, as node's `socketOnTimeout`. */
  private idleCheck(): void {
    this.idleTimer = undefined
    if (this.done || this.idleSince === -1) return
    const left = this.idleSince + this.idleLimit - Date.now()
    if (left > 0) {
      this.idleTimer = setTimeout(this.onIdleCheck, left).unref()
      return
    }
    if (!this.layer.events.emit('timeout', this.socket)) this.socket.destroy()
  }

  private stopIdleTimer(): void {
    if (this.idleTimer !== undefined) clearTimeout(this.idleTimer)
    this.idleTimer = undefined
    this.idleSince = -1
  }

  /** Nothing came within `--headers-timeout` of the connection's start: node's own 408, through the server's 'clientError' listener. */
  private firstRequestLate(): void {
    this.firstTimer = undefined
    if (this.done) return
    this.stop()
    const error = Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' })
    this.socket.on('error', noop)
    if (!this.layer.events.emit('clientError', error, this.socket)) this.socket.destroy(error)
  }
}

function emitClose(res: PlainResponse): void {
  res.emitClose()
}

const noop = () => {}
