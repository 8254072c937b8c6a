import { whenPresent } from './messages.js'
import * as z from 'zod'
import { CURRENCIES, NETWORKS } from '../model/networks.js'
import { AMOUNT_PATTERN } from '../money.js'
import { echo, ERRORS, type ErrorCode } from '../errors.js'
import { countSchema } from './count.js'

/** Building blocks shared by the resource schemas. Messages say what is wrong and how to fix it. */

export const AmountSchema = z
  .string({ error: whenPresent('amount must be a decimal string such as "10.50"') })
  .regex(AMOUNT_PATTERN, { error: 'amount must be a decimal string such as "10.50" (digits, one optional point, no sign or exponent)' })
  .refine((value) => /[1-9]/.test(value), { error: 'amount must be greater than zero' })
  .meta({ description: 'Decimal string, greater than zero, with no more fraction digits than the asset allows.', example: '10.50' })

export const CurrencySchema = z.enum(CURRENCIES as [string, ...string[]], {
  error: (issue) => issue.input === undefined ? undefined : `currency must be one of ${CURRENCIES.join(', ')} (upper case); got ${echo(issue.input)}`,
})

export const NetworkSchema = z.enum(NETWORKS, {
  error: (issue) => issue.input === undefined ? undefined : `network must be one of ${NETWORKS.join(', ')} (lower case); got ${echo(issue.input)}`,
})

const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype'])
const RESERVED_MESSAGE = 'metadata keys __proto__, constructor and prototype are reserved'
const MetadataRecord = z
  .record(
    z.string().min(1, { error: 'metadata keys must not be empty' }).max(40, { error: 'metadata keys are at most 40 characters' }),
    z.string({ error: whenPresent('metadata values must be strings') }).max(500, { error: 'metadata values are at most 500 characters' }),
    { error: whenPresent('metadata must be an object of string keys and string values') },
  )
  .refine((value) => Object.keys(value).length <= 50, { error: 'metadata has at most 50 keys' })
  .refine((value) => !Object.keys(value).some((key) => RESERVED_KEYS.has(key)), { error: RESERVED_MESSAGE })

export const MetadataSchema = z
  .preprocess((value, ctx) => {
    // JSON.parse keeps "__proto__" as an own key, but z.record drops it silently; refuse it before parsing.
    if (value !== null && typeof value === 'object' && Object.hasOwn(value, '__proto__')) ctx.addIssue({ code: 'custom', message: RESERVED_MESSAGE, input: value })
    return value
  }, MetadataRecord.nullable())
  // `null` means no metadata, as clients that serialise an unset map send it (CONTRACT.md section 14).
  .transform((value) => value ?? {})
  .meta({ id: 'Metadata', description: 'Up to 50 string keys (≤ 40 characters) with string values (≤ 500 characters); null means {}.' })

export const DescriptionSchema = z.string().max(1000, { error: 'description is at most 1000 characters' })

/** Only ever rendered by the sandbox itself: `format: date-time` tells clients to parse it as a date. */
export const TimestampSchema = z.iso
  .datetime({ precision: 3 })
  .meta({ description: 'ISO 8601 UTC with milliseconds, from the sandbox clock.', example: '2026-01-01T00:00:00.000Z' })

export const CountSchema = countSchema()

/**
 * A path id: any string (unknown ids are 404, never 400). `example` is an id that exists, or will,
 * on a fresh `npx wallet-sandbox` (src/schemas/examples.ts), so that request generators can build a
 * call that works.
 */
export const idParams = (example: string) => z.object({ id: z.string().meta({ example }) })

/** A whole number in a query string, from `min` to `max`: anything else is 400 naming it. */
export const integerParam = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, { error: `${name} must be a whole number from ${min} to ${max}` })
    .transform(Number)
    // The document shows the parsed side of a query value (src/openapi/document.ts), so this is what clients see: an integer.
    .pipe(z.number().int().min(min, { error: `${name} must be from ${min} to ${max}` }).max(max, { error: `${name} must be from ${min} to ${max}` }))

/** `limit` (1–100, default 20) and `offset` (≥ 0): out of range is 400, never clamped. */
export const PageQuery = z.object({
  limit: integerParam('limit', 1, 100).optional().default(20).meta({ description: 'Page size, 1 to 100 (default 20).' }),
  offset: integerParam('offset', 0, Number.MAX_SAFE_INTEGER).optional().default(0).meta({ description: 'Items to skip (default 0).' }),
})

export const PaginationSchema = z
  .object({ limit: z.number().int().min(1).max(100), offset: CountSchema, total: CountSchema, has_more: z.boolean() })
  .meta({ id: 'Pagination' })

export const ErrorBodySchema = z
  .object({
    error: z.object({
      type: z.enum([...new Set(Object.values(ERRORS).map((entry) => entry.type))]),
      code: z.enum(Object.keys(ERRORS) as [ErrorCode, ...ErrorCode[]]),
      message: z.string(),
      param: z.string().optional(),
      signature_base: z.string().nullable().optional().meta({ description: 'signature_invalid only: the RFC 9421 signature base the sandbox computed (null when none could be built), to compare with your own.' }),
    }),
    request_id: z.string(),
  })
  .meta({ id: 'Error' })

export const DeletedSchema = z.object({ id: z.string(), object: z.enum(['webhook_endpoint', 'whitelisted_address']), deleted: z.literal(true) })

/** A decimal string greater than zero, named `field` in its messages (`AmountSchema` is this for `amount`). */
export const positiveDecimalSchema = (field: string, example: string) =>
  z
    .string({ error: whenPresent(`${field} must be a decimal string such as "${example}"`) })
    .regex(AMOUNT_PATTERN, { error: `${field} must be a decimal string such as "${example}" (digits, one optional point, no sign or exponent)` })
    .refine((value) => /[1-9]/.test(value), { error: `${field} must be greater than zero` })
