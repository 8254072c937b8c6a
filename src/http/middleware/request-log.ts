import type { Request, Response } from 'express'
import { wallClockMs } from '../../clock.js'
import { paintFor, statusColour, wantsColour } from '../../colour.js'
import { isoOf } from '../../date-text.js'

/** One answered request, as the request log records it. Never holds a whole API key. */
export interface RequestLogEntry {
  time: string
  method: string
  path: string
  status: number
  duration_ms: number
  request_id: string
  /** Last 4 characters of the API key, or null when the request carried none. */
  key_suffix: string | null
}

export type RequestLogFormat = 'pretty' | 'json'

/** Shortest value that still makes a suffix safe to show: 4 characters of a 12+ character key. */
const MIN_KEY_LENGTH = 12

/**
 * The last 4 characters of the bearer key on a `/v1` request. The control API's Authorization
 * header carries the control token, which is not logged at all.
 */
export function keySuffix(path: string, authorization: string | undefined): string | null {
  if (path.startsWith('/_sandbox') || authorization === undefined) return null
  const key = /^Bearer +(\S+)\s*$/i.exec(authorization)?.[1]
  return key && key.length >= MIN_KEY_LENGTH ? key.slice(-4) : null
}

/** The path without its query string: `?api_key=` must never reach the log. */
const pathOf = (req: Request): string => (req.originalUrl || req.url).split('?')[0] ?? '/'

/** The control API and the dashboard it serves: what tools (`tail`, `listen`, helpers, the dashboard) poll. */
const isControlPath = (path: string): boolean => path === '/_sandbox' || path.startsWith('/_sandbox/')

export function toEntry(req: Request, res: Response, ctx: { requestId: string; durationMs: number }, now = wallClockMs()): RequestLogEntry {
  const path = pathOf(req)
  return {
    time: isoOf(now),
    method: req.method,
    path,
    status: res.statusCode,
    duration_ms: Math.round(ctx.durationMs * 10) / 10,
    request_id: ctx.requestId,
    key_suffix: keySuffix(path, req.headers.authorization),
  }
}

/** `12:00:00.123 POST /v1/payments 201 4.2ms req_… key …ault`; colours only when asked (a terminal). */
export function formatPretty(entry: RequestLogEntry, options: { colour: boolean }): string {
  const c = paintFor(options.colour)
  const parts = [
    c('dim', entry.time.slice(11, 23)),
    entry.method.padEnd(6),
    entry.path,
    c(statusColour(entry.status), String(entry.status)),
    `${entry.duration_ms.toFixed(1)}ms`,
    c('dim', entry.request_id),
  ]
  if (entry.key_suffix) parts.push(c('dim', `key …${entry.key_suffix}`))
  return parts.join(' ')
}

/** One JSON object per line, for log collectors. */
export function formatJson(entry: RequestLogEntry): string {
  return JSON.stringify({ level: 'info', message: 'request', ...entry })
}

export interface RequestLogOptions {
  /** `auto` picks pretty on a terminal and JSON otherwise. */
  format: 'auto' | RequestLogFormat
  /** Where lines go; the default is stdout. */
  stream?: { write(text: string): unknown; isTTY?: boolean }
  /**
   * `--log-control`: log the control API's requests (`/_sandbox/…`) too. Left out by default, since
   * the tools that poll it (`tail`, `listen`, the dashboard, the helpers) would drown the app's own.
   */
  control?: boolean
  /** The environment whose `NO_COLOR` and `FORCE_COLOR` the colours follow (the command line's); without it, colour on a terminal. */
  env?: Record<string, string | undefined>
}

/** The `HttpServices.onResponse` hook that writes one line per answered request. */
export function createRequestLog(options: RequestLogOptions) {
  const stream = options.stream ?? process.stdout
  const format = resolveLogFormat(options.format, stream)
  const colour = wantsColour(stream, options.env ?? {})
  return (req: Request, res: Response, ctx: { requestId: string; durationMs: number }): void => {
    if (options.control !== true && isControlPath(pathOf(req))) return
    const entry = toEntry(req, res, ctx)
    stream.write(`${format === 'json' ? formatJson(entry) : formatPretty(entry, { colour })}\n`)
  }
}

/** Resolves `auto` the same way the request log does, for the banner and the logger. */
export function resolveLogFormat(format: 'auto' | RequestLogFormat, stream: { isTTY?: boolean } = process.stdout): RequestLogFormat {
  return format === 'auto' ? (stream.isTTY === true ? 'pretty' : 'json') : format
}
