import * as z from 'zod'
import { FAULT_KINDS } from './faults.js'
import { integerParam, PageQuery, TimestampSchema } from './common.js'
import { REQUEST_EXAMPLES } from './request-examples.js'

/**
 * The request journal on the wire (CONTRACT.md sections 10 and 23): an entry, the filters of
 * `GET /_sandbox/requests`, and the expectation `POST /_sandbox/requests/expect` checks.
 */

export const RequestJournalEntrySchema = z
  .object({
    id: z.string().meta({ description: 'The X-Request-Id of the answer (for an idempotent replay, the first request\'s id).' }),
    method: z.string(),
    path: z.string(),
    query: z.string().nullable().meta({ description: 'The query string without "?", api_key values masked.' }),
    status: z.number().int().min(100).max(599).nullable().meta({ description: 'null when no answer was sent (dropped, held, or the client went away).' }),
    duration_ms: z.number().nonnegative(),
    api_key: z.string().nullable().meta({ description: 'Masked: the key kind and its last 4 characters, such as sk_test_…_key.' }),
    account_id: z.string().nullable().meta({ description: 'The account of the key sent, when the sandbox knows the key; null otherwise.' }),
    idempotency_key: z.string().nullable(),
    headers: z.record(z.string(), z.string()).meta({
      description: 'The request headers, names in lower case (repeated ones joined with ", "). Secrets are masked: authorization and proxy-authorization keep their scheme and the key\'s kind and last 4 characters, cookie shows "…". At most 8 KB of them are kept.',
    }),
    replayed: z.boolean(),
    fault: z.enum(FAULT_KINDS).nullable().meta({ description: 'The injected fault that decided the answer, or latency when only a delay was added.' }),
    at: TimestampSchema,
    request_body: z.string().nullable().meta({ description: 'The request body as sent (its first 64 KB); null when it had none or was not read.' }),
    response_body: z.string().nullable().meta({ description: 'The JSON answer as sent (its first 64 KB); null when none was sent by a route.' }),
    truncated: z.boolean().meta({ description: 'true when a body (or the headers) was longer than the journal keeps and was cut.' }),
  })
  .meta({ id: 'SandboxRequest' })

export type RequestJournalEntry = z.infer<typeof RequestJournalEntrySchema>

const METHOD_MESSAGE = 'method must be an HTTP method such as GET or POST'
const MethodSchema = z.string().regex(/^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$/i, { error: METHOD_MESSAGE }).transform((method) => method.toUpperCase())

/**
 * `/v1/payments` (exact), `/v1/payments/{id}` (a `{name}` segment is any one segment), and either
 * ending in `*` (a prefix: `/v1/wallets/*`, `/v1/wallets/{id}/*`).
 */
export const PathPatternSchema = z
  .string()
  .max(2048)
  .regex(/^(\/([^/{}*]*|\{[A-Za-z_][A-Za-z0-9_]*\}))+\*?$/, {
    error: 'path must be a path such as /v1/payments, a template such as /v1/payments/{id}, or a prefix ending in * such as /v1/wallets/*',
  })

const STATUS_MESSAGE = 'status must be an HTTP status code such as 201 or a class such as 4xx'
/** `201` or `'4xx'`: a status code, or a class. */
export type StatusMatch = number | string
const StatusClassSchema = z.string().regex(/^[1-5]xx$/, { error: STATUS_MESSAGE })

export const ListRequestsQuery = PageQuery.extend({
  api_key: z.string().min(1).optional().meta({ description: 'The account behind this key (or give account_id). Without either, every account\'s requests and those without one.' }),
  account_id: z.string().min(1).optional().meta({ description: 'An account id, or `none` for the requests without an account (no key, or a key the sandbox does not know).' }),
  method: MethodSchema.optional(),
  path: PathPatternSchema.optional(),
  status: z
    .string()
    .regex(/^[1-5](\d\d|xx)$/, { error: STATUS_MESSAGE })
    .transform((value): StatusMatch => (value.endsWith('xx') ? value : Number(value)))
    .optional()
    .meta({ description: 'A status code (`201`) or a class (`4xx`).' }),
  idempotency_key: z.string().min(1).optional().meta({ description: 'Only requests sent with this Idempotency-Key.' }),
  after: z.string().min(1).optional().meta({ description: 'A request id: only requests recorded after it (after the newest entry with that id, for an idempotent replay that shares its first request\'s id).' }),
  wait: integerParam('wait', 0, 30_000).optional().default(0).meta({
    description: 'ms (0–30000): when nothing matches yet, wait (real time, also under a manual clock) until a matching request has been answered or the time is up (then data is []).',
  }),
}).strict()

/** A header name as HTTP allows it (a token); matched without regard to case. */
const HeaderNameSchema = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,200}$/, { error: 'header names are HTTP tokens such as idempotency-key' })

export const RequestExpectationSchema = z
  .strictObject({
    api_key: z.string().min(1).optional().meta({ description: 'Whose requests: the account behind this key (or give account_id).' }),
    account_id: z.string().min(1).optional(),
    method: MethodSchema.optional(),
    path: PathPatternSchema.optional(),
    query: z.record(z.string().min(1, { error: 'query parameter names must not be empty' }).max(200, { error: 'query parameter names are at most 200 characters' }), z.string().max(2000, { error: 'query values are at most 2,000 characters' })).optional()
      .meta({ description: 'Query parameters the request had, each with this value.' }),
    headers: z.record(HeaderNameSchema, z.union([z.string().max(8192), z.boolean()], { error: 'a header is expected as a string (its value), true (present) or false (absent)' })).optional()
      .meta({ description: 'Each header equal to this value, present (true) or absent (false); names without regard to case.' }),
    body: z.unknown().optional().meta({ description: 'JSON the request body must contain: every field named, with an equal value (nested objects likewise; arrays exactly).' }),
    status: z.union([z.number().int().min(100).max(599), StatusClassSchema], { error: STATUS_MESSAGE }).optional()
      .meta({ description: 'The answer\'s status code (201) or class ("4xx").' }),
    count: z.number().int().min(0).max(100_000).default(1).meta({ description: 'At least this many matches (default 1); exactly this many with exactly.' }),
    exactly: z.boolean().default(false).meta({ description: 'Exactly count matches, not at least; with count 0, that no such request came. Waits the whole within_ms before saying yes.' }),
    within_ms: z.number().int().min(0).max(30_000).default(0).meta({ description: 'ms of real time (0–30000) to wait for enough matches.' }),
  })
  .superRefine((expectation, ctx) => {
    if (expectation.api_key === undefined && expectation.account_id === undefined) {
      ctx.addIssue({ code: 'invalid_type', expected: 'string', input: undefined, path: ['api_key'], message: 'api_key (or account_id) is required: whose requests to check' })
    }
  })
  .meta({ example: REQUEST_EXAMPLES.expectRequest })

export type RequestExpectation = z.output<typeof RequestExpectationSchema>

export const DifferenceSchema = z
  .object({
    field: z.string().meta({ description: '`method`, `path`, `query.x`, `headers.x`, `body.a.b` (a key that is not a plain name as `body["a.b"]`), or `status`.' }),
    expected: z.unknown(),
    actual: z.unknown().optional().meta({ description: 'What the request had; absent when it had no such field, header or parameter.' }),
  })
  .meta({ id: 'SandboxRequestDifference' })

export const RequestExpectationResultSchema = z.object({
  satisfied: z.boolean(),
  matched: z.array(RequestJournalEntrySchema).meta({ description: 'The account\'s requests that match, newest first.' }),
  near_misses: z
    .array(z.object({ request: RequestJournalEntrySchema, differences: z.array(DifferenceSchema) }))
    .meta({ description: 'When not satisfied: up to 5 of the account\'s other requests, closest first (fewest differences, then newest), each with what differs.' }),
})
