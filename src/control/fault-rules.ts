import * as z from 'zod'
import type { Rng } from '../rng.js'
import { whenPresent } from '../schemas/messages.js'
import { controlList } from '../store/control-list.js'
import type { Store } from '../store/store.js'

/**
 * Fault rules (CONTRACT.md sections 10 and 13): "the next 2 POSTs to /v1/payments lose their
 * connection after the payment is made". The per-request decision lives in `http/faults.ts`.
 */

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
    status: z.union([z.literal(500), z.literal(503)], { error: 'status must be 500 or 503' }).optional(),
    latency_ms: LatencySchema.optional(),
    probability: z.number({ error: whenPresent('probability must be a number from 0 to 1') }).min(0, { error: 'probability must be from 0 to 1' }).max(1, { error: 'probability must be from 0 to 1' }).optional(),
    times: z.number({ error: whenPresent('times must be a whole number') }).int({ error: 'times must be a whole number' }).min(1, { error: 'times must be a whole number of at least 1 (omit it for unlimited)' }).optional(),
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
  .meta({ id: 'CreateFaultRequest' })

export const FaultSchema = z
  .object({
    id: z.string(),
    match: z.object({ method: z.string().optional(), path: z.string().optional(), api_key: z.string().optional() }),
    fault: z.enum(FAULT_KINDS),
    status: z.union([z.literal(500), z.literal(503)]).nullable(),
    latency_ms: z.union([z.number().int(), z.tuple([z.number().int(), z.number().int()])]).nullable(),
    probability: z.number(),
    times: z.number().int().nullable(),
    remaining: z.number().int().nullable(),
  })
  .meta({ id: 'Fault' })

export type Fault = z.infer<typeof FaultSchema>
type FaultInput = z.output<typeof CreateFaultSchema>

/** What a `/v1` request looks like to the rules. */
export interface FaultTarget {
  method: string
  path: string
  apiKey: string | undefined
}

/** The rules that fired for one request: their waits added up, and the rule that decides the answer. */
export interface FaultDecision {
  latencyMs: number
  fault: Fault | undefined
}

const KEY = 'faults'

export function createFaultRules(deps: { store: Store; rng: Rng }) {
  const { store, rng } = deps
  const rules = controlList<Fault>(store, KEY)

  /** Seeded draws: the same seed and requests fire the same rules. Certain outcomes draw nothing. */
  const fires = (probability: number) => probability >= 1 || (probability > 0 && rng.next() < probability)
  const drawLatency = (latency: Fault['latency_ms']) => (latency === null ? 0 : typeof latency === 'number' ? latency : latency[0] + rng.int(latency[1] - latency[0] + 1))

  return {
    list: rules.all,
    add(input: FaultInput): Fault {
      const { method, path, api_key } = input.match
      return rules.add({
        id: rules.newId('flt', rng),
        match: { ...(method && { method: method.toUpperCase() }), ...(path && { path }), ...(api_key && { api_key }) },
        fault: input.fault,
        status: input.fault === 'error' ? (input.status ?? 503) : null,
        latency_ms: input.latency_ms ?? null,
        probability: input.probability ?? 1,
        times: input.times ?? null,
        remaining: input.times ?? null,
      })
    },
    remove: rules.remove,
    /** Removes every rule, or those matching on one of the given keys (an account's reset). */
    clear(apiKeys?: ReadonlySet<string>): number {
      return rules.removeAllBut(apiKeys === undefined ? undefined : (rule) => rule.match.api_key === undefined || !apiKeys.has(rule.match.api_key))
    },
    /**
     * Tries the rules in creation order and counts those that fire: every latency rule that fires
     * adds its wait; of the other kinds the first that fires decides, and later ones are not tried.
     */
    take(target: FaultTarget): FaultDecision {
      const decision: FaultDecision = { latencyMs: 0, fault: undefined }
      for (const rule of rules.all()) {
        if (rule.remaining === 0 || !matches(rule, target)) continue
        if (rule.fault !== 'latency' && decision.fault) continue
        if (!fires(rule.probability)) continue
        rules.countUse(rule)
        decision.latencyMs += drawLatency(rule.latency_ms)
        if (rule.fault !== 'latency') decision.fault = rule
      }
      return decision
    },
  }
}

export type FaultRules = ReturnType<typeof createFaultRules>

function matches(rule: Fault, target: FaultTarget): boolean {
  const { method, path, api_key } = rule.match
  return (
    (method === undefined || method === target.method) &&
    (path === undefined || matchesPath(path, target.path)) &&
    (api_key === undefined || api_key === target.apiKey)
  )
}

/** An exact path, or a prefix ending in `*` (`/v1/wallets/*` also matches `/v1/wallets/wal_1/balance`). */
export const matchesPath = (pattern: string, path: string): boolean => (pattern.endsWith('*') ? path.startsWith(pattern.slice(0, -1)) : path === pattern)
