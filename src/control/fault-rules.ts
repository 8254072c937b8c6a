import type { Rng } from '../rng.js'
import type { Fault, FaultInput } from '../schemas/faults.js'
import { controlList } from '../store/control-list.js'
import type { Change } from '../store/changes.js'
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
  accountId: string | undefined
}

/** The rules that fired for one request: their waits added up, and the rule that decides the answer. */
export interface FaultDecision {
  latencyMs: number
  fault: Fault | undefined
}

const KEY = 'faults'

export function createFaultRules(deps: { store: Store; rngFor: (accountId?: string) => Rng }) {
  const { store, rngFor } = deps
  const rules = controlList<Fault>(store, KEY)
  const isOfAccount = (rule: Fault, accountId: string) => rule.match.account_id === accountId

  /**
   * Seeded draws, from the generator of the rule's account (the sandbox's for a rule of every
   * account): the same seed and requests fire the same rules, whatever other accounts do. Certain
   * outcomes draw nothing.
   */
  const fires = (rule: Fault) => rule.probability >= 1 || (rule.probability > 0 && rngFor(rule.match.account_id).next() < rule.probability)
  const drawLatency = (rule: Fault) => {
    const latency = rule.latency_ms
    return latency === null ? 0 : typeof latency === 'number' ? latency : latency[0] + rngFor(rule.match.account_id).int(latency[1] - latency[0] + 1)
  }

  return {
    /** Every rule, or the rules of one account. */
    list: (accountId?: string): readonly Fault[] => (accountId === undefined ? rules.all() : rules.all().filter((rule) => isOfAccount(rule, accountId))),
    /** A rule for every account, or for the requests of one account (`accountId`: any of its keys). */
    add(input: FaultInput, accountId?: string): Fault {
      const { method, path, api_key } = input.match
      return rules.add({
        id: rules.newId('flt', rngFor(accountId)),
        match: { ...(method && { method: method.toUpperCase() }), ...(path && { path }), ...(api_key && { api_key }), ...(accountId && { account_id: accountId }) },
        fault: input.fault,
        status: input.fault === 'error' ? (input.status ?? 503) : null,
        latency_ms: input.latency_ms ?? null,
        probability: input.probability ?? 1,
        times: input.times ?? null,
        remaining: input.times ?? null,
      })
    },
    remove: rules.remove,
    /** Removes every rule, or those of one account: its own, and those matching on one of its keys (its reset). */
    clear(account?: { id: string; keys: ReadonlySet<string> }): number {
      if (account === undefined) return rules.removeAllBut()
      return rules.removeAllBut((rule) => !isOfAccount(rule, account.id) && (rule.match.api_key === undefined || !account.keys.has(rule.match.api_key)))
    },
    /** An account's restore: its rules become `replacement`, every other rule stays. */
    replaceAccount: (accountId: string, replacement: readonly Fault[]): Change =>
      rules.replaceWhere((rule) => isOfAccount(rule, accountId), replacement.map((rule) => ({ ...rule, match: { ...rule.match, account_id: accountId } }))),
    /** Whether any rule is set: without one, a request need not describe itself to `take`. */
    any: (): boolean => rules.all().length > 0,
    /**
     * Tries the rules in creation order and counts those that fire: every latency rule that fires
     * adds its wait; of the other kinds the first that fires decides, and later ones are not tried.
     */
    take(target: FaultTarget): FaultDecision {
      const decision: FaultDecision = { latencyMs: 0, fault: undefined }
      for (const rule of rules.all()) {
        if (rule.remaining === 0 || !matches(rule, target)) continue
        if (rule.fault !== 'latency' && decision.fault) continue
        if (!fires(rule)) continue
        rules.countUse(rule)
        decision.latencyMs += drawLatency(rule)
        if (rule.fault !== 'latency') decision.fault = rule
      }
      return decision
    },
  }
}

export type FaultRules = ReturnType<typeof createFaultRules>

function matches(rule: Fault, target: FaultTarget): boolean {
  const { method, path, api_key, account_id } = rule.match
  return (
    (method === undefined || method === target.method) &&
    (path === undefined || matchesPath(path, target.path)) &&
    (api_key === undefined || api_key === target.apiKey) &&
    (account_id === undefined || account_id === target.accountId)
  )
}

/** An exact path, or a prefix ending in `*` (`/v1/wallets/*` also matches `/v1/wallets/wal_1/balance`). */
export const matchesPath = (pattern: string, path: string): boolean => (pattern.endsWith('*') ? path.startsWith(pattern.slice(0, -1)) : path === pattern)
