import type { Rng } from '../rng.js'
import type { Fault, FaultInput } from '../schemas/faults.js'
import { controlList } from '../store/control-list.js'
import type { Store } from '../store/store.js'

/**
 * Fault rules (CONTRACT.md sections 10 and 13): "the next 2 POSTs to /v1/payments lose their
 * connection after the payment is made". The per-request decision lives in `http/middleware/faults.ts`.
 */

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
