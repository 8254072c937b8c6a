import { readFileSync } from 'node:fs'
import { COMPARED_HEADERS } from './compare.js'
import type { Auth } from './http-side.js'
import { parseBody } from './http-side.js'
import { redact } from './secrets.js'
import { UsageError } from './usage.js'

/**
 * A recording (CONTRACT.md section 22): one JSON line per exchange, `{seq, at, request: {method, path,
 * query, headers, body, auth}, answer: {status, headers, body}}`. Headers come from an allow list
 * (never `Authorization`); secrets in bodies are replaced. `auth` says how the request authenticated
 * (`key`, `none` or `malformed`) without the key, so that a replay sends what the suite sent.
 */

export interface RecordedExchange {
  seq: number
  at: string
  request: { method: string; path: string; query: Record<string, string | string[]>; headers: Record<string, string>; body: unknown; auth: Auth }
  answer: { status: number; headers: Record<string, string>; body: unknown }
}

/** Request headers a replay needs: the body's type and the idempotency key. */
export const RECORDED_REQUEST_HEADERS = ['content-type', 'idempotency-key'] as const
/** Answer headers: those parity compares, and `Allow` and `Location`. */
export const RECORDED_ANSWER_HEADERS = [...COMPARED_HEADERS, 'allow', 'location'] as const

export function pickHeaders(get: (name: string) => string | null | undefined, names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {}
  for (const name of names) {
    const value = get(name)
    if (value !== null && value !== undefined) out[name] = value
  }
  return out
}

/** How an `Authorization` header authenticates, without its value. */
export function authKind(header: string | undefined): Auth {
  if (header === undefined || header === '') return 'none'
  return /^Bearer +\S+$/i.test(header) ? 'key' : 'malformed'
}

/** `?a=1&b=2&b=3` → `{a: '1', b: ['2', '3']}`. */
export function queryObject(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  for (const name of new Set(params.keys())) {
    const values = params.getAll(name)
    out[name] = values.length === 1 ? values[0]! : values
  }
  return out
}

/** A body as recorded: parsed JSON, else its text, else null; secrets replaced. */
export const recordedBody = (text: string): unknown => redact(parseBody(text))

export function readRecording(file: string): RecordedExchange[] {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new UsageError(`--replay ${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); \`wallet-sandbox record --out ${file}\` writes one`)
  }
  const exchanges: RecordedExchange[] = []
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue
    let exchange: RecordedExchange
    try {
      exchange = JSON.parse(line) as RecordedExchange
    } catch {
      throw new UsageError(`--replay ${file}, line ${index + 1}: not JSON (a recording holds one JSON object a line, as record writes them)`)
    }
    const request = exchange?.request
    if (typeof request?.method !== 'string' || typeof request.path !== 'string' || !request.path.startsWith('/') || typeof exchange.answer?.status !== 'number') {
      throw new UsageError(`--replay ${file}, line ${index + 1}: not an exchange ({seq, at, request: {method, path, …}, answer: {status, …}})`)
    }
    const { answer } = exchange
    exchanges.push({
      ...exchange,
      request: { ...request, query: request.query ?? {}, headers: request.headers ?? {}, body: request.body ?? null, auth: request.auth ?? 'key' },
      answer: { ...answer, headers: answer.headers ?? {}, body: answer.body ?? null },
    })
  }
  return exchanges
}
