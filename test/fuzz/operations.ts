import type { JsonSchema } from './schema-values.js'

/** One operation of the OpenAPI document, as the fuzzer needs it. */
export interface FuzzOperation {
  method: string
  /** The template: `/v1/wallets/{id}`. */
  path: string
  operationId: string
  /** `key`: a /v1 API key; `control`: the /_sandbox API; `none`: public. */
  auth: 'key' | 'control' | 'none'
  pathParams: Array<{ name: string; example?: string }>
  query: Array<{ name: string; required: boolean; schema: JsonSchema }>
  /** The JSON schema of the request body, when the operation takes one. */
  body?: JsonSchema
}

interface Document {
  paths: Record<string, Record<string, Record<string, unknown>>>
  components: Record<string, Record<string, unknown>>
}

/**
 * Every operation of the document (`GET /v1/openapi.json`), so that a route added to the sandbox
 * is fuzzed without any change here. `resolve` follows a `#/…` reference within the document.
 */
export function operationsOf(document: Document): { operations: FuzzOperation[]; resolve: (ref: string) => JsonSchema } {
  const resolve = (ref: string): JsonSchema =>
    ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], document) as JsonSchema
  const deref = (node: unknown): Record<string, unknown> => {
    const ref = (node as { $ref?: unknown })?.$ref
    return (typeof ref === 'string' ? resolve(ref) : node) as Record<string, unknown>
  }

  const operations: FuzzOperation[] = []
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const parameters = ((operation.parameters ?? []) as unknown[]).map(deref) as Array<{ name: string; in: string; required?: boolean; example?: unknown; schema?: JsonSchema }>
      const security = operation.security as unknown[] | undefined
      const auth = security === undefined ? 'key' : security.length === 0 ? 'none' : 'control'
      const requestBody = operation.requestBody ? deref(operation.requestBody) : undefined
      const body = (requestBody?.content as Record<string, { schema: JsonSchema }> | undefined)?.['application/json']?.schema
      operations.push({
        method: method.toUpperCase(),
        path,
        operationId: String(operation.operationId),
        auth,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => ({ name: p.name, ...(typeof p.example === 'string' ? { example: p.example } : {}) })),
        query: parameters.filter((p) => p.in === 'query').map((p) => ({ name: p.name, required: p.required === true, schema: p.schema ?? {} })),
        ...(body ? { body } : {}),
      })
    }
  }
  return { operations, resolve }
}
