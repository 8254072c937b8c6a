import type { z } from 'zod'
import { ERRORS, type ErrorCode } from '../errors.js'
import type { AnyRoute } from '../http/route.js'
import { SchemaComponents, type JsonSchema } from './components.js'
import { webhookOperations } from './webhooks.js'
import { ErrorBodySchema, PaginationSchema } from '../schemas/common.js'

/**
 * The OpenAPI 3.1 document of the sandbox, generated from the route objects: the same zod schemas
 * that validate requests describe them here (CONTRACT.md section 12, STYLE.md "One route object per
 * endpoint"). Served at GET /v1/openapi.json and printed by `wallet-sandbox openapi`.
 */

export const DEFAULT_SERVER_URL = 'http://127.0.0.1:4400'
const CONTROL_TAG = 'Sandbox control'

export interface OpenApiOptions {
  /** `info.version`: the package version. */
  version: string
  serverUrl?: string
}

export type OpenApiDocument = {
  openapi: '3.1.0'
  info: Record<string, unknown>
  servers: Array<{ url: string; description?: string }>
  security: Array<Record<string, string[]>>
  tags: Array<{ name: string; description?: string }>
  paths: Record<string, Record<string, Operation>>
  /** The event payloads the sandbox POSTs to webhook endpoints, one entry per event type. */
  webhooks: Record<string, { post: Record<string, unknown> }>
  components: Record<string, Record<string, unknown>>
}

export type Operation = Record<string, unknown> & { operationId: string; responses: Record<string, ResponseObject | { $ref: string }> }
export type ResponseObject = { description: string; headers?: Record<string, unknown>; content?: Record<string, { schema: JsonSchema }>; 'x-error-codes'?: string[] }

const WEBHOOKS_TAG = 'Webhook events'

/** Every tag a route may use; a route with a tag missing here fails the document's test (Redocly's tag-description). */
const TAG_DESCRIPTIONS: Record<string, string> = {
  Prices: 'Current prices of the price feed, the same numbers as the stream\'s `prices` channel.',
  Trading: 'Trading pairs and quotes: a conversion rate between two currencies, held for --quote-ttl of sandbox time.',
  Wallets: 'Wallets of the account, their balances, and closing them.',
  Payments: 'Payments from a wallet to another wallet of the account or to an external address.',
  Payouts: 'Bulk payouts: many payments from one wallet, validated and funded all or nothing.',
  Orders: 'Market and limit orders on a trading pair, filled from the price feed on the ticks of the sandbox clock.',
  Settlements: 'Cross-border settlements: value from a wallet to a wallet, an address on any network or a bank account abroad, in ordered steps (conversion, bridge, transfer).',
  'Whitelisted addresses': 'External addresses payments may go to when the account enforces its whitelist.',
  'Webhook endpoints': 'Where the sandbox delivers events (see the webhooks section for the payloads).',
  OpenAPI: 'This document.',
  [WEBHOOKS_TAG]: 'What the sandbox POSTs to webhook endpoints, one operation per event type.',
  [CONTROL_TAG]: 'The sandbox-only control API under /_sandbox. No API key; with --control-token it needs Authorization: Bearer <token>. Answers always use the {data, request_id} envelope.',
}

export function buildOpenApiDocument(routes: readonly AnyRoute[], options: OpenApiOptions): OpenApiDocument {
  const components = new SchemaComponents()
  // Rendered first so that the shared names are taken by the shapes every answer uses.
  const errorSchema = components.render(ErrorBodySchema, 'output')
  const paginationSchema = components.render(PaginationSchema, 'output')

  const responses = new SharedResponses()
  const requestBodies: Record<string, unknown> = {}
  const paths: OpenApiDocument['paths'] = {}
  const tags: string[] = []
  for (const route of routes) {
    const tag = route.path.startsWith('/_sandbox') ? CONTROL_TAG : route.tag
    if (!tags.includes(tag)) tags.push(tag)
    const operations = (paths[route.path] ??= {})
    operations[route.method] = buildOperation(route, tag, { components, responses, requestBodies, errorSchema, paginationSchema })
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'wallet-sandbox',
      version: options.version,
      description: INFO_DESCRIPTION,
      license: { name: 'MIT', identifier: 'MIT' },
      contact: { name: 'wallet-sandbox' },
    },
    servers: [{ url: options.serverUrl ?? DEFAULT_SERVER_URL, description: 'The sandbox on its default address' }],
    security: [{ apiKey: [] }],
    tags: [...tags, WEBHOOKS_TAG].map((name) => (TAG_DESCRIPTIONS[name] ? { name, description: TAG_DESCRIPTIONS[name] } : { name })),
    paths,
    webhooks: webhookOperations(components, WEBHOOKS_TAG),
    components: {
      schemas: components.schemas,
      requestBodies,
      responses: responses.responses,
      securitySchemes: SECURITY_SCHEMES,
      parameters: { IdempotencyKey: IDEMPOTENCY_KEY_PARAMETER },
      headers: HEADERS,
    },
  }
}

interface Shared {
  components: SchemaComponents
  responses: SharedResponses
  /** components/requestBodies, filled with the named request bodies. */
  requestBodies: Record<string, unknown>
  errorSchema: JsonSchema
  paginationSchema: JsonSchema
}

function buildOperation(route: AnyRoute, tag: string, shared: Shared): Operation {
  const { components } = shared
  const underV1 = route.path.startsWith('/v1/')
  const auth = route.auth ?? 'key'
  const idempotent = underV1 && route.method === 'post' && auth === 'key'
  const body = route.request?.body

  const query = queryParameters(route.request?.query, components)
  const parameters: unknown[] = [...pathParameters(route, components), ...query]
  if (idempotent) parameters.push({ $ref: '#/components/parameters/IdempotencyKey' })

  const operation: Operation = {
    operationId: route.operationId,
    summary: route.summary,
    description: describeOperation(route, auth),
    tags: [tag],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body ? { requestBody: requestBody(body, shared) } : {}),
    responses: {},
  }
  if (auth === 'none') operation.security = []
  else if (auth === 'control') operation.security = [{}, { controlToken: [] }]

  const rateLimited = underV1 && auth === 'key'
  operation.responses[String(route.status)] = {
    description: route.raw ? 'The document itself, without an envelope.' : successDescription(route, underV1),
    headers: responseHeaders({ rateLimited, idempotent }),
    content: { 'application/json': { schema: successSchema(route, shared) } },
  }
  const ownStatuses = new Set<number>((route.errors ?? []).map((code) => ERRORS[code].status))
  for (const [status, codes] of errorCodesByStatus(route, { underV1, auth, idempotent, requiredQuery: query.some((parameter) => parameter.required) })) {
    const sharedName = SHARED_ERROR_RESPONSES[status] && !ownStatuses.has(status) ? `${SHARED_ERROR_RESPONSES[status]}${KIND_SUFFIX[auth]}` : undefined
    const response: ResponseObject = {
      description: `${codes.map((code) => `\`${code}\``).join(', ')}.`,
      headers: {
        ...responseHeaders({ rateLimited: rateLimited && !BEFORE_RATE_LIMIT.has(status), idempotent: idempotent && !sharedName }),
        ...(status === 429 ? { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } : {}),
        ...(status === 405 ? { Allow: { $ref: '#/components/headers/Allow' } } : {}),
      },
      content: { 'application/json': { schema: shared.errorSchema } },
      'x-error-codes': codes,
    }
    operation.responses[String(status)] = sharedName ? shared.responses.refer(sharedName, response) : response
  }
  return operation
}

/** Error answers that depend only on the kind of route, not on the route: kept once under components/responses. */
const SHARED_ERROR_RESPONSES: Record<number, string> = {
  401: 'Unauthorized', 403: 'Forbidden', 405: 'MethodNotAllowed', 413: 'PayloadTooLarge', 415: 'UnsupportedMediaType', 429: 'TooManyRequests', 500: 'InternalError', 503: 'ServiceUnavailable',
}
const KIND_SUFFIX = { key: '', control: 'OnControlRoute', none: 'OnPublicRoute' } as const

/** Answered before the rate limiter counts the request, so without RateLimit headers. */
const BEFORE_RATE_LIMIT = new Set([401, 403, 405])

/** components/responses: a name is shared only by identical answers; a different one stays inline. */
class SharedResponses {
  readonly responses: Record<string, ResponseObject> = {}

  refer(name: string, response: ResponseObject): ResponseObject | { $ref: string } {
    const existing = this.responses[name]
    if (existing && JSON.stringify(existing) !== JSON.stringify(response)) return response
    this.responses[name] = response
    return { $ref: `#/components/responses/${name}` }
  }
}

/** Path parameters, each with the `example` of its schema (an id that works on a fresh sandbox, src/schemas/path-params.ts). */
function pathParameters(route: AnyRoute, components: SchemaComponents): unknown[] {
  const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!)
  const properties = objectProperties(route.request?.params, components, 'input').properties
  return names.map((name) => {
    const { example, ...schema } = properties[name] ?? { type: 'string' }
    return { name, in: 'path', required: true, schema, ...(example === undefined ? {} : { example }) }
  })
}

/**
 * Query values travel as text, and OpenAPI describes a parameter by the value it stands for: the
 * schema is the one the sandbox reads the value as (`limit` is an integer from 1 to 100, default 20),
 * while `required` follows what a client must send.
 */
function queryParameters(query: z.ZodType | undefined, components: SchemaComponents): Array<{ name: string; required: boolean }> {
  const sent = objectProperties(query, components, 'input')
  const read = objectProperties(query, components, 'output')
  return Object.entries(read.properties).map(([name, schema]) => {
    const { description, ...rest } = schema
    return { name, in: 'query', required: sent.required.includes(name), ...(description ? { description } : {}), schema: rest }
  })
}

/** The properties of a params or query object. */
function objectProperties(schema: z.ZodType | undefined, components: SchemaComponents, io: 'input' | 'output'): { properties: Record<string, JsonSchema>; required: string[] } {
  if (!schema) return { properties: {}, required: [] }
  const json = components.resolve(components.render(schema, io))
  return { properties: (json.properties ?? {}) as Record<string, JsonSchema>, required: (json.required ?? []) as string[] }
}

/**
 * A named request body goes to components/requestBodies with its schema inline, not to
 * components/schemas: generators (openapi-typescript) read a property with a `default` under
 * components/schemas as always present, which holds for answers but makes a defaulted request
 * field (a wallet's `type`) look required.
 */
function requestBody(body: z.ZodType, shared: Shared): Record<string, unknown> {
  // An absent body is read as {}; it is optional exactly when {} is a valid body (PUT with no change).
  const required = !body.safeParse({}).success
  const id = (body.meta() as { id?: string } | undefined)?.id
  const described = {
    required,
    description: 'JSON (Content-Type: application/json). With --lenient, form-encoded bodies are accepted too.',
    content: { 'application/json': { schema: shared.components.render(body, 'input', { inline: true }) } },
  }
  if (!id) return described
  shared.requestBodies[id] = described
  return { $ref: `#/components/requestBodies/${id}` }
}

function successSchema(route: AnyRoute, shared: Shared): JsonSchema {
  const resource = shared.components.render(route.response, 'output')
  if (route.raw) return resource
  const requestId = { $ref: '#/components/schemas/RequestId' }
  shared.components.schemas.RequestId ??= { type: 'string', pattern: '^req_', description: 'The id of this request; also sent as the X-Request-Id header.', example: 'req_4fJ8kQ2mN7pX9sT3vW6yZ1aB' }
  if (route.list) {
    const extra = route.listExtra ? (shared.components.render(route.listExtra, 'output', { inline: true }) as { properties: Record<string, JsonSchema>; required?: string[] }) : undefined
    return {
      type: 'object',
      properties: { data: { type: 'array', items: resource }, pagination: shared.paginationSchema, ...extra?.properties, request_id: requestId },
      required: ['data', 'pagination', ...(extra?.required ?? []), 'request_id'],
      additionalProperties: false,
    }
  }
  return { type: 'object', properties: { data: resource, request_id: requestId }, required: ['data', 'request_id'], additionalProperties: false }
}

function successDescription(route: AnyRoute, underV1: boolean): string {
  if (route.list) return 'A page of results: `{data: [...], pagination, request_id}` (the same with --envelope bare).'
  if (!underV1) return 'The result in the `{data, request_id}` envelope (whatever --envelope says).'
  return 'The resource in the `{data, request_id}` envelope. With --envelope bare the body is the resource itself.'
}

function describeOperation(route: AnyRoute, auth: 'key' | 'none' | 'control'): string {
  const lines = [route.summary + '.']
  if (auth === 'key' && route.scope) lines.push(`Restricted keys need the scope \`${route.scope}\` (a \`:write\` scope includes its \`:read\`).`)
  if (auth === 'none') lines.push('No API key needed.')
  return lines.join(' ')
}

interface ErrorContext {
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
function errorCodesByStatus(route: AnyRoute, context: ErrorContext): Map<number, ErrorCode[]> {
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

function responseHeaders(options: { rateLimited: boolean; idempotent: boolean }): Record<string, unknown> {
  const names = ['X-Request-Id', ...(options.rateLimited ? RATE_LIMIT_HEADERS : []), ...(options.idempotent ? ['Idempotent-Replayed'] : [])]
  return Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]))
}

const RATE_LIMIT_HEADERS = ['RateLimit-Policy', 'RateLimit', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']

const stringHeader = (description: string, example?: string) => ({ description, schema: { type: 'string', ...(example ? { example } : {}) } })
const integerHeader = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } })

const HEADERS: Record<string, unknown> = {
  'X-Request-Id': { ...stringHeader('The request id (`req_…`), the same as `request_id` in the body.', 'req_4fJ8kQ2mN7pX9sT3vW6yZ1aB'), required: true },
  'RateLimit-Policy': stringHeader('The rate-limit policy: N requests per one-second window. Absent with --rate-limit 0.', '"sandbox";q=10;w=1'),
  RateLimit: stringHeader('Requests remaining in the window (r) and whole seconds until a slot frees (t). Absent with --rate-limit 0.', '"sandbox";r=9;t=0'),
  'X-RateLimit-Limit': integerHeader('Requests per second allowed for this key (legacy header).'),
  'X-RateLimit-Remaining': integerHeader('Requests left in the current window (legacy header).'),
  'X-RateLimit-Reset': integerHeader('Unix time (seconds) when a slot frees (legacy header).'),
  'Retry-After': { ...integerHeader('Whole seconds to wait before retrying (at least 1).'), required: true },
  Allow: { ...stringHeader('The methods this path supports.', 'GET, HEAD, POST'), required: true },
  'Idempotent-Replayed': stringHeader('`true` when this answer is the stored answer of an earlier request with the same Idempotency-Key.', 'true'),
}

const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes the request safe to retry: a retry with the same key and body gets the stored answer again (header Idempotent-Replayed: true) and does nothing else. ' +
    'Same key with a different body: 422 idempotency_key_reused; while the first is running: 409 idempotency_key_in_use. Keys expire after 24 hours of sandbox time.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$', example: '3f1c9a52-7d0e-4b8e-9a43-1c2d3e4f5a6b' },
}

const SECURITY_SCHEMES = {
  apiKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'sk_test_… or rk_test_…',
    description:
      'A sandbox API key: `sk_test_` (secret) or `rk_test_` (restricted, with scopes) followed by at least 8 letters, digits or underscores. ' +
      'With --auth open (the default) any well-formed sk_test_ key gets its own freshly seeded account.',
  },
  controlToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'The token given to --control-token. Without that flag the control API needs no credentials.',
  },
}

const INFO_DESCRIPTION = [
  'A local emulator of a digital-asset wallet and payments API, for integration tests.',
  '',
  'Success bodies are `{data, request_id}`; lists are `{data: [...], pagination: {limit, offset, total, has_more}, request_id}`. ' +
    'With `--envelope bare` single resources are returned bare; lists and errors keep their shape.',
  'Errors are `{error: {type, code, message, param?}, request_id}`; each error response lists its possible codes.',
  'Every response carries `X-Request-Id`. Every POST under /v1 accepts `Idempotency-Key`.',
].join('\n')
