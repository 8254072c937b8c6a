import type { NextFunction, Request, Response } from 'express'
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import type { AnyRoute } from '../../src/http/route.js'
import { buildOpenApiDocument, type OpenApiDocument, type Operation, type ResponseObject } from '../../src/openapi/document.js'

/**
 * Checks answers against the OpenAPI document: the body must match the schema of its operation and
 * status, an error's code must be one the document lists for that status, and X-Request-Id must be
 * set (and equal `request_id`). Validators are compiled once per process and kept.
 */

export interface ObservedResponse {
  method: string
  /** A concrete path (`/v1/wallets/wal_123?limit=2`) or a template (`/v1/wallets/{id}`). */
  path: string
  status: number
  /** The body as received: text, or already parsed JSON. */
  body: unknown
  /** The X-Request-Id header; checked when given. */
  requestId?: string
  /** `bare` when the sandbox ran with `--envelope bare`. */
  envelope?: 'wrapped' | 'bare'
}

/** Paths the conformance check skips: the stream is not JSON over HTTP, the document describes itself. */
const EXCLUDED = new Set(['/v1/stream', '/v1/openapi.json'])

export class ConformanceChecker {
  private readonly ajv: Ajv2020
  private readonly validators = new Map<string, ValidateFunction>()
  private readonly templates: Array<{ template: string; pattern: RegExp; params: number }>

  constructor(readonly document: OpenApiDocument) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true })
    addFormats(this.ajv)
    this.ajv.addSchema(document as object, DOCUMENT_ID)
    this.templates = Object.keys(document.paths)
      .map((template) => ({
        template,
        pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{\w+\\?\}/g, '[^/]+')}$`),
        params: (template.match(/\{/g) ?? []).length,
      }))
      // A literal segment wins over a parameter: /v1/payouts/stats before /v1/payouts/{id}.
      .sort((a, b) => a.params - b.params)
  }

  /** Whether the suite-wide check looks at this answer (only `/v1`, not the stream or the document). */
  static covers(method: string, path: string): boolean {
    const bare = path.split('?')[0]!
    return bare.startsWith('/v1/') && !EXCLUDED.has(bare) && method.toUpperCase() !== 'HEAD'
  }

  /** What is wrong with this answer; empty when it conforms. */
  problems(response: ObservedResponse): string[] {
    const method = response.method.toLowerCase()
    const path = response.path.split('?')[0]!
    const body = parseBody(response.body)
    if (body === undefined) return [`the body is not JSON: ${String(response.body).slice(0, 120)}`]

    const problems: string[] = []
    if (response.requestId !== undefined) {
      if (!/^req_\w+$/.test(response.requestId)) problems.push(`X-Request-Id is ${JSON.stringify(response.requestId)}, not req_…`)
      const inBody = (body as { request_id?: unknown })?.request_id
      if (inBody !== undefined && inBody !== response.requestId) problems.push(`request_id ${JSON.stringify(inBody)} differs from X-Request-Id ${response.requestId}`)
    } else if (response.requestId === undefined && 'requestId' in response) {
      problems.push('X-Request-Id is missing')
    }

    const template = this.templates.find((entry) => entry.template === path || entry.pattern.test(path))?.template
    const operation = template ? this.document.paths[template]![method] : undefined
    if (!template || !operation) {
      // Not an operation of the document: only the router's own answers are possible.
      const [status, code] = template ? [405, 'method_not_allowed'] : [404, 'route_not_found']
      if (response.status !== status) return [...problems, `${method.toUpperCase()} ${path} is not in the document, so only ${status} ${code} is expected; got ${response.status}`]
      return [...problems, ...this.validate(ERROR_POINTER, body, [code])]
    }

    const entry = operation.responses[String(response.status)]
    if (!entry) {
      return [...problems, `status ${response.status} is not documented for ${operation.operationId} (documented: ${Object.keys(operation.responses).join(', ')})`]
    }
    // Answers shared by many routes live under components/responses.
    const shared = '$ref' in entry ? entry.$ref.replace(/^#/, '') : undefined
    const documented = (shared ? this.document.components.responses![shared.split('/').pop()!] : entry) as ResponseObject
    const pointer = `${shared ?? `/paths/${escape(template)}/${method}/responses/${response.status}`}/content/application~1json/schema`
    const schema = documented.content?.['application/json']?.schema as { properties?: Record<string, unknown> } | undefined
    // --envelope bare returns single resources unwrapped; wrap them back to check against the document.
    const unwrapped = response.envelope === 'bare' && response.status < 400 && schema?.properties?.data && !schema.properties.pagination
    const checked = unwrapped ? { data: body, request_id: response.requestId ?? 'req_unknown' } : body
    return [...problems, ...this.validate(pointer, checked, documented['x-error-codes']).map((problem) => `${operation.operationId}: ${problem}`)]
  }

  /**
   * Compiles every schema of the document (components, parameters, request bodies, answers); ajv
   * checks each against the JSON Schema 2020-12 meta-schema and throws on the first invalid one.
   * Returns how many it compiled.
   */
  compileEverySchema(): number {
    const pointers = Object.keys(this.document.components.schemas ?? {}).map((name) => `/components/schemas/${escape(name)}`)
    for (const name of Object.keys(this.document.components.requestBodies ?? {})) pointers.push(`/components/requestBodies/${escape(name)}/content/application~1json/schema`)
    const operations = [
      ...Object.entries(this.document.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ base: `/paths/${escape(path)}/${method}`, operation }))),
      ...Object.entries(this.document.webhooks).map(([type, { post }]) => ({ base: `/webhooks/${escape(type)}/post`, operation: post as Partial<Operation> })),
    ]
    for (const { base, operation } of operations) {
      ;((operation.parameters ?? []) as Array<{ schema?: unknown }>).forEach((parameter, index) => parameter.schema && pointers.push(`${base}/parameters/${index}/schema`))
      if (operation.requestBody && !('$ref' in (operation.requestBody as object))) pointers.push(`${base}/requestBody/content/application~1json/schema`)
      for (const [status, entry] of Object.entries(operation.responses ?? {})) if (!('$ref' in entry) && entry.content) pointers.push(`${base}/responses/${status}/content/application~1json/schema`)
    }
    for (const pointer of pointers) this.validator(pointer)
    return pointers.length
  }

  /** What is wrong with a webhook delivery's body, against the `webhooks` entry of its event type. */
  eventProblems(body: unknown): string[] {
    const event = parseBody(body) as { type?: unknown } | undefined
    const type = typeof event?.type === 'string' ? event.type : undefined
    if (!type || !this.document.webhooks[type]) return [`the event type ${JSON.stringify(type)} is not in the document's webhooks`]
    return this.validate(`/webhooks/${escape(type)}/post/requestBody/content/application~1json/schema`, event, undefined).map((problem) => `${type}: ${problem}`)
  }

  private validator(pointer: string): ValidateFunction {
    let validate = this.validators.get(pointer)
    if (!validate) {
      const target = pointer.split('/').slice(1).reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~')], this.document)
      if (target === undefined) throw new Error(`nothing at ${pointer} in the OpenAPI document`)
      this.ajv.validateSchema(target as object, true)
      validate = this.ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer}` })
      this.validators.set(pointer, validate)
    }
    return validate
  }

  private validate(pointer: string, body: unknown, codes: string[] | undefined): string[] {
    const validate = this.validator(pointer)
    const problems = validate(body)
      ? []
      : (validate.errors ?? []).map((error) => `${error.instancePath || '(body)'} ${error.message}${error.params && 'additionalProperty' in error.params ? ` '${String(error.params.additionalProperty)}'` : ''}`)
    const code = (body as { error?: { code?: unknown } })?.error?.code
    if (codes && typeof code === 'string' && !codes.includes(code)) problems.push(`error code '${code}' is not documented for this status (documented: ${codes.join(', ')})`)
    return problems
  }
}

const DOCUMENT_ID = 'urn:wallet-sandbox:openapi'
const ERROR_POINTER = '/components/schemas/Error'

// ajv-formats is CommonJS; under NodeNext its default export arrives one level down.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020

const escape = (segment: string) => encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1'))

function parseBody(body: unknown): unknown {
  if (typeof body !== 'string') return body
  try {
    return JSON.parse(body)
  } catch {
    return undefined
  }
}

const checkers = new Map<string, ConformanceChecker>()

/** One checker per distinct route list, built on first use and kept for the whole test file. */
export function checkerFor(routes: readonly AnyRoute[]): ConformanceChecker {
  const key = routes.map((route) => `${route.method} ${route.path} ${route.operationId}`).join('\n')
  let checker = checkers.get(key)
  if (!checker) {
    checker = new ConformanceChecker(buildOpenApiDocument(routes, { version: '0.0.0-test' }))
    checkers.set(key, checker)
  }
  return checker
}

/**
 * X-Request-Id as the answer carries it: from the header block when the headers went out with the
 * status line in one `writeHead` (the listener's fast path, src/http/answer-headers.ts), where
 * `getHeader` knows none; from `getHeader` otherwise.
 */
function sentRequestId(res: Response): unknown {
  const block = (res as unknown as { _header?: string | null })._header
  if (typeof block === 'string') return /\r\nX-Request-Id: ([^\r]*)\r\n/i.exec(block)?.[1]
  return res.getHeader('X-Request-Id')
}

/**
 * Records every `/v1` answer a sandbox sends (express middleware for `createSandbox`'s
 * `beforeRoutes`), to check them all when the sandbox closes.
 */
export class ResponseRecorder {
  readonly responses: ObservedResponse[] = []

  constructor(private readonly envelope: 'wrapped' | 'bare') {}

  readonly middleware = (req: Request, res: Response, next: NextFunction): void => {
    const path = req.originalUrl
    if (ConformanceChecker.covers(req.method, path)) {
      // The answer as `write` and `end` are given it, seen from a prototype put between the response
      // and its own: `send` writes a text answer with `write` then `end()` (respond.ts `endWith`),
      // but only where `end` is not the response's own property (a wrapper that holds the answer).
      const texts: string[] = []
      const textOf = (chunk: unknown) => (typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : '')
      const own = Object.getPrototypeOf(res) as Response
      const recorder = this
      Object.setPrototypeOf(res, Object.assign(Object.create(own) as object, {
        write(this: Response, ...args: unknown[]) {
          texts.push(textOf(args[0]))
          return (own.write as (...args: unknown[]) => boolean).apply(this, args)
        },
        end(this: Response, ...args: unknown[]) {
          if (typeof args[0] !== 'function') texts.push(textOf(args[0]))
          const requestId = sentRequestId(this)
          recorder.responses.push({ method: req.method, path, status: this.statusCode, body: texts.join(''), requestId: typeof requestId === 'string' ? requestId : undefined, envelope: recorder.envelope })
          return (own.end as (...args: unknown[]) => Response).apply(this, args)
        },
      }))
    }
    next()
  }

  /** Throws, listing every recorded answer that does not conform to the document. */
  assertConforms(routes: readonly AnyRoute[]): void {
    const failures = this.failures(routes)
    if (failures.length > 0) {
      throw new Error(`${failures.length} /v1 answer(s) do not conform to the OpenAPI document (test/helpers/conformance.ts):\n  ${failures.join('\n  ')}`)
    }
  }

  /** Every recorded answer that does not conform, one line each (with the request that got it). */
  failures(routes: readonly AnyRoute[]): string[] {
    const checker = checkerFor(routes)
    return this.responses.flatMap((response) => {
      const problems = checker.problems(response)
      return problems.length === 0 ? [] : [`${response.method} ${response.path} → ${response.status}: ${problems.join('; ')}`]
    })
  }
}
