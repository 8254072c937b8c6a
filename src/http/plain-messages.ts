import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { statusText } from '../status-text.js'
import { httpDateOf } from '../date-text.js'

/**
 * The request and response of the sandbox's own HTTP/1.1 layer (src/http/plain-connection.ts): what
 * the pipeline uses of node's IncomingMessage and ServerResponse, and nothing else. Every field and
 * event below is one some code reads (the listener and `front` in app.ts, the pipelining limit,
 * respond.ts's `send`, body.ts's `readBody`, the request journal and log, faults' connection drops,
 * durable answers, the test suite's response recorder); `npm run typecheck` and
 * test/http/plain-layer.test.ts hold them to node's. node's own were about 10 µs of a POST's server
 * CPU more than a minimal layer's (issue 33, round 10, docs/benchmarks.md).
 */
export class PlainRequest {
  readonly httpVersion = '1.1'
  readonly httpVersionMajor = 1
  readonly httpVersionMinor = 1
  /** The whole request is in hand before it is dispatched. */
  readonly complete = true
  // The fields the listener gives every request on its fast path (app.ts `serve`).
  path = ''
  params: Record<string, string> = {}
  query: Record<string, unknown> = {}
  originalUrl = ''
  private onData: ((chunk: Buffer) => void) | undefined = undefined

  constructor(
    readonly method: string,
    readonly url: string,
    readonly headers: Record<string, string>,
    readonly rawHeaders: string[],
    readonly socket: Socket,
    /** The body's bytes (a copy of their own), or undefined for none. */
    private readonly body: Buffer | undefined,
  ) {}

  get connection(): Socket {
    return this.socket
  }

  /**
   * `readBody` (body.ts) listens for 'data' then 'end': the body is already here, so 'end' is
   * answered as soon as it is listened for, its one 'data' first (node's in a later tick; the same
   * bytes, and the same answer, a turn sooner). 'error' never comes: the bytes cannot fail.
   */
  on(event: string, listener: (...args: never[]) => void): this {
    if (event === 'data') this.onData = listener as (chunk: Buffer) => void
    else if (event === 'end') {
      const onData = this.onData
      this.onData = undefined
      if (this.body !== undefined && onData !== undefined) onData(this.body)
      ;(listener as () => void)()
    }
    return this
  }

  removeAllListeners(event?: string): this {
    if (event === undefined || event === 'data') this.onData = undefined
    return this
  }

  /** The rest of a body is discarded: here it is all read already. */
  resume(): this {
    return this
  }
}

/** A response's head as node's `_storeHeader` writes it (node 20's lib/_http_outgoing.js). */
export interface HeadState {
  /** The connection closes after this answer. */
  last: boolean
}

/** `Connection: close` among a header's tokens, as node reads it. */
const CONNECTION_CLOSE = /(?:^|\W)close(?:$|\W)/i

/**
 * The `Date` header's value, made once a second as node's `utcDate()` does (lib/internal/http.js),
 * without V8's `toUTCString` (src/date-text.ts says why).
 */
let dateCache: string | undefined
function utcDate(): string {
  if (dateCache === undefined) {
    const now = Date.now()
    dateCache = httpDateOf(now)
    setTimeout(resetDate, 1000 - (now % 1000)).unref()
  }
  return dateCache
}
function resetDate(): void {
  dateCache = undefined
}

/** What the response's connection does for it (plain-connection.ts). */
export interface ResponseOwner {
  /** The answer has gone out whole (its write's callback): the next one may have the socket. */
  finished(res: PlainResponse): void
  /** `server.keepAliveTimeout`, read when the answer is written (node reads it per response too). */
  keepAliveTimeout(): number
}

type Listener = (...args: never[]) => void

/**
 * The events of a response ('finish', 'close', 'socket'), as an EventEmitter gives them: listeners
 * called in the order added, `once` ones removed before they run. Not node's EventEmitter: its
 * constructor and the object it makes for the listeners were 0.3 µs of a POST (cpu-prof), for the
 * two or three listeners a response ever has.
 */
class Events {
  private listeners: Array<{ event: string; listener: Listener; once: boolean }> | undefined = undefined

  on(event: string, listener: Listener): this {
    ;(this.listeners ??= []).push({ event, listener, once: false })
    return this
  }

  addListener(event: string, listener: Listener): this {
    return this.on(event, listener)
  }

  once(event: string, listener: Listener): this {
    ;(this.listeners ??= []).push({ event, listener, once: true })
    return this
  }

  off(event: string, listener: Listener): this {
    const listeners = this.listeners
    if (listeners === undefined) return this
    for (let i = listeners.length - 1; i >= 0; i--) {
      if (listeners[i]!.event === event && listeners[i]!.listener === listener) {
        listeners.splice(i, 1)
        break
      }
    }
    return this
  }

  removeListener(event: string, listener: Listener): this {
    return this.off(event, listener)
  }

  listenerCount(event: string): number {
    let count = 0
    for (const entry of this.listeners ?? []) if (entry.event === event) count++
    return count
  }

  emit(event: string, ...args: unknown[]): boolean {
    const listeners = this.listeners
    if (listeners === undefined) return false
    let called = false
    // A listener may add or remove listeners: the loop runs over those there were when it began.
    for (const entry of listeners.length === 1 ? listeners : [...listeners]) {
      if (entry.event !== event) continue
      if (entry.once) {
        const at = listeners.indexOf(entry)
        if (at === -1) continue
        listeners.splice(at, 1)
      }
      called = true
      ;(entry.listener as (...args: unknown[]) => void).apply(this, args)
    }
    return called
  }
}

/**
 * The response: an emitter as node's is ('finish', 'close', 'socket'), the socket given when
 * every answer before it on the connection has gone out (pipelining), the head written as node
 * writes it, with the body in one write.
 */
export class PlainResponse extends Events {
  statusCode = 200
  statusMessage: string | undefined = undefined
  headersSent = false
  writableEnded = false
  writableFinished = false
  finished = false
  destroyed = false
  socket: Socket | null = null
  /** The head as node keeps it once written (the test suite's response recorder reads it). */
  _header: string | null = null
  locals: Record<string, unknown> = {}
  /** Set with `setHeader`: lower-case name → [name, value], in the order first set (node's kOutHeaders). */
  private outHeaders: Record<string, [string, string | number | readonly string[]]> | undefined = undefined
  /** The header list `writeHead` was given, or undefined until then. */
  private headList: readonly (string | number)[] | undefined = undefined
  private chunks: Array<string | Buffer> | undefined = undefined
  /** What `end` made, waiting for the socket (a pipelined answer before its turn). */
  private output: Array<string | Buffer> | undefined = undefined
  private closedEmitted = false

  constructor(
    readonly req: PlainRequest,
    private readonly owner: ResponseOwner,
    /** The request allows the connection to stay open (HTTP/1.1 without `Connection: close`). */
    private readonly keepAlive: boolean,
  ) {
    super()
  }

  /** The connection closes once this answer has gone out (`Connection: close` asked or answered). */
  last = false

  get writable(): boolean {
    return !this.writableEnded && !this.destroyed
  }

  setHeader(name: string, value: string | number | readonly string[]): this {
    if (this.headersSent) throw Object.assign(new Error('Cannot set headers after they are sent to the client'), { code: 'ERR_HTTP_HEADERS_SENT' })
    ;(this.outHeaders ??= Object.create(null) as Record<string, [string, string | number | readonly string[]]>)[name.toLowerCase()] = [name, value]
    return this
  }

  getHeader(name: string): string | number | string[] | undefined {
    const value = this.outHeaders?.[name.toLowerCase()]?.[1]
    return Array.isArray(value) ? [...(value as readonly string[])] : (value as string | number | undefined)
  }

  hasHeader(name: string): boolean {
    return this.outHeaders?.[name.toLowerCase()] !== undefined
  }

  removeHeader(name: string): void {
    if (this.outHeaders) delete this.outHeaders[name.toLowerCase()]
  }

  getHeaderNames(): string[] {
    return this.outHeaders ? Object.keys(this.outHeaders) : []
  }

  writeHead(status: number, headers?: readonly (string | number)[] | Record<string, string | number>): this {
    this.statusCode = status
    if (headers === undefined) return this
    if (Array.isArray(headers)) {
      if (this.outHeaders === undefined) this.headList = headers as readonly (string | number)[]
      else for (let i = 0; i < headers.length; i += 2) this.setHeader(String(headers[i]), headers[i + 1] as string)
    } else for (const name in headers) this.setHeader(name, (headers as Record<string, string | number>)[name]!)
    // The head is made here, as node makes it in writeHead (a response recorder reads `_header` before `end`), unless its length waits for the body.
    this.head(undefined)
    return this
  }

  write(chunk: string | Buffer): boolean {
    ;(this.chunks ??= []).push(chunk)
    return true
  }

  end(chunk?: string | Buffer | (() => void)): this {
    if (this.writableEnded) return this
    this.writableEnded = true
    if (typeof chunk === 'string' || Buffer.isBuffer(chunk)) (this.chunks ??= []).push(chunk)
    const chunks = this.chunks ?? []
    this.chunks = undefined
    const head = this._header ?? this.head(chunks)!
    this.headersSent = true
    this.finished = true
    // A text body goes out with its head as one string (node's `_send` joins them, in the body's encoding).
    const output = chunks.length === 1 && typeof chunks[0] === 'string' ? [head + chunks[0]] : [head, ...chunks]
    if (this.socket) this.flush(this.socket, output)
    else this.output = output
    return this
  }

  /** The socket is this response's to write on: every answer before it on the connection has gone out. */
  assignSocket(socket: Socket): void {
    this.socket = socket
    ;(socket as Socket & { _httpMessage?: unknown })._httpMessage = this
    this.emit('socket', socket)
    const output = this.output
    if (output !== undefined) {
      this.output = undefined
      this.flush(socket, output)
    }
  }

  detachSocket(socket: Socket): void {
    const held = socket as Socket & { _httpMessage?: unknown }
    if (held._httpMessage === this) held._httpMessage = null
    this.socket = null
  }

  /** The socket closed before the answer had gone out (or while it was held): 'close', as node's `onServerResponseClose`. */
  socketClosed(): void {
    this.destroyed = true
    this.emitClose()
  }

  emitClose(): void {
    if (this.closedEmitted) return
    this.closedEmitted = true
    this.destroyed = true
    this.emit('close')
  }

  destroy(error?: Error): this {
    if (this.socket) this.socket.destroy(error)
    else this.once('socket', (socket: Socket) => socket.destroy(error))
    return this
  }

  private flush(socket: Socket, output: Array<string | Buffer>): void {
    const done = (error?: Error | null) => {
      if (error) return
      this.writableFinished = true
      this.emit('finish')
      this.owner.finished(this)
    }
    if (output.length === 1) {
      socket.write(output[0]!, 'utf8', done)
      return
    }
    socket.cork()
    for (let i = 0; i < output.length - 1; i++) socket.write(output[i]!, 'latin1')
    socket.write(output[output.length - 1]!, 'utf8', done)
    socket.uncork()
  }

  /**
   * The head, as node's `writeHead` and `_storeHeader` write it for a response of a server; undefined
   * while `chunks` is (writeHead) and the headers give no length: `end` makes it with the body's.
   */
  private head(chunks: Array<string | Buffer> | undefined): string | undefined {
    const status = this.statusCode
    let header = `HTTP/1.1 ${status} ${this.statusMessage ?? statusText(status) ?? 'unknown'}\r\n`
    let date = false
    let connection = false
    let contentLength = false
    let defaultKeepAlive = true
    let keepAlive = this.keepAlive
    const store = (name: string, value: string | number) => {
      header += `${name}: ${value}\r\n`
      if (name.length < 4 || name.length > 17) return
      switch (name.toLowerCase()) {
        case 'connection':
          connection = true
          if (CONNECTION_CLOSE.test(String(value))) this.last = true
          else keepAlive = true
          break
        case 'content-length':
          contentLength = true
          break
        case 'date':
          date = true
          break
        case 'keep-alive':
          defaultKeepAlive = false
          break
      }
    }
    const list = this.headList
    if (list !== undefined) {
      for (let i = 0; i < list.length; i += 2) store(list[i] as string, list[i + 1]!)
    } else if (this.outHeaders !== undefined) {
      for (const key in this.outHeaders) {
        const [name, value] = this.outHeaders[key]!
        if (Array.isArray(value)) for (const one of value as readonly string[]) store(name, one)
        else store(name, value as string | number)
      }
    }
    if (!contentLength && chunks === undefined) return undefined
    if (!date) header += `Date: ${utcDate()}\r\n`
    if (!connection) {
      if (keepAlive) {
        header += 'Connection: keep-alive\r\n'
        const timeout = this.owner.keepAliveTimeout()
        if (timeout && defaultKeepAlive) header += `Keep-Alive: timeout=${Math.floor(timeout / 1000)}\r\n`
      } else {
        this.last = true
        header += 'Connection: close\r\n'
      }
    }
    if (!contentLength) {
      let length = 0
      for (const chunk of chunks!) length += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length
      header += `Content-Length: ${length}\r\n`
    }
    header += '\r\n'
    this._header = header
    return header
  }
}

/**
 * The fields of node's own request and response the pipeline reads, held to node's types: a field
 * missing here, or of another type, is a type error (`npm run typecheck`). The rest (headers,
 * `writeHead`, `end`, the events) are read through express's types, which node's do not check.
 */
type Fits<T extends U, U> = T
export type PlainRequestFits = Fits<PlainRequest, Pick<IncomingMessage, 'method' | 'url' | 'rawHeaders' | 'httpVersion' | 'httpVersionMajor' | 'httpVersionMinor' | 'complete'>>
export type PlainResponseFits = Fits<PlainResponse, Pick<ServerResponse, 'statusCode' | 'headersSent' | 'writableEnded' | 'writableFinished' | 'destroyed' | 'socket' | 'getHeader' | 'hasHeader' | 'removeHeader' | 'getHeaderNames'>>
