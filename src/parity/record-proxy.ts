import { randomBytes } from 'node:crypto'
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { ERRORS } from '../errors.js'
import { reasonOf } from './http-side.js'
import { authKind, pickHeaders, queryObject, recordedBody, RECORDED_ANSWER_HEADERS, RECORDED_REQUEST_HEADERS, type RecordedExchange } from './recording.js'
import { isLiveKey, scrubKnown } from './secrets.js'
import { UsageError } from './usage.js'
import { isoOf } from '../date-text.js'

/**
 * `wallet-sandbox record` (CONTRACT.md section 22): a forwarding proxy in front of the hosted
 * sandbox. Every `/v1` request is sent on as it came (headers, body, `Authorization` too) and
 * answered with the hosted answer; each exchange is appended to the file as one JSON line, written
 * before the answer goes back, so a crash loses nothing answered. A live key is answered 403 and
 * never forwarded.
 */

export interface RecorderOptions {
  /** The hosted root, without `/v1`. */
  root: string
  out: string
  port: number
  host?: string
  /** Told once per exchange (`POST /v1/payments 201 84 ms`), and for each request not forwarded. */
  onExchange?: (line: string) => void
}

export interface Recorder {
  url: string
  port: number
  /** How many exchanges are in the file. */
  count(): number
  /** Stops listening and flushes the file. */
  close(): Promise<void>
}

/** Hop-by-hop headers (RFC 9110 7.6.1) and what fetch sets itself: never passed on. */
const NOT_FORWARDED = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'host', 'content-length', 'accept-encoding', 'content-encoding'])
const BODY_LIMIT = 10 * 1024 * 1024

export async function startRecorder(options: RecorderOptions): Promise<Recorder> {
  const fd = openOut(options.out)
  let seq = 0
  const tell = options.onExchange ?? (() => {})
  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      tell(`${req.method} ${req.url} 503: not forwarded (${reasonOf(error)}), not recorded`)
      answerError(res, 503, 'service_unavailable', `record could not forward the request to ${options.root}: ${reasonOf(error)}`)
    })
  })

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now()
    const at = isoOf(Date.now())
    const url = new URL(req.url ?? '/', 'http://recorder')
    const method = req.method ?? 'GET'
    const authorization = req.headers.authorization
    if (url.pathname !== '/v1' && !url.pathname.startsWith('/v1/')) {
      return answerError(res, 404, 'route_not_found', `record forwards the API under /v1 only; point your app at http://127.0.0.1:${port}/v1`)
    }
    const bearer = /^Bearer +(\S+)$/i.exec(authorization ?? '')?.[1]
    if (bearer !== undefined && isLiveKey(bearer)) {
      tell(`${method} ${url.pathname} 403: a live key (sk_live_…) is never forwarded`)
      return answerError(res, 403, 'live_key_in_sandbox', 'record never forwards a live key (sk_live_…): it records a suite against a sandbox; use the sandbox\'s sk_test_ key')
    }
    const body = await readBody(req)
    const headers = new Headers()
    for (const [name, value] of Object.entries(req.headers)) if (!NOT_FORWARDED.has(name) && value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value)
    const hosted = await fetch(`${options.root}${url.pathname}${url.search}`, {
      method,
      headers,
      body: method === 'GET' || method === 'HEAD' || body.length === 0 ? undefined : body,
      redirect: 'manual',
    })
    const answer = Buffer.from(await hosted.arrayBuffer())
    const exchange: RecordedExchange = {
      seq: ++seq,
      at,
      request: {
        method,
        path: url.pathname,
        query: queryObject(url.searchParams),
        headers: pickHeaders((name) => req.headers[name] as string | undefined, RECORDED_REQUEST_HEADERS),
        body: recordedBody(body.toString('utf8')),
        auth: authKind(authorization),
      },
      answer: { status: hosted.status, headers: pickHeaders((name) => hosted.headers.get(name), RECORDED_ANSWER_HEADERS), body: recordedBody(answer.toString('utf8')) },
    }
    writeSync(fd, `${scrubKnown(JSON.stringify(exchange), [bearer])}\n`)
    hosted.headers.forEach((value, name) => {
      if (!NOT_FORWARDED.has(name)) res.setHeader(name, value)
    })
    res.writeHead(hosted.status).end(answer)
    tell(`${method} ${url.pathname}${url.search} ${hosted.status} ${Math.round(performance.now() - started)} ms`)
  }

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(options.port, options.host ?? '127.0.0.1', () => resolve())
    })
  } catch (error) {
    closeSync(fd)
    throw error
  }
  const { port } = server.address() as AddressInfo
  let closing: Promise<void> | undefined
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}/v1`,
    port,
    count: () => seq,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }).then(() => {
        fsyncSync(fd)
        closeSync(fd)
      })),
  }
}

/** The recording, written afresh. */
function openOut(file: string): number {
  try {
    return openSync(file, 'w')
  } catch (error) {
    throw new UsageError(`--out ${file}: cannot write it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`)
  }
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > BODY_LIMIT) req.destroy(new Error(`the request body is over ${BODY_LIMIT} bytes`))
      else chunks.push(chunk)
    })
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

/** An answer of the recorder itself, in the API's error shape, with the catalogue's type for the code. */
function answerError(res: ServerResponse, status: number, code: keyof typeof ERRORS, message: string): void {
  if (res.headersSent) return void res.destroy()
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ error: { type: ERRORS[code].type, code, message }, request_id: `req_${randomBytes(12).toString('hex')}` }))
}
