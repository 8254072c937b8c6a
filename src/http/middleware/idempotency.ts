import type { Clock } from '../../clock.js'
import { ApiError } from '../../errors.js'
import type { IdempotencyRecords } from '../../ledger/idempotency-records.js'
import type { IdempotencyRecord } from '../../model/records.js'
import type { RawBody } from './body.js'
import { isoOf } from '../../date-text.js'

const DAY_MS = 24 * 60 * 60 * 1000
const VISIBLE_ASCII = /^[\x21-\x7e]{1,255}$/

export type IdempotencyOutcome = { kind: 'replay'; record: IdempotencyRecord } | { kind: 'fresh'; record: IdempotencyRecord }

/**
 * `Idempotency-Key` on POST (CONTRACT.md section 6): the first request runs and its answer is kept
 * for 24 hours of the account's time; a retry with the same body gets that answer byte for byte.
 */
export function createIdempotency(deps: { records: IdempotencyRecords; clock: Clock }) {
  const { records, clock } = deps

  return {
    begin(accountId: string, method: string, path: string, header: string, body: RawBody, requestId: string): IdempotencyOutcome {
      const key = parseKey(header)
      const scope = `${method} ${path} ${key}`
      const fingerprint = fingerprintOf(body)
      const existing = records.find(accountId, scope)
      if (existing && Date.parse(existing.expires_at) > clock.now(accountId)) {
        if (existing.fingerprint !== fingerprint) {
          throw new ApiError('idempotency_key_reused', `Idempotency-Key '${key}' was already used with a different request body; use a new key for a new request.`)
        }
        if (existing.state === 'in_flight') {
          throw new ApiError('idempotency_key_in_use', `A request with Idempotency-Key '${key}' is still being processed; retry once it has finished.`)
        }
        return { kind: 'replay', record: existing }
      }
      const record: IdempotencyRecord = {
        scope,
        fingerprint,
        state: 'in_flight',
        status: 0,
        body: '',
        request_id: requestId,
        created_at: clock.nowIso(accountId),
        expires_at: isoOf(clock.now(accountId) + DAY_MS),
      }
      // A new object even in place of an expired record: the old one's expiry timer checks identity.
      records.start(accountId, record)
      return { kind: 'fresh', record }
    },

    /** Keeps the answer to replay it. */
    complete(accountId: string, record: IdempotencyRecord, status: number, body: string): void {
      records.finish(accountId, record, status, body)
      clock.schedule(Date.parse(record.expires_at) - clock.now(accountId), () => records.forget(accountId, record), accountId)
    },

    /** The request ended before validation passed: nothing is kept (CONTRACT.md section 6). */
    abandon(accountId: string, record: IdempotencyRecord): void {
      records.forget(accountId, record)
    },
  }
}

export type Idempotency = ReturnType<typeof createIdempotency>

function parseKey(header: string): string {
  const unquoted = /^"(.*)"$/.exec(header)?.[1] ?? header
  if (!VISIBLE_ASCII.test(unquoted)) {
    throw new ApiError('parameter_invalid', 'Idempotency-Key must be 1 to 255 visible ASCII characters (a UUID works well).', { param: 'Idempotency-Key' })
  }
  return unquoted
}

function fingerprintOf(body: RawBody): string {
  switch (body.kind) {
    case 'empty':
      return ''
    case 'invalid_json':
      return `raw:${body.text}`
    default:
      return canonicalJson(body.value)
  }
}

/** JSON with object keys sorted, so that key order does not make two equal bodies differ. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value && typeof value === 'object') {
    const entries = Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`)
    return `{${entries.join(',')}}`
  }
  return JSON.stringify(value)
}
