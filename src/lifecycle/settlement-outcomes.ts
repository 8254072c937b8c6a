import { addressKey } from '../chain/networks.js'
import { ApiError } from '../errors.js'
import type { Fixtures } from '../fixtures.js'
import { lazily } from '../lazily.js'
import { DEFAULT_STEP_FAILURE } from '../ledger/settlements.js'
import type { SettlementFailureCode } from '../model/failures.js'
import type { SettlementOutcome, SettlementRecord, SettlementStepType } from '../model/records.js'
import type { AccountState } from '../store/account-state.js'
import type { Screening } from './screening.js'

/** Checks that happen before a settlement's first step starts: when they fail, nothing has left. */
export const PRE_START_FAILURES: ReadonlySet<string> = new Set(['screening_rejected', 'compliance_rejected'])

/**
 * Decides how a settlement ends (docs/settlements.md), first match wins: request metadata
 * (`sandbox_outcome`, `sandbox_fail_step`, `sandbox_failure_code`), magic destinations
 * (fixtures/settlements.json), the screening list for address destinations, otherwise success.
 * Runs inside the create request, before anything changes, so a metadata step the settlement
 * does not have is a 400.
 */
export function createSettlementDecider(deps: { fixtures: Fixtures; screening: Screening }) {
  // Built on the first settlement's decision: the shipped settlements file is read then (src/fixtures.ts).
  const magicOf = lazily(() => {
    const addresses = new Map<string, SettlementFailureCode>()
    const accounts = new Map<string, SettlementFailureCode>()
    for (const entry of deps.fixtures.settlementMagic) {
      if (entry.destination_type === 'address') addresses.set(`${entry.network}:${addressKey(entry.network, entry.address)}`, entry.failure_code)
      else accounts.set(`${entry.currency}:${entry.field}:${entry.value}`, entry.failure_code)
    }
    return { addresses, accounts }
  })

  /** A check fails the first step before it starts; a bridge failure the bridge (the transfer without one); a beneficiary failure the transfer. */
  const failAt = (s: SettlementRecord, code: SettlementFailureCode, decidedBy: string): SettlementOutcome => {
    const types = s.steps.map((item) => item.type)
    const fail_step = PRE_START_FAILURES.has(code) ? types[0]! : code === 'bridge_failed' && types.includes('bridge') ? 'bridge' : 'transfer'
    return { outcome: 'failed', fail_step, failure_code: code, decided_by: decidedBy }
  }

  return function decide(account: AccountState, s: SettlementRecord): SettlementOutcome {
    const { sandbox_outcome: outcome, sandbox_fail_step: step, sandbox_failure_code: code } = s.metadata
    if (outcome === 'completed') return { outcome: 'completed', fail_step: null, failure_code: null, decided_by: 'metadata' }
    if (outcome === 'failed') {
      const types = s.steps.map((item) => item.type)
      if (step !== undefined && !types.includes(step as SettlementStepType)) {
        throw new ApiError('parameter_invalid', `metadata.sandbox_fail_step: this settlement has no ${step} step (its steps: ${types.join(', ')}).`, { param: 'metadata.sandbox_fail_step' })
      }
      const failStep = (step as SettlementStepType | undefined) ?? types[types.length - 1]!
      return { outcome: 'failed', fail_step: failStep, failure_code: (code as SettlementFailureCode | undefined) ?? DEFAULT_STEP_FAILURE[failStep], decided_by: 'metadata' }
    }
    const d = s.destination
    const { addresses, accounts } = magicOf()
    if (d.type === 'address') {
      const magic = addresses.get(`${d.network}:${addressKey(d.network, d.address)}`)
      if (magic) return failAt(s, magic, 'magic')
      if (deps.screening.isFlagged(d.network, d.address, account.account.id)) return failAt(s, 'screening_rejected', 'screening')
    }
    if (d.type === 'bank_account') {
      for (const [field, value] of Object.entries(d.beneficiary)) {
        const magic = accounts.get(`${d.currency}:${field}:${value}`)
        if (magic) return failAt(s, magic, 'magic')
      }
    }
    return { outcome: 'completed', fail_step: null, failure_code: null, decided_by: 'default' }
  }
}
