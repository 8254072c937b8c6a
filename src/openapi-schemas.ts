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
  render(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const json = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as JsonSchema
    const { $schema: _dialect, $defs, ...root } = json
    const defs = ($defs ?? {}) as Record<string, JsonSchema>

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
