import { ERRORS, type ErrorCode } from '../errors.js'
import type { AnyRoute } from '../http/route.js'
import type { ResponseObject } from './types.js'

/** Error answers that depend only on the kind of route, not on the route: kept once under components/responses. */
export const SHARED_ERROR_RESPONSES: Record<number, string> = {
  401: 'Unauthorized', 403: 'Forbidden', 405: 'MethodNotAllowed', 413: 'PayloadTooLarge', 415: 'UnsupportedMediaType', 429: 'TooManyRequests', 500: 'InternalError', 503: 'ServiceUnavailable',
}
export const KIND_SUFFIX = { key: '', control: 'OnControlRoute', none: 'OnPublicRoute' } as const

/** Answered before the rate limiter counts the request, so without RateLimit headers. */
export const BEFORE_RATE_LIMIT = new Set([401, 403, 405])

/** components/responses: a name is shared only by identical answers; a different one stays inline. */
export class SharedResponses {
  readonly responses: Record<string, ResponseObject> = {}

  refer(name: string, response: ResponseObject): ResponseObject | { $ref: string } {
    const existing = this.responses[name]
    if (existing && JSON.stringify(existing) !== JSON.stringify(response)) return response
    this.responses[name] = response
    return { $ref: `#/components/responses/${name}` }
  }
}

export interface ErrorContext {
  underV1: boolean
  auth: 'key' | 'none' | 'control'
  idempotent: boolean
  /** The route has a required query parameter. */
  requiredQuery: boolean
}

/**
 * The route's own errors plus those the pipeline can answer for any route of its kind, grouped by
 * status in the order of the catalogue (CONTRACT.md sections 2 and 13).
 */
export function errorCodesByStatus(route: AnyRoute, context: ErrorContext): Map<number, ErrorCode[]> {
  const hasBody = route.request?.body !== undefined
  const codes = new Set<ErrorCode>(['parameter_invalid', 'route_not_found', 'method_not_allowed', 'internal_error'])
  if (hasBody) for (const code of ['parameter_missing', 'invalid_json', 'body_too_large', 'unsupported_media_type'] as const) codes.add(code)
  if (context.requiredQuery) codes.add('parameter_missing')
  if (context.auth === 'key') {
    for (const code of ['api_key_missing', 'api_key_invalid', 'live_key_in_sandbox', 'insufficient_permissions', 'ip_not_allowed'] as const) codes.add(code)
  }
  if (context.auth === 'control') codes.add('control_token_invalid')
  if (context.underV1 && context.auth === 'key') {
    // Request signing (CONTRACT.md section 17), for keys that must sign.
    for (const code of ['signature_missing', 'signature_invalid', 'signature_expired', 'signature_future', 'signature_replayed', 'content_digest_mismatch'] as const) codes.add(code)
    codes.add('rate_limit_exceeded')
    codes.add('service_unavailable')
  }
  if (context.idempotent) {
    codes.add('idempotency_key_reused')
    codes.add('idempotency_key_in_use')
  }
  for (const code of route.errors ?? []) codes.add(code)

  const byStatus = new Map<number, ErrorCode[]>()
  for (const code of Object.keys(ERRORS) as ErrorCode[]) {
    if (!codes.has(code)) continue
    const status = ERRORS[code].status
    byStatus.set(status, [...(byStatus.get(status) ?? []), code])
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b))
}
