import { connect, isIP, type Socket } from 'node:net'
import type * as Tls from 'node:tls'
import { boundedCache } from '../bounded-cache.js'
import { monotonicMs } from '../clock.js'
import { ResponseReader } from './webhook-response.js'
import { describeNetworkError, describeStatus, parseTarget, type Target } from './webhook-target.js'

/** What one webhook attempt came to. Never an exception: every failure is described here. */
export interface AttemptOutcome {
  /** The receiver's HTTP status, or null when no answer came (timeout, refused, …). */
  status: number | null
  /** Why the attempt failed, or null for a 2xx. */
  error: string | null
  /** The start of the receiver's answer body, at most EXCERPT_CHARS characters. */
  excerpt: string | null
  durationMs: number
}

export const EXCERPT_CHARS = 500
/** Bytes read from a receiver's answer before the rest is dropped. */
const MAX_READ_BYTES = 4 * EXCERPT_CHARS
/** Kept-alive connections kept per receiver's host and port, as node's agent keeps (maxFreeSockets). */
const MAX_IDLE = 256
const MAX_TARGETS = 1000

export interface WebhookTransport {
  post(input: { url: string; headers: Record<string, string>; body: string; timeoutMs: number }): Promise<AttemptOutcome>
  /** Drops kept-alive connections and ends attempts in flight. */
  close(): void
}

/**
 * POSTs webhooks as HTTP/1.1 on kept-alive connections of its own: the head written in one string
 * (the bytes node's request would write: the given headers, content-length, Host, Connection), the
 * answer read by `webhook-response.ts`. Node's HTTP client cost about three times the CPU per
 * attempt (a request object, its headers, the agent, a parser and a response stream each time). The
 * timeout covers the whole exchange (connect, send, answer), so a receiver that accepts the connection
 * and never answers still ends the attempt in time; one timer serves every attempt in flight.
 */
export function createWebhookTransport(): WebhookTransport {
  // Endpoints are few; a sandbox whose URLs change all the time only parses them all again now and then.
  const targetOf = boundedCache(MAX_TARGETS, parseTarget)
  /** Per receiver's scheme, host and port: connections waiting for the next delivery, newest last. */
  const idle = new Map<string, Connection[]>()
  const inFlight = new Set<Attempt>()
  let timer: NodeJS.Timeout | undefined
  let timerDue = Infinity
  let tls: typeof Tls | undefined
  let closed = false

  function post(input: { url: string; headers: Record<string, string>; body: string; timeoutMs: number }): Promise<AttemptOutcome> {
    return new Promise<AttemptOutcome>((resolve) => {
      const started = monotonicMs()
      const target = targetOf(input.url)
      if (typeof target === 'string') return resolve({ status: null, error: target, excerpt: null, durationMs: 0 })
      let head = target.requestLine
      for (const name in input.headers) head += `${name}: ${input.headers[name]}\r\n`
      const wire = `${head}content-length: ${Buffer.byteLength(input.body)}\r\n${target.headTail}${input.body}`
      const attempt: Attempt = { connection: undefined, reader: new ResponseReader(MAX_READ_BYTES), started, deadline: started + input.timeoutMs, timeoutMs: input.timeoutMs, done: false, resolve, wire, target, reused: false, heard: false, resent: false }
      inFlight.add(attempt)
      if (attempt.deadline < timerDue) arm(attempt.deadline)
      send(attempt, idle.get(target.pool)?.pop())
    })
  }

  /** Writes the attempt's request on `reused`, a kept-alive connection, or on a new one. */
  function send(attempt: Attempt, reused: Connection | undefined): void {
    try {
      if (reused) reused.socket.ref()
      const connection = reused ?? connectTo(attempt.target)
      attempt.reused = reused !== undefined
      connection.attempt = attempt
      attempt.connection = connection
      connection.socket.write(attempt.wire)
    } catch (error) {
      end(attempt, null, describeNetworkError(error as Error), null)
    }
  }

  function connectTo(target: Target): Connection {
    const options = { host: target.host, port: target.port }
    const socket = target.secure ? (tls ??= loadTls()).connect({ ...options, servername: isIP(target.host) ? undefined : target.host }) : connect(options)
    // As node's agent sets up its sockets.
    socket.setNoDelay(true)
    socket.setKeepAlive(true, 1000)
    const connection: Connection = { socket, pool: target.pool, attempt: undefined }
    socket.on('data', (chunk: Buffer) => onData(connection, chunk))
    socket.on('error', (error) => onGone(connection, error))
    socket.on('close', () => onGone(connection, undefined))
    return connection
  }

  function onData(connection: Connection, chunk: Buffer): void {
    const attempt = connection.attempt
    // Bytes on a connection nobody asked anything on: not one to send the next delivery on.
    if (!attempt) return drop(connection)
    attempt.heard = true
    let complete: boolean
    try {
      complete = attempt.reader.push(chunk)
    } catch (error) {
      return end(attempt, null, (error as Error).message, null)
    }
    if (complete) answered(attempt)
  }

  /** The connection failed or closed: the answer ends there (a head in, or a body that runs to the close), or never came. */
  function onGone(connection: Connection, error: Error | undefined): void {
    unpark(connection)
    const attempt = connection.attempt
    if (!attempt) return
    // A kept-alive connection the receiver closed as this request went out on it (its keep-alive
    // timeout ran out just then): nothing was answered, so the request goes once more on a new
    // connection, within the same attempt and deadline. A receiver that reads the request and
    // closes anyway may see it twice; the webhook-id is what it deduplicates by.
    if (attempt.reused && !attempt.heard && !attempt.resent && !closed) {
      attempt.resent = true
      connection.attempt = undefined
      return send(attempt, undefined)
    }
    if (attempt.reader.closed() || attempt.reader.status !== 0) return answered(attempt)
    end(attempt, null, error ? describeNetworkError(error) : describeNetworkError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })), null)
  }

  function answered(attempt: Attempt): void {
    const status = attempt.reader.status
    const ok = status >= 200 && status < 300
    end(attempt, status, ok ? null : describeStatus(status), attempt.reader.body().slice(0, EXCERPT_CHARS))
  }

  function end(attempt: Attempt, status: number | null, error: string | null, excerpt: string | null): void {
    if (attempt.done) return
    attempt.done = true
    inFlight.delete(attempt)
    const connection = attempt.connection
    if (connection) {
      connection.attempt = undefined
      if (status !== null && attempt.reader.keepAlive && !closed) park(connection)
      else drop(connection)
    }
    attempt.resolve({ status, error, excerpt, durationMs: Math.round(monotonicMs() - attempt.started) })
  }

  function park(connection: Connection): void {
    let list = idle.get(connection.pool)
    if (!list) idle.set(connection.pool, (list = []))
    if (list.length >= MAX_IDLE) return drop(connection)
    connection.socket.unref()
    list.push(connection)
  }

  function unpark(connection: Connection): void {
    const list = idle.get(connection.pool)
    const index = list ? list.indexOf(connection) : -1
    if (index >= 0) list!.splice(index, 1)
  }

  function drop(connection: Connection): void {
    unpark(connection)
    connection.socket.destroy()
  }

  /** The one timer: due at the earliest deadline in flight, or left to run out when that attempt ended first (it never holds the process). */
  function arm(due: number): void {
    if (timer) clearTimeout(timer)
    timerDue = due
    timer = setTimeout(sweep, Math.max(0, due - monotonicMs()))
    timer.unref()
  }

  function sweep(): void {
    timer = undefined
    timerDue = Infinity
    const now = monotonicMs()
    let next = Infinity
    for (const attempt of inFlight) {
      if (attempt.deadline <= now) end(attempt, null, `timed out after ${attempt.timeoutMs} ms without a complete answer`, null)
      else next = Math.min(next, attempt.deadline)
    }
    if (next !== Infinity) arm(next)
  }

  return {
    post,
    close() {
      closed = true
      if (timer) clearTimeout(timer)
      for (const attempt of [...inFlight]) end(attempt, null, 'the sandbox closed before the receiver answered', null)
      for (const list of [...idle.values()]) for (const connection of [...list]) drop(connection)
    },
  }
}

interface Connection {
  socket: Socket
  pool: string
  /** The attempt waiting for its answer on it; undefined while it waits in its pool. */
  attempt: Attempt | undefined
}

interface Attempt {
  connection: Connection | undefined
  reader: ResponseReader
  started: number
  deadline: number
  timeoutMs: number
  done: boolean
  resolve: (outcome: AttemptOutcome) => void
  /** The request's bytes, head and body, as written. */
  wire: string
  target: Target
  /** Sent on a kept-alive connection that an earlier delivery used. */
  reused: boolean
  /** Some bytes of an answer came. */
  heard: boolean
  /** Sent once more after its kept-alive connection closed unanswered. */
  resent: boolean
}

/**
 * node:tls is loaded for the first https receiver: it costs about 5 ms of a cold start that
 * receivers on http (the usual local test server) never need. process.getBuiltinModule rather than
 * createRequire: node:module at the top was about 1 ms of every start.
 */
function loadTls(): typeof Tls {
  return process.getBuiltinModule('node:tls')
}
