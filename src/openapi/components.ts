import * as z from 'zod'

export type JsonSchema = Record<string, unknown>

const COMPONENT_PREFIX = '#/components/schemas/'

/**
 * Turns zod schemas into OpenAPI 3.1 (JSON Schema 2020-12) schemas and gathers every schema that
 * carries `.meta({ id })` into one `components/schemas` map, referenced with `$ref`.
 *
 * zod renders each schema on its own, with named sub-schemas under `$defs`; this lifts them into the
 * shared map. A named schema renders differently as input and as output when it has defaults or
 * transforms; if both renderings are needed, the input one is named `<id>Input`.
 */
export class SchemaComponents {
  readonly schemas: Record<string, JsonSchema> = {}

  /** The JSON Schema of what a client sends (`io: 'input'`) or receives (`io: 'output'`). */
  render(schema: z.ZodType, io: 'input' | 'output', options: { inline?: boolean } = {}): JsonSchema {
    const json = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any', override: readableByTools }) as JsonSchema
    const { $schema: _dialect, $defs, ...named } = json
    const defs = { ...($defs ?? {}) } as Record<string, JsonSchema>
    // `inline`: a named schema itself is rendered in place rather than kept under components (its parts still are).
    const rootId = options.inline && typeof named.$ref === 'string' && Object.keys(named).length === 1 ? named.$ref.replace(/^#\/\$defs\//, '') : undefined
    const root = rootId && defs[rootId] ? defs[rootId] : named
    if (rootId && !JSON.stringify(Object.values(defs)).includes(`"#/$defs/${rootId}"`)) delete defs[rootId]

    const names = new Map<string, string>()
    for (const [id, def] of Object.entries(defs)) {
      const existing = this.schemas[id]
      const same = existing === undefined || stableJson(existing) === stableJson(retarget(def, (ref) => ref))
      names.set(id, same ? id : `${id}${io === 'input' ? 'Input' : 'Output'}`)
    }
    const rename = (ref: string) => names.get(ref) ?? ref
    for (const [id, def] of Object.entries(defs)) this.schemas[names.get(id)!] ??= retarget(def, rename)
    return retarget(root, rename)
  }

  /** Follows one `$ref` into the components (query and path schemas may be named). */
  resolve(schema: JsonSchema): JsonSchema {
    const ref = schema.$ref
    if (typeof ref === 'string' && ref.startsWith(COMPONENT_PREFIX)) return this.schemas[ref.slice(COMPONENT_PREFIX.length)] ?? schema
    return schema
  }
}

/**
 * Valid JSON Schema that the common OpenAPI tools misread, rewritten where zod renders it (CONTRACT.md
 * section 14): Prism, Spectral and Portman cannot read `prefixItems`, so a tuple becomes `items` with
 * `minItems`/`maxItems` (distinct member schemas joined with `anyOf`; validation keeps the tuple);
 * and `.int()` alone renders the safe-integer range, whose negative minimum reads as "may be
 * negative" in tools: an integer's real bounds are given by its schema (`.nonnegative()`, `.min()`).
 */
function readableByTools({ jsonSchema }: { jsonSchema: JsonSchema }): void {
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum
  const members = jsonSchema.prefixItems
  if (!Array.isArray(members)) return
  delete jsonSchema.prefixItems
  const distinct = [...new Map(members.map((member) => [stableJson(member), member as JsonSchema])).values()]
  jsonSchema.items = distinct.length === 1 ? distinct[0] : { anyOf: distinct }
  jsonSchema.minItems = members.length
  jsonSchema.maxItems = members.length
}

/** Rewrites zod's `#/$defs/<id>` references to `#/components/schemas/<name>`, deeply. */
function retarget(value: JsonSchema, rename: (id: string) => string): JsonSchema {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk)
    if (node === null || typeof node !== 'object') return node
    const out: Record<string, unknown> = {}
    for (const [key, child] of Object.entries(node)) {
      out[key] = key === '$ref' && typeof child === 'string' && child.startsWith('#/$defs/')
        ? `${COMPONENT_PREFIX}${rename(child.slice('#/$defs/'.length))}`
        : walk(child)
    }
    return out
  }
  return walk(value) as JsonSchema
}

/** JSON with sorted keys, to compare two renderings of one named schema. */
function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, node: unknown) =>
    node && typeof node === 'object' && !Array.isArray(node)
      ? Object.fromEntries(Object.entries(node).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : node,
  )
}
