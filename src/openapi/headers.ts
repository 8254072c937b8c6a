import { VERSION_HEADER } from '../version.js'

/** The response headers and the Idempotency-Key parameter the document describes once, under components. */

export function responseHeaders(options: { rateLimited: boolean; idempotent: boolean }): Record<string, unknown> {
  const names = ['X-Request-Id', VERSION_HEADER, ...(options.rateLimited ? RATE_LIMIT_HEADERS : []), ...(options.idempotent ? ['Idempotent-Replayed'] : [])]
  return Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]))
}

const RATE_LIMIT_HEADERS = ['RateLimit-Policy', 'RateLimit', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']

const stringHeader = (description: string, example?: string) => ({ description, schema: { type: 'string', ...(example ? { example } : {}) } })
const integerHeader = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } })

export const HEADERS: Record<string, unknown> = {
  'X-Request-Id': { ...stringHeader('The request id (`req_…`), the same as `request_id` in the body.', 'req_4fJ8kQ2mN7pX9sT3vW6yZ1aB'), required: true },
  [VERSION_HEADER]: { ...stringHeader('The version of the wallet-sandbox that answered, on every answer: a client checks it talks to a sandbox it supports.', '0.1.0'), required: true },
  'RateLimit-Policy': stringHeader('The rate-limit policy: N requests per one-second window. Absent with --rate-limit 0.', '"sandbox";q=10;w=1'),
  RateLimit: stringHeader('Requests remaining in the window (r) and whole seconds until a slot frees (t). Absent with --rate-limit 0.', '"sandbox";r=9;t=0'),
  'X-RateLimit-Limit': integerHeader('Requests per second allowed for this key (legacy header).'),
  'X-RateLimit-Remaining': integerHeader('Requests left in the current window (legacy header).'),
  'X-RateLimit-Reset': integerHeader('Unix time (seconds) when a slot frees (legacy header).'),
  'Retry-After': { ...integerHeader('Whole seconds to wait before retrying (at least 1).'), required: true },
  Allow: { ...stringHeader('The methods this path supports.', 'GET, HEAD, POST'), required: true },
  'Idempotent-Replayed': stringHeader('`true` when this answer is the stored answer of an earlier request with the same Idempotency-Key.', 'true'),
}

export const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes the request safe to retry: a retry with the same key and body gets the stored answer again (header Idempotent-Replayed: true) and does nothing else. ' +
    'Same key with a different body: 422 idempotency_key_reused; while the first is running: 409 idempotency_key_in_use. Keys expire after 24 hours of sandbox time.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$', example: '3f1c9a52-7d0e-4b8e-9a43-1c2d3e4f5a6b' },
}
