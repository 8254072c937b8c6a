import fc from 'fast-check'
import { hostileBodyText, hostileValue } from './hostile.js'
import { naughtyString } from './naughty.js'
import type { FuzzOperation } from './operations.js'
import { valueOf, type JsonSchema } from './schema-values.js'

/** A request as sent: everything is already text. */
export interface FuzzRequest {
  operationId: string
  method: string
  /** The path with its query string, percent-encoded as sent. */
  path: string
  headers: Record<string, string>
  body?: string
}

export interface RequestContext {
  resolve: (ref: string) => JsonSchema
  /** Ids the sandbox has answered so far (read when a request is generated). */
  pool: () => readonly string[]
  /** The API keys the fuzzer owns; the first is the default account's. */
  keys: readonly string[]
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']

/** What node's HTTP client refuses to put in a header; such values go out percent-encoded instead. */
const UNSENDABLE_IN_HEADER = /[^\t\x20-\x7e\x80-\xff]/
const headerSafe = (value: string) => (UNSENDABLE_IN_HEADER.test(value) ? encode(value) : value)

/** encodeURIComponent, except that a lone surrogate (which it refuses) becomes the invalid UTF-8 of its code unit. */
function encode(value: string): string {
  try {
    return encodeURIComponent(value)
  } catch {
    return value.replace(/[\s\S]/gu, (char) => {
      const unit = char.charCodeAt(0)
      if (char.length === 1 && unit >= 0xd800 && unit <= 0xdfff) return `%ED%${(0x80 | ((unit >> 6) & 0x3f)).toString(16).toUpperCase()}%${(0x80 | (unit & 0x3f)).toString(16).toUpperCase()}`
      return encodeURIComponent(char)
    })
  }
}

/** One part of a request, as a well-formed choice and as a hostile one. */
interface Part<T> {
  valid: fc.Arbitrary<T>
  hostile: fc.Arbitrary<T>
}

/**
 * A request aimed at `operation`. A third are well-formed (so the fuzzer gets into the ledger and
 * reaches states worth attacking), half have exactly one part wrong (the clearest test of each
 * check), and the rest are wrong everywhere at once.
 */
export function requestFor(operation: FuzzOperation, context: RequestContext): fc.Arbitrary<FuzzRequest> {
  const parts = {
    method: methodPart(operation),
    path: pathPart(operation, context),
    query: queryPart(operation, context),
    authorization: authorizationPart(operation, context),
    idempotencyKey: idempotencyPart(operation),
    contentType: contentTypePart(operation),
    body: bodyPart(operation, context),
  }
  const names = Object.keys(parts) as Array<keyof typeof parts>
  const build = (broken: (name: keyof typeof parts) => boolean) =>
    fc.record(Object.fromEntries(names.map((name) => [name, broken(name) ? parts[name].hostile : parts[name].valid])) as { [K in keyof typeof parts]: (typeof parts)[K]['valid'] })
  return fc
    .oneof(
      { weight: 4, arbitrary: build(() => false) },
      { weight: 6, arbitrary: fc.constantFrom(...names).chain((name) => build((part) => part === name)) },
      { weight: 2, arbitrary: build(() => true) },
    )
    .map(({ method, path, query, authorization, idempotencyKey, body, contentType }) => {
      const headers: Record<string, string> = {}
      if (authorization !== null) headers.authorization = headerSafe(authorization)
      if (idempotencyKey !== null) headers['idempotency-key'] = headerSafe(idempotencyKey)
      if (contentType !== null && body !== undefined) headers['content-type'] = contentType
      return { operationId: operation.operationId, method, path: query ? `${path}?${query}` : path, headers, ...(body === undefined ? {} : { body }) }
    })
}

/** A path of no operation at all, under both prefixes. */
export const unknownRoute = (): fc.Arbitrary<FuzzRequest> =>
  fc.record({ prefix: fc.constantFrom('/v1/', '/_sandbox/', '/', '/v2/'), segment: naughtyString(), method: fc.constantFrom(...METHODS) }).map(({ prefix, segment, method }) => ({
    operationId: '(no route)',
    method,
    path: `${prefix}${encode(segment) || 'nothing'}/x`,
    headers: {},
  }))

function methodPart(operation: FuzzOperation): Part<string> {
  return { valid: fc.constant(operation.method), hostile: fc.constantFrom(...METHODS.filter((method) => method !== operation.method)) }
}

function pathPart(operation: FuzzOperation, context: RequestContext): Part<string> {
  const fill = (choose: (example: string | undefined) => fc.Arbitrary<string>) =>
    operation.pathParams.length === 0
      ? fc.constant(operation.path)
      : fc.tuple(...operation.pathParams.map((param) => choose(param.example))).map((chosen) => operation.pathParams.reduce((path, param, i) => path.replace(`{${param.name}}`, chosen[i]!), operation.path))
  return { valid: fill((example) => knownId(example, context)), hostile: fill(() => hostileId()) }
}

/** A documented example, or an id the sandbox gave out (of the example's kind, mostly). */
function knownId(example: string | undefined, context: RequestContext): fc.Arbitrary<string> {
  const prefix = example?.split('_')[0]
  const fromPool = fc.tuple(fc.nat(), fc.nat(9)).map(([n, any]) => {
    const pool = context.pool()
    const sameKind = any > 0 && prefix ? pool.filter((id) => id.startsWith(`${prefix}_`)) : pool
    return sameKind.length === 0 ? (example ?? 'none') : sameKind[n % sameKind.length]!
  })
  return example === undefined ? fromPool : fc.oneof(fc.constant(example), fromPool)
}

const hostileId = (): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 3, arbitrary: naughtyString().map((value) => encode(value) || '%20') },
    { weight: 1, arbitrary: fc.constantFrom('%', '%zz', '%E0%A4%A', '%C0%AF', '%FF', '%00', 'a%2Fb', '..', '.') },
  )

function queryPart(operation: FuzzOperation, context: RequestContext): Part<string> {
  const join = (pairs: Array<[string, string]>) => pairs.map(([name, value]) => `${encode(name)}=${encode(value)}`).join('&')
  const documented = (value: (schema: FuzzOperation['query'][number]['schema']) => fc.Arbitrary<string>) =>
    fc.tuple(...operation.query.map((param) => fc.option(value(param.schema), { freq: param.required ? 1000 : 2 }).map((chosen) => (chosen === null ? [] : [[param.name, chosen] as [string, string]]))))
  const wellFormed = (schema: FuzzOperation['query'][number]['schema']) => valueOf(schema, context.resolve).map((value) => (typeof value === 'string' ? value : JSON.stringify(value)))
  const wrong = () => fc.oneof(naughtyString(), fc.constantFrom('-1', '0', '101', '1e3', '99999999999999999999', '1.5', ''))
  const extra = fc.oneof(
    fc.tuple(naughtyString(), naughtyString()),
    // A documented name twice: the "simple" query parser makes it an array.
    operation.query.length > 0 ? fc.tuple(fc.constantFrom(...operation.query.map((param) => param.name)), naughtyString()) : fc.constant(['limit', '1'] as [string, string]),
    fc.constant(['limit[a]', '1'] as [string, string]),
  )
  return {
    valid: documented(wellFormed).map((pairs) => join(pairs.flat())),
    hostile: fc.tuple(documented(wrong), fc.option(extra, { freq: 2 })).map(([pairs, more]) => join([...pairs.flat(), ...(more ? [more] : [])])),
  }
}

function authorizationPart(operation: FuzzOperation, context: RequestContext): Part<string | null> {
  const broken = fc.oneof(
    fc.constant(null),
    fc.constantFrom('Bearer sk_live_abcdefgh1234', 'Bearer sk_test_', 'Basic dXNlcjpwYXNz', 'Bearer', 'bearer sk_test_sandbox_default_key', 'Bearer rk_test_unknownkey123'),
    naughtyString().map((value) => `Bearer ${value}`),
  )
  if (operation.auth !== 'key') return { valid: fc.constant(null), hostile: broken }
  return {
    valid: fc.oneof({ weight: 4, arbitrary: fc.constant(`Bearer ${context.keys[0]}`) }, { weight: 1, arbitrary: fc.constantFrom(...context.keys.slice(1)).map((key) => `Bearer ${key}`) }),
    hostile: broken,
  }
}

function idempotencyPart(operation: FuzzOperation): Part<string | null> {
  if (operation.method !== 'POST') return { valid: fc.constant(null), hostile: fc.option(naughtyString()) }
  // A few distinct keys, so that retries and reuse with another body happen.
  return { valid: fc.option(fc.constantFrom('key-1', 'key-2', 'key-3', '"key-1"', '3f1c9a52-7d0e-4b8e-9a43-1c2d3e4f5a6b'), { freq: 3 }), hostile: naughtyString() }
}

function contentTypePart(operation: FuzzOperation): Part<string | null> {
  return {
    valid: fc.constantFrom('application/json', 'application/json; charset=utf-8'),
    hostile: fc.constantFrom(null, 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'application/json; charset=utf-16', 'APPLICATION/JSON', 'application/merge-patch+json', 'application/', ';', 'application/json, text/plain'),
  }
}

function bodyPart(operation: FuzzOperation, context: RequestContext): Part<string | undefined> {
  if (!operation.body) return { valid: fc.constant(undefined), hostile: hostileBodyText() }
  const valid = valueOf(operation.body, context.resolve)
  return {
    valid: valid.map((value) => JSON.stringify(value)),
    hostile: fc.oneof(
      { weight: 4, arbitrary: fc.tuple(valid, mutation()).map(([value, mutate]) => JSON.stringify(mutate(value)) ?? 'null') },
      { weight: 2, arbitrary: hostileBodyText() },
      { weight: 1, arbitrary: fc.constant(undefined) },
    ),
  }
}

/** One thing wrong with an otherwise valid body: a field dropped, of the wrong kind, or unknown; or the whole body of the wrong kind. */
function mutation(): fc.Arbitrary<(value: unknown) => unknown> {
  return fc.oneof(
    fc.tuple(fc.nat(), hostileValue()).map(([n, replacement]) => (value: unknown) => withField(value, n, () => replacement)),
    fc.nat().map((n) => (value: unknown) => withField(value, n, () => undefined)),
    fc.tuple(naughtyString(), hostileValue()).map(([name, extra]) => (value: unknown) => (isObject(value) ? { ...value, [name || 'unknown']: extra } : value)),
    fc.constant((value: unknown) => [value]),
    hostileValue().map((replacement) => () => replacement),
  )
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** Replaces (or, with undefined, drops) the n-th field of an object, one level deep or inside its first nested object. */
function withField(value: unknown, n: number, replace: () => unknown): unknown {
  if (!isObject(value)) return value
  const names = Object.keys(value)
  if (names.length === 0) return value
  const name = names[n % names.length]!
  const inner = value[name]
  if (isObject(inner) && Object.keys(inner).length > 0 && n % 2 === 1) return { ...value, [name]: withField(inner, Math.floor(n / 2), replace) }
  const copy = { ...value }
  const replacement = replace()
  if (replacement === undefined) delete copy[name]
  else copy[name] = replacement
  return copy
}
