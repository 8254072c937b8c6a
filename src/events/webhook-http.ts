import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http'
import type * as Https from 'node:https'
import { createRequire } from 'node:module'
import { urlToHttpOptions } from 'node:url'
import { monotonicMs } from '../clock.js'

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

export interface WebhookTransport {
  post(input: { url: string; headers: Record<string, string>; body: string; timeoutMs: number }): Promise<AttemptOutcome>
  /** Drops kept-alive sockets and aborts attempts in flight. */
  close(): void
}

/**
 * POSTs webhooks with node:http(s). The timeout covers the whole exchange (connect, send, answer),
 * so a receiver that accepts the connection and never answers still ends the attempt in time.
 */
export function createWebhookTransport(): WebhookTransport {
  const http: Client = { request: httpRequest, agent: new HttpAgent({ keepAlive: true }) }
  let https: Client | undefined
  const inFlight = new Set<() => void>()
  const targets = new Map<string, Target | string>()

  /** A receiver's URL as node's request takes it, parsed once per URL (an endpoint gets every event); or why it is not a URL. */
  function targetOf(url: string): Target | string {
    let target = targets.get(url)
    if (target === undefined) {
      try {
        const parsed = new URL(url)
        target = { secure: parsed.protocol === 'https:', options: urlToHttpOptions(parsed) }
      } catch {
        target = `'${url}' is not a valid URL`
      }
      // Endpoints are few; a sandbox whose URLs change all the time only empties the cache now and then.
      if (targets.size >= MAX_TARGETS) targets.clear()
      targets.set(url, target)
    }
    return target
  }

  function post(input: { url: string; headers: Record<string, string>; body: string; timeoutMs: number }): Promise<AttemptOutcome> {
    const started = monotonicMs()
    const elapsed = () => Math.round(monotonicMs() - started)
    return new Promise<AttemptOutcome>((resolve) => {
      let done = false
      let abort: () => void = () => {}
      const finish = (outcome: Omit<AttemptOutcome, 'durationMs'>) => {
        if (done) return
        done = true
        clearTimeout(timer)
        inFlight.delete(abort)
        resolve({ ...outcome, durationMs: elapsed() })
      }
      const timer = setTimeout(() => {
        finish({ status: null, error: `timed out after ${input.timeoutMs} ms without a complete answer`, excerpt: null })
        abort()
      }, input.timeoutMs)

      const target = targetOf(input.url)
      if (typeof target === 'string') {
        finish({ status: null, error: target, excerpt: null })
        return
      }
      const headers = { ...input.headers, 'content-length': String(Buffer.byteLength(input.body)) }
      try {
        const { request, agent } = target.secure ? (https ??= httpsClient()) : http
        const { options } = target
        // The fields node reads, by name: a copy of the whole parsed URL is copied again by the agent.
        const req = request({ protocol: options.protocol, hostname: options.hostname, port: options.port, path: options.path, auth: options.auth, method: 'POST', headers, agent })
        abort = () => req.destroy()
        inFlight.add(abort)
        req.on('response', (res) => {
          readExcerpt(res).then((excerpt) => {
            const status = res.statusCode ?? 0
            const ok = status >= 200 && status < 300
            finish({ status, error: ok ? null : describeStatus(status), excerpt })
          })
        })
        req.on('error', (error) => finish({ status: null, error: describeNetworkError(error), excerpt: null }))
        req.end(input.body)
      } catch (error) {
        finish({ status: null, error: describeNetworkError(error as Error), excerpt: null })
      }
    })
  }

  return {
    post,
    close() {
      for (const abort of [...inFlight]) abort()
      http.agent.destroy()
      https?.agent.destroy()
    },
  }
}

const MAX_TARGETS = 1000

interface Target {
  secure: boolean
  options: RequestOptions
}

interface Client {
  request: typeof httpRequest
  agent: HttpAgent
}

/**
 * node:https is loaded for the first https receiver: it brings TLS with it, about 5 ms of a cold
 * start that receivers on http (the usual local test server) never need.
 */
function httpsClient(): Client {
  const https = createRequire(import.meta.url)('node:https') as typeof Https
  return { request: https.request, agent: new https.Agent({ keepAlive: true }) }
}

/** Reads up to MAX_READ_BYTES of the answer, then lets the rest go. Resolves even if the stream breaks. */
function readExcerpt(res: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    const done = () => resolve(Buffer.concat(chunks).toString('utf8').slice(0, EXCERPT_CHARS))
    res.on('data', (chunk: Buffer) => {
      if (size >= MAX_READ_BYTES) return
      chunks.push(chunk)
      size += chunk.length
      if (size >= MAX_READ_BYTES) {
        res.destroy()
        done()
      }
    })
    res.on('end', done)
    res.on('error', done)
    res.on('close', done)
  })
}

function describeStatus(status: number): string {
  if (status === 410) return 'the receiver answered 410 Gone; the endpoint has been disabled'
  return `the receiver answered ${status}; only 2xx counts as delivered`
}

function describeNetworkError(error: Error & { code?: string }): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'connection refused (ECONNREFUSED): nothing is listening at that address'
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `the host name could not be resolved (${error.code})`
    case 'ECONNRESET':
      return 'the receiver closed the connection before answering (ECONNRESET)'
    default:
      return error.code ? `${error.message} (${error.code})` : error.message
  }
}
