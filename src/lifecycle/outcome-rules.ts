import { addressKey } from '../chain/networks.js'
import type { Network } from '../model/networks.js'
import type { Rng } from '../rng.js'
import { controlList } from '../store/control-list.js'
import type { Change } from '../store/changes.js'
import type { PaymentRecord } from '../model/records.js'
import type { Store } from '../store/store.js'
import { toBaseUnits } from '../money.js'
import type { OutcomeRule, OutcomeRuleInput } from '../schemas/outcome-rules.js'

/** Outcome rules (CONTRACT.md sections 8 and 13): "the next 2 payments to this address fail". */

const KEY = 'outcome_rules'

export function createOutcomeRules(deps: { store: Store; rngFor: (accountId?: string) => Rng }) {
  const { store } = deps
  const rules = controlList<OutcomeRule>(store, KEY)
  const isOfAccount = (rule: OutcomeRule, accountId: string) => rule.match.account_id === accountId

  return {
    /** Every rule, or the rules of one account. */
    list: (accountId?: string): readonly OutcomeRule[] => (accountId === undefined ? rules.all() : rules.all().filter((rule) => isOfAccount(rule, accountId))),
    /** A rule for every account, or (`match.account_id`) for one, its id from that account's generator. */
    add(input: OutcomeRuleInput): OutcomeRule {
      return rules.add({
        id: rules.newId('rule', deps.rngFor(input.match.account_id)),
        match: input.match,
        outcome: input.outcome,
        failure_code: input.outcome === 'failed' ? (input.failure_code ?? 'network_congestion') : null,
        times: input.times ?? null,
        remaining: input.times ?? null,
      })
    },
    remove: rules.remove,
    /** Removes every rule, or those of one account. */
    clear(accountId?: string): number {
      return rules.removeAllBut(accountId === undefined ? undefined : (rule) => !isOfAccount(rule, accountId))
    },
    /** An account's restore: its rules become `replacement`, every other rule stays. */
    replaceAccount: (accountId: string, replacement: readonly OutcomeRule[]): Change =>
      rules.replaceWhere((rule) => isOfAccount(rule, accountId), replacement.map((rule) => ({ ...rule, match: { ...rule.match, account_id: accountId } }))),
    /** The first rule with uses left that matches, its use counted. */
    take(accountId: string, payment: PaymentRecord, decimals: number): OutcomeRule | undefined {
      const rule = rules.all().find((r) => r.remaining !== 0 && matches(r, accountId, payment, decimals))
      if (rule) rules.countUse(rule)
      return rule
    },
  }
}

export type OutcomeRules = ReturnType<typeof createOutcomeRules>

function matches(rule: OutcomeRule, accountId: string, payment: PaymentRecord, decimals: number): boolean {
  const { match } = rule
  const network = payment.network as Network
  return (
    (match.account_id === undefined || match.account_id === accountId) &&
    (match.network === undefined || match.network === network) &&
    (match.currency === undefined || match.currency === payment.currency) &&
    (match.source_wallet === undefined || match.source_wallet === payment.source) &&
    (match.recipient === undefined || addressKey(network, match.recipient) === addressKey(network, payment.destination)) &&
    (match.amount_min === undefined || compareAmount(payment.amount_units, decimals, match.amount_min) >= 0) &&
    (match.amount_max === undefined || compareAmount(payment.amount_units, decimals, match.amount_max) <= 0)
  )
}

/** Compares exact amounts whatever the bound's number of decimals (bounds are inclusive). */
function compareAmount(units: bigint, decimals: number, bound: string): number {
  const places = Math.max(decimals, bound.split('.')[1]?.length ?? 0)
  const left = units * 10n ** BigInt(places - decimals)
  const right = toBaseUnits(bound, places)
  return left < right ? -1 : left > right ? 1 : 0
}
