import fc from 'fast-check'

export type JsonSchema = Record<string, unknown>

/**
 * Values that satisfy a JSON Schema of the OpenAPI document (the request schemas the sandbox
 * validates with), preferring the schema's own `example`s: an example is a value that works on a
 * fresh sandbox (a seeded wallet id, a valid address), so generated requests get past validation
 * and into the ledger often enough to matter. `resolve` follows `$ref`s into the document.
 */
export function valueOf(schema: JsonSchema, resolve: (ref: string) => JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (typeof schema.$ref === 'string') return valueOf(resolve(schema.$ref), resolve, depth)
  const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined
  if (alternatives) return fc.oneof(...alternatives.map((alternative) => valueOf(alternative, resolve, depth + 1)))
  if (Array.isArray(schema.allOf)) return valueOf(Object.assign({}, ...(schema.allOf as JsonSchema[])), resolve, depth)
  if ('const' in schema) return fc.constant(schema.const)
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]))
  const example = 'example' in schema ? [schema.example] : Array.isArray(schema.examples) ? (schema.examples as unknown[]) : []
  const generated = byType(schema, resolve, depth)
  return example.length > 0 ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...example) }, { weight: 1, arbitrary: generated }) : generated
}

function byType(schema: JsonSchema, resolve: (ref: string) => JsonSchema, depth: number): fc.Arbitrary<unknown> {
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [typeof schema.type === 'string' ? schema.type : inferType(schema)]
  if (types.length > 1) return fc.oneof(...types.map((type) => byType({ ...schema, type }, resolve, depth)))
  const num = (name: string) => (typeof schema[name] === 'number' ? (schema[name] as number) : undefined)
  switch (types[0]) {
    case 'null':
      return fc.constant(null)
    case 'boolean':
      return fc.boolean()
    case 'integer':
      return fc.integer({ min: Math.max(num('minimum') ?? -1e6, -Number.MAX_SAFE_INTEGER), max: Math.min(num('maximum') ?? 1e6, Number.MAX_SAFE_INTEGER) })
    case 'number':
      return fc.double({ min: num('minimum') ?? -1e6, max: num('maximum') ?? 1e6, noNaN: true })
    case 'string':
      return stringOf(schema)
    case 'array': {
      const items = (schema.items as JsonSchema | undefined) ?? {}
      const minLength = num('minItems') ?? 0
      if (depth > 6) return fc.constant([])
      return fc.array(valueOf(items, resolve, depth + 1), { minLength, maxLength: Math.min(num('maxItems') ?? 3, minLength + 3) })
    }
    case 'object':
      return objectOf(schema, resolve, depth)
    default:
      return fc.jsonValue({ maxDepth: 2 })
  }
}

function inferType(schema: JsonSchema): string {
  if (schema.properties || schema.additionalProperties) return 'object'
  if (schema.items) return 'array'
  return 'any'
}

function stringOf(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0
  const maxLength = typeof schema.maxLength === 'number' ? Math.min(schema.maxLength, minLength + 30) : minLength + 30
  if (schema.format === 'date-time') return fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((date) => date.toISOString())
  if (typeof schema.pattern === 'string') {
    try {
      return fc.stringMatching(new RegExp(schema.pattern)).filter((value) => value.length >= minLength && value.length <= (schema.maxLength as number | undefined ?? Infinity))
    } catch {
      // A pattern JavaScript cannot read: fall through to any string.
    }
  }
  return fc.string({ minLength, maxLength })
}

function objectOf(schema: JsonSchema, resolve: (ref: string) => JsonSchema, depth: number): fc.Arbitrary<unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>
  const required = new Set((schema.required ?? []) as string[])
  if (depth > 6) return fc.constant({})
  const fields = Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, valueOf(property, resolve, depth + 1)]))
  const record = fc.record(fields, { requiredKeys: Object.keys(fields).filter((name) => required.has(name)) })
  const extra = schema.additionalProperties
  if (extra && typeof extra === 'object' && Object.keys(properties).length === 0) {
    const maxKeys = typeof schema.maxProperties === 'number' ? Math.min(schema.maxProperties, 3) : 3
    return fc.dictionary(fc.string({ minLength: 1, maxLength: 40 }), valueOf(extra as JsonSchema, resolve, depth + 1), { maxKeys }).map((value) => ({ ...value }))
  }
  return record
}
