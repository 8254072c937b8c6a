import { addressKey } from '../chain/networks.js'
import { type Network } from '../model/networks.js'
import type { Fixtures } from '../fixtures.js'
import { lazily } from '../lazily.js'
import type { FailureCode } from '../model/failures.js'
import { DEFAULT_FAILURE_CODE } from '../model/failures.js'
import { decimalsOf } from '../ledger/present.js'
import type { PaymentRecord, SettlementPlan } from '../model/records.js'
import type { AccountState } from '../store/account-state.js'
import type { OutcomeRules } from './outcome-rules.js'
import type { Screening } from './screening.js'

/**
 * Decides how a payment will end (CONTRACT.md section 8), first match wins: request metadata,
 * outcome rules, magic recipient addresses, the screening list, otherwise success. Control calls
 * come first of all, but they act on the payment directly and need no plan.
 */
export function createOutcomeDecider(deps: { fixtures: Fixtures; rules: OutcomeRules; screening: Screening }) {
  // Built on the first payment's plan: the shipped magic file is read then (src/fixtures.ts).
  const magicOf = lazily(() => new Map(deps.fixtures.magic.map((entry) => [`${entry.network}:${addressKey(entry.network, entry.address)}`, entry])))

  return function decide(account: AccountState, payment: PaymentRecord): SettlementPlan {
    const requested = payment.metadata.sandbox_outcome
    if (requested === 'completed' || requested === 'failed' || requested === 'pending') {
      return plan(requested, payment.metadata.sandbox_failure_code, 'metadata')
    }
    const source = account.wallets.get(payment.source)!
    const rule = deps.rules.take(account.account.id, payment, decimalsOf(source))
    if (rule) return plan(rule.outcome, rule.failure_code, `rule:${rule.id}`)
    if (payment.destination_type === 'address') {
      const network = payment.network as Network
      const entry = magicOf().get(`${network}:${addressKey(network, payment.destination)}`)
      if (entry) return { outcome: entry.outcome, failure_code: entry.failure_code, stage: entry.stage, decided_by: 'magic' }
      if (deps.screening.isFlagged(network, payment.destination, account.account.id)) {
        return { outcome: 'failed', failure_code: 'screening_rejected', stage: 'pending', decided_by: 'screening' }
      }
    }
    return { outcome: 'completed', failure_code: null, stage: null, decided_by: 'default' }
  }
}

export type OutcomeDecider = ReturnType<typeof createOutcomeDecider>

function plan(outcome: SettlementPlan['outcome'], code: string | null | undefined, decidedBy: string): SettlementPlan {
  if (outcome !== 'failed') return { outcome, failure_code: null, stage: null, decided_by: decidedBy }
  const failureCode = (code ?? DEFAULT_FAILURE_CODE) as FailureCode
  // Screening happens before the payment reaches the network; every other failure happens on it.
  return { outcome, failure_code: failureCode, stage: failureCode === 'screening_rejected' ? 'pending' : 'processing', decided_by: decidedBy }
}
