import { validate, compileErrors } from '@readme/openapi-parser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { describeApi } from '../../src/cli/describe-api.js'
import { buildOpenApiDocument, type OpenApiDocument, type ResponseObject } from '../../src/openapi/document.js'
import type { AnyRoute } from '../../src/http/route.js'
import { EVENT_TYPES } from '../../src/model/events.js'
import { VERSION } from '../../src/version.js'
import { checkerFor, ConformanceChecker } from '../helpers/conformance.js'
import { startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

let sb: TestSandbox
let doc: OpenApiDocument
let routes: readonly AnyRoute[]
beforeAll(async () => {
  sb = await startTestSandbox()
  doc = (await sb.api.get('/v1/openapi.json').expect(200)).body
  routes = await sb.sandbox.loadRoutes()
})
afterAll(() => sb.close())

type Operation = OpenApiDocument['paths'][string][string]
/** An operation's answer for a status, following a $ref into components/responses. */
const response = (op: Operation, status: string): ResponseObject => {
  const entry = op.responses[status]!
  return '$ref' in entry ? (doc.components.responses![entry.$ref.split('/').pop()!] as ResponseObject) : entry
}
const operations = () => Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op: op as Operation })))

describe('GET /v1/openapi.json', () => {
  it('serves the document itself, not enveloped, without an API key', async () => {
    const res = await sb.api.get('/v1/openapi.json').expect(200).expect('Content-Type', /application\/json/)
    expect(res.body.openapi).toBe('3.1.0')
    expect(res.body.data).toBeUndefined()
    expect(res.headers['x-request-id']).toMatch(/^req_/)
  })

  it('is the document wallet-sandbox builds from its routes, with the package version and the default server', () => {
    expect(doc).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument(routes, { version: VERSION }))))
    expect(doc.info.version).toBe(VERSION)
    expect(doc.servers).toEqual([expect.objectContaining({ url: 'http://127.0.0.1:4400' })])
  })

  it('is what `wallet-sandbox openapi` prints', async () => {
    expect(JSON.parse(JSON.stringify(await describeApi()))).toEqual(doc)
  })

  it('is valid OpenAPI 3.1 for @readme/openapi-parser', async () => {
    const result = await validate(structuredClone(doc) as never)
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true)
    expect(result.specification).toBe('OpenAPI')
  })
})

describe('the document describes every route object', () => {
  it('lists every route of the sandbox under its path, method and operationId', () => {
    for (const route of routes) {
      expect(doc.paths[route.path]?.[route.method]?.operationId, `${route.method} ${route.path}`).toBe(route.operationId)
    }
    expect(operations()).toHaveLength(routes.length)
  })

  it('tags /_sandbox routes "Sandbox control" and lists every tag it uses', () => {
    const tagNames = doc.tags.map((tag) => tag.name)
    for (const { path, op } of operations()) {
      const [tag] = op.tags as string[]
      expect(tagNames).toContain(tag)
      if (path.startsWith('/_sandbox')) expect(tag).toBe('Sandbox control')
    }
  })

  it('has only valid JSON Schema 2020-12 schemas, every one of which compiles', () => {
    expect(checkerFor(routes).compileEverySchema()).toBeGreaterThan(50)
  })

  it('resolves every $ref inside the document', () => {
    const refs = new Set<string>()
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk)
      else if (node && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) key === '$ref' ? refs.add(value as string) : walk(value)
      }
    }
    walk(doc)
    expect(refs.size).toBeGreaterThan(5)
    for (const ref of refs) {
      expect(ref, ref).toMatch(/^#\//)
      const target = ref.slice(2).split('/').reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], doc)
      expect(target, `${ref} resolves`).toBeDefined()
    }
  })

  it('has the shared components: Error, Pagination and the named resource schemas', () => {
    expect(Object.keys(doc.components.schemas!)).toEqual(expect.arrayContaining(['Error', 'Pagination', 'Wallet', 'Payment', 'Balance', 'Metadata', 'PaymentSucceededEvent']))
    expect(Object.keys(doc.components.requestBodies!)).toEqual(expect.arrayContaining(['CreateWalletRequest', 'CreatePaymentRequest', 'CreatePayoutRequest']))
  })

  it('gives path parameters an example id and query parameters the type the sandbox reads them as', () => {
    const getWallet = doc.paths['/v1/wallets/{id}']!.get!
    expect(getWallet.parameters).toEqual([{ name: 'id', in: 'path', required: true, schema: { type: 'string' }, example: 'wal_RJ404a9s9n2lY76hzhRKhSUF' }])
    const listWallets = doc.paths['/v1/wallets']!.get!.parameters as Array<{ name: string; required: boolean; schema: Record<string, unknown> }>
    const parameter = (name: string) => listWallets.find((candidate) => candidate.name === name)!
    expect(parameter('limit')).toMatchObject({ in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } })
    expect(parameter('offset')).toMatchObject({ in: 'query', required: false, schema: { type: 'integer', minimum: 0, default: 0 } })
    expect(parameter('network').schema).toEqual({ type: 'string', enum: ['polygon', 'ethereum', 'stellar', 'solana'] })
    expect(listWallets.map((candidate) => candidate.name)).toEqual(expect.arrayContaining(['offset', 'network', 'currency', 'type', 'status']))
  })

  it('describes request bodies as JSON with their zod input schema, under components/requestBodies', () => {
    expect(doc.paths['/v1/payments']!.post!.requestBody).toEqual({ $ref: '#/components/requestBodies/CreatePaymentRequest' })
    const body = doc.components.requestBodies!.CreatePaymentRequest as { required: boolean; content: Record<string, { schema: Record<string, unknown> }> }
    expect(body.required).toBe(true)
    expect(body.content['application/json']!.schema).toMatchObject({ type: 'object', required: ['amount', 'currency', 'source_wallet', 'recipient'], additionalProperties: false })
    const update = doc.components.requestBodies!.UpdateWalletRequest as { required: boolean }
    expect(update.required).toBe(false) // PUT with an empty body changes nothing and is accepted
  })

  it('wraps single resources in {data, request_id} and lists in {data, pagination, request_id}', () => {
    const single = response(doc.paths['/v1/wallets/{id}']!.get!, '200').content!['application/json']!.schema
    expect(single).toMatchObject({ properties: { data: { $ref: '#/components/schemas/Wallet' } }, required: ['data', 'request_id'] })
    const list = response(doc.paths['/v1/wallets']!.get!, '200').content!['application/json']!.schema
    expect(list).toMatchObject({ properties: { data: { type: 'array', items: { $ref: '#/components/schemas/Wallet' } }, pagination: { $ref: '#/components/schemas/Pagination' } } })
    expect(doc.paths['/v1/payments']!.post!.responses['201']).toBeDefined()
  })

  it.each([
    ['post', '/v1/payments', { 400: ['parameter_invalid', 'parameter_missing', 'invalid_json'], 401: ['api_key_missing', 'api_key_invalid', 'live_key_in_sandbox'], 403: ['insufficient_permissions', 'ip_not_allowed'], 404: ['resource_missing', 'route_not_found'], 405: ['method_not_allowed'], 409: ['idempotency_key_in_use'], 413: ['body_too_large'], 415: ['unsupported_media_type'], 422: ['insufficient_funds', 'wallet_inactive', 'recipient_not_whitelisted', 'idempotency_key_reused'], 429: ['rate_limit_exceeded'], 500: ['internal_error'] }],
    ['get', '/v1/wallets/{id}', { 400: ['parameter_invalid'], 401: ['api_key_missing'], 403: ['insufficient_permissions'], 404: ['resource_missing'], 429: ['rate_limit_exceeded'], 500: ['internal_error'] }],
    ['get', '/v1/openapi.json', { 400: ['parameter_invalid'], 500: ['internal_error'] }],
  ] as const)('documents the errors %s %s can answer, by status, each as the shared Error', (method, path, expected) => {
    const op = doc.paths[path]![method]!
    for (const [status, codes] of Object.entries(expected)) {
      expect(op.responses[status], `${status}`).toBeDefined()
      const answer = response(op, status)
      expect(answer['x-error-codes']).toEqual(expect.arrayContaining([...codes]))
      expect(answer.content!['application/json']!.schema).toEqual({ $ref: '#/components/schemas/Error' })
    }
  })

  it('keeps errors out where they cannot happen: no body errors on a GET, no auth errors on a public route', () => {
    const getWallet = doc.paths['/v1/wallets/{id}']!.get!.responses
    expect(getWallet['413']).toBeUndefined()
    expect(getWallet['415']).toBeUndefined()
    const openapi = doc.paths['/v1/openapi.json']!.get!.responses
    expect(openapi['401']).toBeUndefined()
    expect(openapi['429']).toBeUndefined()
  })

  it('keeps answers that only depend on the kind of route once, under components/responses', () => {
    expect(doc.paths['/v1/wallets']!.get!.responses['401']).toEqual({ $ref: '#/components/responses/Unauthorized' })
    expect(doc.paths['/v1/payments/{id}']!.get!.responses['429']).toEqual({ $ref: '#/components/responses/TooManyRequests' })
    expect(response(doc.paths['/v1/payments/{id}']!.get!, '401')['x-error-codes']).toEqual(['api_key_missing', 'api_key_invalid', 'live_key_in_sandbox', 'signature_missing', 'signature_invalid', 'signature_expired', 'signature_future', 'signature_replayed'])
    // A status a route adds codes to stays with the route.
    expect(doc.paths['/v1/payments']!.post!.responses['422']).not.toHaveProperty('$ref')
  })

  it('sends Retry-After with 429, Allow with 405 and X-Request-Id with every response', () => {
    for (const { op } of operations()) {
      for (const status of Object.keys(op.responses)) {
        const { headers } = response(op, status)
        expect(headers, `${op.operationId} ${status}`).toHaveProperty('X-Request-Id')
        if (status === '429') expect(headers).toHaveProperty('Retry-After')
        if (status === '405') expect(headers).toHaveProperty('Allow')
      }
    }
  })

  it('takes Idempotency-Key on every POST under /v1', () => {
    for (const { path, method, op } of operations()) {
      const takesKey = (op.parameters as Array<{ $ref?: string }> | undefined)?.some((parameter) => parameter.$ref === '#/components/parameters/IdempotencyKey') ?? false
      expect(takesKey, `${method} ${path}`).toBe(method === 'post' && path.startsWith('/v1/'))
    }
  })

  it('asks for a bearer API key everywhere except on public routes; control routes take the optional control token', () => {
    expect(doc.security).toEqual([{ apiKey: [] }])
    expect(doc.components.securitySchemes).toMatchObject({ apiKey: { type: 'http', scheme: 'bearer' }, controlToken: { type: 'http', scheme: 'bearer' } })
    for (const route of routes) {
      const { security } = doc.paths[route.path]![route.method]! as { security?: unknown }
      if (route.auth === 'none') expect(security, route.operationId).toEqual([])
      else if (route.auth === 'control') expect(security, route.operationId).toEqual([{}, { controlToken: [] }])
      else expect(security, route.operationId).toBeUndefined()
    }
  })
})

/** Every schema object of the document with the JSON pointer-ish path where it sits. */
function everyNode(root: unknown): Array<{ path: string; node: Record<string, unknown> }> {
  const nodes: Array<{ path: string; node: Record<string, unknown> }> = []
  const walk = (node: unknown, path: string): void => {
    if (Array.isArray(node)) node.forEach((child, index) => walk(child, `${path}/${index}`))
    else if (node && typeof node === 'object') {
      nodes.push({ path, node: node as Record<string, unknown> })
      for (const [key, child] of Object.entries(node)) walk(child, `${path}/${key}`)
    }
  }
  walk(root, '')
  return nodes
}

/** A property's own schema, through `$ref` and a nullable `anyOf`. */
function resolveProperty(schema: Record<string, unknown>): Record<string, unknown> {
  if (typeof schema.$ref === 'string') return resolveProperty(doc.components.schemas![schema.$ref.split('/').pop()!] as Record<string, unknown>)
  const anyOf = schema.anyOf as Array<Record<string, unknown>> | undefined
  const members = anyOf?.filter((member) => member.type !== 'null')
  return members?.length === 1 ? resolveProperty(members[0]!) : schema
}

describe('the document works in the common tools (CONTRACT.md section 14)', () => {
  it('has no prefixItems tuples and no negative minimum', () => {
    const tuples = everyNode(doc).filter(({ node }) => 'prefixItems' in node).map(({ path }) => path)
    expect(tuples).toEqual([])
    const negative = everyNode(doc).filter(({ node }) => typeof node.minimum === 'number' && node.minimum < 0).map(({ path }) => path)
    expect(negative).toEqual([])
    expect(doc.components.schemas!.Fault).toMatchObject({ properties: { latency_ms: { anyOf: [{ anyOf: [{ type: 'integer' }, { type: 'array', items: { type: 'integer' }, minItems: 2, maxItems: 2 }] }, { type: 'null' }] } } })
  })

  it('gives every timestamp anywhere in the document format date-time (the snapshot and restore bodies included)', () => {
    const timestamps = everyNode(doc).flatMap(({ path, node }) =>
      Object.entries((node.properties ?? {}) as Record<string, Record<string, unknown>>)
        .filter(([name]) => /(_at|^at|^now|^timestamp)$/.test(name))
        .map(([name, schema]) => ({ where: `${path}/${name}`, schema: resolveProperty(schema) })),
    )
    expect(timestamps.length).toBeGreaterThan(100)
    expect(timestamps.map(({ where }) => where)).toContain('/components/schemas/SandboxSnapshot/properties/accounts/items/properties/payments/items/completed_at')
    expect(timestamps.filter(({ schema }) => schema.format !== 'date-time').map(({ where, schema }) => `${where}: ${JSON.stringify(schema)}`)).toEqual([])
  })

  it('makes closed sets enums in answers: currency, network, status, failure codes, event types', () => {
    const closed = ['currency', 'network', 'status', 'failure_code', 'event_type', 'type', 'destination_type', 'outcome', 'mode']
    // The snapshot's records are the data file's format (src/store/data.ts), which reads files as they are.
    const loose = everyNode(doc.components.schemas).filter(({ path }) => !path.startsWith('/SandboxSnapshot/properties/accounts')).flatMap(({ path, node }) =>
      Object.entries((node.properties ?? {}) as Record<string, Record<string, unknown>>)
        .filter(([name]) => closed.includes(name))
        .map(([name, schema]) => ({ where: `${path}/${name}`, schema: resolveProperty(schema) }))
        .filter(({ schema }) => schema.enum === undefined && schema.const === undefined && schema.type !== 'integer'),
    )
    expect(loose.map(({ where }) => where)).toEqual([])
    expect(resolveProperty((doc.components.schemas!.Payment as { properties: Record<string, Record<string, unknown>> }).properties.failure_code!).enum).toEqual(
      ['screening_rejected', 'network_congestion', 'insufficient_network_fee', 'recipient_rejected', 'internal_error'],
    )
  })

  it('keeps a defaulted property out of components/schemas unless it is required (generators read it as always present)', () => {
    const optionalDefaults = everyNode(doc.components.schemas).flatMap(({ path, node }) =>
      Object.entries((node.properties ?? {}) as Record<string, Record<string, unknown>>)
        .filter(([name, schema]) => 'default' in schema && !((node.required ?? []) as string[]).includes(name))
        .map(([name]) => `${path}/${name}`),
    )
    expect(optionalDefaults).toEqual([])
    const createWallet = doc.components.requestBodies!.CreateWalletRequest as { content: Record<string, { schema: { required: string[]; properties: Record<string, unknown> } }> }
    expect(createWallet.content['application/json']!.schema.required).toEqual(['name', 'currency', 'network'])
    expect(createWallet.content['application/json']!.schema.properties.type).toMatchObject({ default: 'user' })
  })

  it('types limit and offset of every paged list as integers with their bounds and defaults', () => {
    const lists = routes.filter((route) => route.list === true)
    expect(lists.length).toBeGreaterThan(5)
    for (const route of lists) {
      const parameters = doc.paths[route.path]![route.method]!.parameters as Array<{ name: string; required: boolean; schema: unknown }>
      expect(parameters.find((parameter) => parameter.name === 'limit'), route.operationId).toMatchObject({ required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } })
      expect(parameters.find((parameter) => parameter.name === 'offset'), route.operationId).toMatchObject({ required: false, schema: { type: 'integer', minimum: 0, default: 0 } })
    }
  })

  it('describes the event log as a list read from a cursor, each item one of the webhook events', () => {
    const operation = doc.paths['/_sandbox/events']!.get!
    const parameters = operation.parameters as Array<{ name: string; required: boolean; schema: Record<string, unknown> }>
    expect(parameters.map((parameter) => parameter.name)).toEqual(['api_key', 'account_id', 'type', 'object_id', 'after', 'limit', 'wait'])
    expect(parameters.find((parameter) => parameter.name === 'limit')).toMatchObject({ required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 100 } })
    expect(parameters.find((parameter) => parameter.name === 'wait')).toMatchObject({ required: false, schema: { type: 'integer', minimum: 0, maximum: 30000, default: 0 } })
    const schema = response(operation, '200').content!['application/json']!.schema as { properties: Record<string, { items?: { $ref: string } }>; required: string[] }
    expect(schema.required).toEqual(['data', 'has_more', 'dropped', 'resets', 'request_id'])
    const event = doc.components.schemas![schema.properties.data!.items!.$ref.split('/').pop()!] as { oneOf?: Array<{ $ref: string }>; anyOf?: Array<{ $ref: string }> }
    expect((event.oneOf ?? event.anyOf)!.map((member) => member.$ref)).toContain('#/components/schemas/PaymentFailedEvent')
  })

  it('describes every event type in the webhooks section, with the Standard Webhooks headers', () => {
    expect(Object.keys(doc.webhooks)).toEqual([...EVENT_TYPES])
    for (const type of EVENT_TYPES) {
      const post = doc.webhooks[type]!.post as { requestBody: { content: Record<string, { schema: { $ref: string } }> }; parameters: Array<{ name: string }> }
      const schema = doc.components.schemas![post.requestBody.content['application/json']!.schema.$ref.split('/').pop()!] as { properties: Record<string, unknown> }
      expect(schema.properties.type, type).toEqual({ type: 'string', const: type })
      expect(post.parameters.map((parameter) => parameter.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature', 'user-agent'])
    }
  })

  it('gives every tag a description', () => {
    for (const tag of doc.tags) expect(tag.description, tag.name).toBeTruthy()
  })
})

describe('the conformance checker', () => {
  const checker = () => checkerFor(routes)

  it('accepts real answers of the sandbox', async () => {
    const res = await sb.api.get('/v1/wallets?limit=2').set(sb.auth()).expect(200)
    expect(checker().problems({ method: 'GET', path: '/v1/wallets?limit=2', status: 200, body: res.text, requestId: res.headers['x-request-id'] })).toEqual([])
    const missing = await sb.api.get('/v1/wallets/wal_nope').set(sb.auth()).expect(404)
    expect(checker().problems({ method: 'GET', path: '/v1/wallets/wal_nope', status: 404, body: missing.body, requestId: missing.headers['x-request-id'] })).toEqual([])
  })

  it.each([
    ['a field of the wrong type', 200, { data: [{ id: 42 }], pagination: { limit: 20, offset: 0, total: 1, has_more: false }, request_id: 'req_x' }, /listWallets: \/data\/0\/id must be string/],
    ['an undocumented extra field', 200, { data: [], pagination: { limit: 20, offset: 0, total: 0, has_more: false }, request_id: 'req_x', extra: 1 }, /must NOT have additional properties 'extra'/],
    ['a missing envelope', 200, [], /must be object/],
    ['an undocumented status', 418, { error: { type: 'x', code: 'x', message: 'x' }, request_id: 'req_x' }, /status 418 is not documented for listWallets/],
    ['an error code the status does not list', 404, { error: { type: 'invalid_request_error', code: 'wallet_not_empty', message: 'x' }, request_id: 'req_x' }, /error code 'wallet_not_empty' is not documented/],
    ['an error without its message', 400, { error: { type: 'invalid_request_error', code: 'parameter_invalid' }, request_id: 'req_x' }, /must have required property 'message'/],
    ['text that is not JSON', 200, '<html>', /not JSON/],
  ])('refuses %s', (_name, status, body, problem) => {
    const problems = checker().problems({ method: 'GET', path: '/v1/wallets', status, body })
    expect(problems.join('\n')).toMatch(problem)
  })

  it('refuses a document with a schema that is not valid JSON Schema', () => {
    const broken = buildOpenApiDocument(routes, { version: VERSION })
    const answer = broken.paths['/v1/wallets']!.get!.responses['200'] as ResponseObject
    answer.content!['application/json']!.schema.type = 'objekt'
    expect(() => new ConformanceChecker(broken).compileEverySchema()).toThrow(/schema is invalid/)
  })

  it('wants X-Request-Id and the same request_id in the body', () => {
    const body = { data: [], pagination: { limit: 20, offset: 0, total: 0, has_more: false }, request_id: 'req_a' }
    expect(checker().problems({ method: 'GET', path: '/v1/wallets', status: 200, body, requestId: 'req_b' }).join()).toMatch(/differs from X-Request-Id/)
    expect(checker().problems({ method: 'GET', path: '/v1/wallets', status: 200, body, requestId: undefined }).join()).toMatch(/X-Request-Id is missing/)
  })

  it('expects only 404 route_not_found for unknown paths and 405 for unknown methods of known paths', () => {
    const error = (code: string) => ({ error: { type: 'invalid_request_error', code, message: 'x' }, request_id: 'req_x' })
    expect(checker().problems({ method: 'GET', path: '/v1/nope', status: 404, body: error('route_not_found') })).toEqual([])
    expect(checker().problems({ method: 'PATCH', path: '/v1/wallets/wal_1', status: 405, body: error('method_not_allowed') })).toEqual([])
    expect(checker().problems({ method: 'GET', path: '/v1/nope', status: 200, body: {} }).join()).toMatch(/only 404 route_not_found/)
  })

  it('checks --envelope bare answers against the wrapped schema of their operation', () => {
    const wallet = { id: 42 }
    expect(checker().problems({ method: 'GET', path: '/v1/wallets/wal_1', status: 200, body: wallet, requestId: 'req_x', envelope: 'bare' }).join()).toMatch(/data\/id must be string/)
  })

  it('covers /v1 answers only, and not the stream or the document', () => {
    expect(ConformanceChecker.covers('GET', '/v1/wallets?limit=1')).toBe(true)
    expect(ConformanceChecker.covers('GET', '/v1/stream')).toBe(false)
    expect(ConformanceChecker.covers('GET', '/v1/openapi.json')).toBe(false)
    expect(ConformanceChecker.covers('GET', '/_sandbox/health')).toBe(false)
  })

  it('makes a test sandbox fail on close when it sent a non-conforming /v1 answer', async () => {
    const other = await startTestSandbox()
    // A route whose handler breaks its own response schema, spliced in for this test only.
    const route = (await other.sandbox.loadRoutes()).find((candidate) => candidate.operationId === 'getWallet')!
    const original = route.handler
    route.handler = () => ({ id: 42 })
    try {
      await other.api.get('/v1/wallets/wal_x').set(other.auth()).expect(200)
    } finally {
      route.handler = original
    }
    await expect(other.close()).rejects.toThrow(/GET \/v1\/wallets\/wal_x → 200: getWallet: .*\/data\/id must be string/)
  })
})
