import type { z } from 'zod'
import { ERRORS } from '../errors.js'
import type { AnyRoute } from '../http/route.js'
import { SchemaComponents, type JsonSchema } from './components.js'
import { CONTROL_TAG, describeOperation, INFO_DESCRIPTION, SECURITY_SCHEMES, successDescription, TAG_DESCRIPTIONS, WEBHOOKS_TAG } from './descriptions.js'
import { BEFORE_RATE_LIMIT, errorCodesByStatus, KIND_SUFFIX, SHARED_ERROR_RESPONSES, SharedResponses } from './error-responses.js'
import { HEADERS, IDEMPOTENCY_KEY_PARAMETER, responseHeaders } from './headers.js'
import type { OpenApiDocument, Operation, ResponseObject } from './types.js'
import { webhookOperations } from './webhooks.js'
import { ErrorBodySchema, PaginationSchema } from '../schemas/common.js'

export type { OpenApiDocument, Operation, ResponseObject } from './types.js'

/**
 * The OpenAPI 3.1 document of the sandbox, generated from the route objects: the same zod schemas
 * that validate requests describe them here (CONTRACT.md section 12, STYLE.md "One route object per
 * endpoint"). Served at GET /v1/openapi.json and printed by `wallet-sandbox openapi`.
 */

export const DEFAULT_SERVER_URL = 'http://127.0.0.1:4400'

export interface OpenApiOptions {
  /** `info.version`: the package version. */
  version: string
  serverUrl?: string
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
    const position = route.list === 'cursor' ? { has_more: { type: 'boolean', description: 'More match after the last item of data: ask again with after set to its id.' } } : { pagination: shared.paginationSchema }
    return {
      type: 'object',
      properties: { data: { type: 'array', items: resource }, ...position, ...extra?.properties, request_id: requestId },
      required: ['data', ...Object.keys(position), ...(extra?.required ?? []), 'request_id'],
      additionalProperties: false,
    }
  }
  return { type: 'object', properties: { data: resource, request_id: requestId }, required: ['data', 'request_id'], additionalProperties: false }
}
