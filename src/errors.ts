/**
 * The error catalogue: every error the sandbox can answer, with its wire type and HTTP status
 * (CONTRACT.md section 2). Code that fails throws `ApiError` with one of these codes; the single
 * error handler turns it into `{ error: { type, code, message, param? }, request_id }`.
 */
export const ERRORS = {
  parameter_invalid: { type: 'invalid_request_error', status: 400 },
  parameter_missing: { type: 'invalid_request_error', status: 400 },
  // Also a body nesting arrays and objects deeper than MAX_JSON_DEPTH (schemas/json-depth.ts): it is refused unread.
  invalid_json: { type: 'invalid_request_error', status: 400 },
  malformed_request: { type: 'invalid_request_error', status: 400 },
  request_timeout: { type: 'invalid_request_error', status: 408 },
  headers_too_large: { type: 'invalid_request_error', status: 431 },
  resource_missing: { type: 'invalid_request_error', status: 404 },
  route_not_found: { type: 'invalid_request_error', status: 404 },
  method_not_allowed: { type: 'invalid_request_error', status: 405 },
  wallet_not_empty: { type: 'invalid_request_error', status: 409 },
  invalid_state_transition: { type: 'invalid_request_error', status: 409 },
  // The request journal keeps nothing (--request-log-limit 0): it cannot list or check requests.
  request_log_disabled: { type: 'invalid_request_error', status: 409 },
  body_too_large: { type: 'invalid_request_error', status: 413 },
  unsupported_media_type: { type: 'invalid_request_error', status: 415 },
  insufficient_funds: { type: 'invalid_request_error', status: 422 },
  wallet_inactive: { type: 'invalid_request_error', status: 422 },
  recipient_not_whitelisted: { type: 'invalid_request_error', status: 422 },
  quote_expired: { type: 'invalid_request_error', status: 422 },
  quote_already_used: { type: 'invalid_request_error', status: 422 },
  idempotency_key_reused: { type: 'idempotency_error', status: 422 },
  idempotency_key_in_use: { type: 'idempotency_error', status: 409 },
  api_key_missing: { type: 'authentication_error', status: 401 },
  api_key_invalid: { type: 'authentication_error', status: 401 },
  live_key_in_sandbox: { type: 'authentication_error', status: 401 },
  control_token_invalid: { type: 'authentication_error', status: 401 },
  // Request signing (CONTRACT.md section 17): checked after the key, before the rate limit.
  signature_missing: { type: 'authentication_error', status: 401 },
  signature_invalid: { type: 'authentication_error', status: 401 },
  signature_expired: { type: 'authentication_error', status: 401 },
  signature_future: { type: 'authentication_error', status: 401 },
  signature_replayed: { type: 'authentication_error', status: 401 },
  content_digest_mismatch: { type: 'invalid_request_error', status: 400 },
  insufficient_permissions: { type: 'permission_error', status: 403 },
  ip_not_allowed: { type: 'permission_error', status: 403 },
  rate_limit_exceeded: { type: 'rate_limit_error', status: 429 },
  internal_error: { type: 'api_error', status: 500 },
  service_unavailable: { type: 'api_error', status: 503 },
} as const satisfies Record<string, { type: string; status: number }>

export type ErrorCode = keyof typeof ERRORS
export type ErrorType = (typeof ERRORS)[ErrorCode]['type']

/** `['items', 3, 'recipient']` → `items[3].recipient`: how a `param` names a field, array positions as in JavaScript. */
export const formatParam = (path: readonly PropertyKey[]): string =>
  path.map((key, i) => (typeof key === 'number' ? `[${key}]` : i === 0 ? String(key) : `.${String(key)}`)).join('')

export interface ErrorBody {
  type: ErrorType
  code: ErrorCode
  message: string
  param?: string
  /** `signature_invalid` only: the signature base the sandbox computed, null when none could be built. */
  signature_base?: string | null
}

export interface ApiErrorOptions {
  param?: string
  signatureBase?: string | null
  /** Extra response headers, such as `Allow` or `Retry-After`. */
  headers?: Record<string, string>
  cause?: unknown
}

export class ApiError extends Error {
  readonly code: ErrorCode
  readonly param: string | undefined
  readonly signatureBase: string | null | undefined
  readonly headers: Record<string, string>

  constructor(code: ErrorCode, message: string, options: ApiErrorOptions = {}) {
    super(message, { cause: options.cause })
    this.name = 'ApiError'
    this.code = code
    this.param = options.param
    this.signatureBase = options.signatureBase
    this.headers = options.headers ?? {}
  }

  get status(): number {
    return ERRORS[this.code].status
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { type: ERRORS[this.code].type, code: this.code, message: this.message }
    if (this.param !== undefined) body.param = this.param
    if (this.signatureBase !== undefined) body.signature_base = this.signatureBase
    return body
  }
}

/** The longest piece of a received value an error message repeats. */
const ECHO_LIMIT = 60

/**
 * A received value as an error message may show it: strings quoted and cut to 60 characters,
 * anything else named by its kind. Messages never render unbounded input (a 100 KB id, a value
 * nested thousands of levels deep), so an error stays short and can never fail to render.
 */
export function echo(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > ECHO_LIMIT ? `${value.slice(0, ECHO_LIMIT)}…` : value)
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value)
  return Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : typeof value
}

/** A received id or name as it appears between quotes in a message: cut like `echo`, without JSON escaping. */
export const echoId = (value: string): string => (value.length > ECHO_LIMIT ? `${value.slice(0, ECHO_LIMIT)}…` : value)

/** 404 for an unknown id, and for an id of another account: both must read the same. */
export function notFound(kind: string, id: string, param?: string): ApiError {
  return new ApiError('resource_missing', `No such ${kind}: '${echoId(id)}'.`, param ? { param } : {})
}
