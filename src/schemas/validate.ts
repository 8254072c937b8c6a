import type { z } from 'zod'
import { ApiError, echoId, formatParam } from '../errors.js'

const describe = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : typeof value)

/** `at most 30000`, `at least 1 character long`, `at most 100 items`: a bound as the value's kind reads it. */
function bound(comparison: string, limit: number | bigint, origin: string): string {
  const count = Number(limit)
  const unit = origin === 'string' ? ' character' : origin === 'array' || origin === 'set' ? ' item' : origin === 'file' ? ' byte' : ''
  return `${comparison} ${count.toLocaleString('en-US')}${unit}${unit && count !== 1 ? 's' : ''}${origin === 'string' ? ' long' : ''}`
}

/** Messages for issues whose schema gave none of its own. */
function messageFor(issue: z.core.$ZodRawIssue): string | undefined {
  const param = issue.path?.length ? formatParam(issue.path) : 'body'
  // An absent enum field (currency, network) fails as invalid_value rather than invalid_type.
  if (issue.code === 'invalid_value' && issue.input === undefined) return `${param} is required`
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? `${param} is required` : `${param} must be ${issue.expected === 'object' ? 'an object' : `a ${issue.expected}`}; got ${describe(issue.input)}`
    case 'too_small':
      return `${param} must be ${bound(issue.inclusive === false ? 'more than' : 'at least', issue.minimum, issue.origin)}`
    case 'too_big':
      return `${param} must be ${bound(issue.inclusive === false ? 'less than' : 'at most', issue.maximum, issue.origin)}`
    default:
      return undefined
  }
}

/** `items[3]` for a path inside the fourth element of `items`; undefined outside any array. */
function elementOf(path: readonly PropertyKey[]): string | undefined {
  const last = path.findLastIndex((key) => typeof key === 'number')
  return last < 0 ? undefined : formatParam(path.slice(0, last + 1))
}

/** Schemas' compiled fast paths (`withFastPath`). */
const fastPaths = new WeakMap<z.ZodType, (input: unknown) => unknown>()

/**
 * Gives `schema` a fast path: a check compiled from it that answers what its parse would for input
 * it is sure of, and `undefined` for anything else, which the schema then parses (and explains). The
 * schema stays the definition; a property test holds each fast path to it (payment-fast.ts).
 */
export function withFastPath<T extends z.ZodType>(schema: T, fast: (input: unknown) => z.output<T> | undefined): T {
  fastPaths.set(schema, fast)
  return schema
}

/** The fast path given to `schema`, if any: looked up once per route (src/http/pipeline.ts). */
export const fastPathOf = (schema: z.ZodType | undefined): ((input: unknown) => unknown) | undefined => (schema === undefined ? undefined : fastPaths.get(schema))

/**
 * Parses `input` with `schema` or throws the first problem as an ApiError: `parameter_missing` for an
 * absent required field, `parameter_invalid` otherwise, with `param` naming the field.
 */
export function parseOrThrow<T extends z.ZodType>(schema: T, input: unknown, where: 'body' | 'query' | 'path'): z.output<T> {
  // Without parameters first: zod's parse with a context of its own (the error map, reportInput)
  // leaves objects that outlive two young-generation collections, about 100 bytes a parse that only a
  // full collection frees, three parses a request; at a million payments that garbage was a third
  // of the old generation's growth. The parameters change messages only, so only a failure needs them.
  const plain = schema.safeParse(input)
  if (plain.success) return plain.data
  const result = schema.safeParse(input, { reportInput: true, error: messageFor })
  if (result.success) return result.data
  const issue = result.error.issues[0]!
  if (issue.code === 'unrecognized_keys') {
    const [key] = issue.keys
    const name = echoId(`${issue.path.length ? `${formatParam(issue.path)}.` : ''}${key}`)
    throw new ApiError('parameter_invalid', `Unknown ${where === 'query' ? 'query parameter' : 'parameter'} '${name}'.`, { param: name })
  }
  const param = issue.path.length > 0 ? formatParam(issue.path) : undefined
  const missing = (issue.code === 'invalid_type' || issue.code === 'invalid_value') && issue.input === undefined && param !== undefined
  // A bad record key (a metadata key over 40 characters) carries the key schema's message inside.
  const text = issue.code === 'invalid_key' ? (issue.issues[0]?.message ?? issue.message) : issue.message
  const element = elementOf(issue.path)
  const sentence = text.endsWith('.') ? text : `${text}.`
  // Inside a list (a payout's items) the message names the element: "items[3]: amount must be …".
  const message = element && !sentence.startsWith(element) ? `${element}: ${sentence}` : sentence
  if (param === undefined && where === 'body') {
    throw new ApiError('parameter_invalid', `The request body must be a JSON object; got ${describe(input)}.`)
  }
  throw new ApiError(missing ? 'parameter_missing' : 'parameter_invalid', message, param ? { param } : {})
}
