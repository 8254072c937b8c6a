import * as z from 'zod'
import { whenPresent } from './messages.js'
import { REQUEST_EXAMPLES } from './request-examples.js'
import { AccountScopeFields } from './account-scope.js'

/** Fault rules' request and resource (CONTRACT.md sections 10 and 13); the rules themselves live in `control/fault-rules.ts`. */

export const FAULT_KINDS = ['latency', 'error', 'drop', 'commit_then_drop', 'timeout'] as const
export type FaultKind = (typeof FAULT_KINDS)[number]

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const
/** The longest injected wait: longer than any sensible client timeout, short enough to notice a typo. */
export const MAX_FAULT_LATENCY_MS = 60_000

const PATH_MESSAGE = 'path must be a /v1 path such as /v1/payments, or a prefix ending in * such as /v1/wallets/*'

export const FaultMatchSchema = z.strictObject({
  method: z
    .string({ error: whenPresent(`method must be one of ${METHODS.join(', ')}`) })
    .refine((value) => (METHODS as readonly string[]).includes(value.toUpperCase()), { error: `method must be one of ${METHODS.join(', ')}` })
    .optional(),
  // `*` only at the end; faults apply to the /v1 API only, so other paths could never match.
  path: z
    .string({ error: whenPresent(PATH_MESSAGE) })
    .regex(/^\/v1(\/[^*?#\s]*)?\*?$/, { error: PATH_MESSAGE })
    .optional(),
  api_key: z.string({ error: whenPresent('api_key must be a string') }).min(1, { error: 'api_key must not be empty' }).optional(),
})

const Milliseconds = z
  .number({ error: whenPresent(`latency_ms must be a number of milliseconds or a range [min, max]`) })
  .int({ error: 'latency_ms must be whole milliseconds' })
  .min(0, { error: 'latency_ms must not be negative' })
  .max(MAX_FAULT_LATENCY_MS, { error: `latency_ms is at most ${MAX_FAULT_LATENCY_MS}` })

const LatencySchema = z.union([Milliseconds, z.tuple([Milliseconds, Milliseconds])], {
  error: whenPresent('latency_ms must be a number of milliseconds or a range [min, max]'),
})

export const CreateFaultSchema = z
  .strictObject({
    match: FaultMatchSchema.default({}),
    fault: z.enum(FAULT_KINDS, { error: whenPresent(`fault must be one of ${FAULT_KINDS.join(', ')}`) }),
    status: z.literal([500, 503], { error: 'status must be 500 or 503' }).optional(),
    latency_ms: LatencySchema.optional(),
    probability: z.number({ error: whenPresent('probability must be a number from 0 to 1') }).min(0, { error: 'probability must be from 0 to 1' }).max(1, { error: 'probability must be from 0 to 1' }).optional(),
    times: z.number({ error: whenPresent('times must be a whole number') }).int({ error: 'times must be a whole number' }).min(1, { error: 'times must be a whole number of at least 1 (omit it for unlimited)' }).optional(),
    ...AccountScopeFields,
    api_key: AccountScopeFields.api_key.meta({ description: 'The rule applies to the requests of this key’s account only, with any of its keys (or give account_id). Without either, to every account’s.' }),
  })
  .superRefine((body, ctx) => {
    if (body.status !== undefined && body.fault !== 'error') {
      ctx.addIssue({ code: 'custom', path: ['status'], input: body.status, message: 'status only applies to fault "error"' })
    }
    if (body.fault === 'latency' && body.latency_ms === undefined) {
      ctx.addIssue({ code: 'invalid_type', expected: 'number', path: ['latency_ms'], input: undefined, message: 'latency_ms is required for fault "latency"' })
    }
    if (Array.isArray(body.latency_ms) && body.latency_ms[0] > body.latency_ms[1]) {
      ctx.addIssue({ code: 'custom', path: ['latency_ms'], input: body.latency_ms, message: 'latency_ms range must be [min, max] with min ≤ max' })
    }
  })
  .meta({ id: 'CreateFaultRequest', example: REQUEST_EXAMPLES.createFault })

export const FaultSchema = z
  .object({
    id: z.string(),
    match: z.object({
      method: z.string().optional(),
      path: z.string().optional(),
      api_key: z.string().optional(),
      account_id: z.string().optional().meta({ description: 'The one account whose requests (with any of its keys) the rule applies to; absent: every account.' }),
    }),
    fault: z.enum(FAULT_KINDS),
    status: z.literal([500, 503]).nullable(),
    latency_ms: z.union([Milliseconds, z.tuple([Milliseconds, Milliseconds])]).nullable(),
    probability: z.number().min(0).max(1),
    times: z.number().int().min(1).nullable(),
    remaining: z.number().int().nonnegative().nullable(),
  })
  .meta({ id: 'Fault' })

export type Fault = z.infer<typeof FaultSchema>
export type FaultInput = z.output<typeof CreateFaultSchema>
