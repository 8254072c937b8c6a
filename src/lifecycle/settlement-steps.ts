import type { Clock } from '../clock.js'
import type { Config } from '../config.js'
import { ApiError } from '../errors.js'
import type { Bus } from '../events/bus.js'
import { currentStep, isFinal, refundPending, type SettlementService } from '../ledger/settlements.js'
import type { SettlementFailureCode } from '../model/failures.js'
import type { SettlementRecord, SettlementStepRecord } from '../model/records.js'
import type { AccountState } from '../store/account-state.js'
import type { Store } from '../store/store.js'
import { PRE_START_FAILURES } from './settlement-outcomes.js'

/**
 * Sandbox-time delays of a settlement (docs/settlements.md), in ms: from creation to the first
 * step, each step by its kind (a transfer by its destination or rail), and from a failure after
 * value left to the completed refund. At most 60 s each (CONTRACT.md section 19).
 */
export const SETTLEMENT_DELAYS = {
  start: 500,
  conversion: 1000,
  bridge: 3000,
  transfer: { wallet: 500, address: 1000, ach: 3000, sepa: 2000, fps: 1000, spei: 1500 },
  refund: 5000,
} as const

export function stepDelay(s: SettlementRecord, step: SettlementStepRecord): number {
  if (step.type !== 'transfer') return SETTLEMENT_DELAYS[step.type]
  return SETTLEMENT_DELAYS.transfer[step.rail ?? (s.destination.type === 'wallet' ? 'wallet' : 'address')]
}

/**
 * Moves settlements through their steps on the sandbox clock (CONTRACT.md sections 16 and 19).
 * `auto` waits each documented delay; `instant` runs every step right after the answer; `manual`
 * waits for control `advance` and `fail`. A refund always runs by itself after its delay (at once
 * under `instant`). Every move goes through the ledger, which calls `schedule` again after it; a
 * timer acts only if nothing moved the settlement since it was set.
 */
export function createSettlementSteps(deps: { config: Config; clock: Clock; store: Store; bus: Bus; settlements: () => SettlementService }) {
  // `settlements` is asked for only when a settlement moves: a start without any makes no settlements' service (issue 33, round 10).
  const { config, clock, store, settlements } = deps
  const generations = new Map<string, number>()
  const current = (account: AccountState, s: SettlementRecord) => store.accounts.get(account.account.id) === account && account.settlements.get(s.id) === s

  /** Pending: a planned check failure fails the first step before it starts; otherwise the first step starts. */
  function begin(account: AccountState, s: SettlementRecord): void {
    const { plan } = s
    if (plan.outcome === 'failed' && plan.fail_step === s.steps[0]!.type && PRE_START_FAILURES.has(plan.failure_code!)) {
      settlements().failStep(account, s, plan.failure_code as SettlementFailureCode)
    } else settlements().begin(account, s)
  }

  /** The step in progress ends as planned: failed if the plan fails it, completed otherwise. */
  function finish(account: AccountState, s: SettlementRecord): void {
    const step = s.steps[currentStep(s)]!
    if (s.plan.outcome === 'failed' && s.plan.fail_step === step.type) settlements().failStep(account, s, s.plan.failure_code as SettlementFailureCode)
    else settlements().completeStep(account, s)
  }

  function nextMove(account: AccountState, s: SettlementRecord): { delay: number; move: () => void } | undefined {
    if (refundPending(s)) return { delay: SETTLEMENT_DELAYS.refund, move: () => settlements().refund(account, s) }
    if (isFinal(s) || config.settle === 'manual') return undefined
    if (s.status === 'pending') return { delay: SETTLEMENT_DELAYS.start, move: () => begin(account, s) }
    const index = currentStep(s)
    return index < 0 ? undefined : { delay: stepDelay(s, s.steps[index]!), move: () => finish(account, s) }
  }

  function schedule(account: AccountState, s: SettlementRecord): void {
    const generation = (generations.get(s.id) ?? 0) + 1
    generations.set(s.id, generation)
    const next = nextMove(account, s)
    if (!next) {
      if (isFinal(s)) generations.delete(s.id)
      return
    }
    const run = () => {
      if (generations.get(s.id) === generation && current(account, s)) next.move()
    }
    if (config.settle === 'instant') setImmediate(run)
    else clock.schedule(next.delay, run, account.account.id)
  }

  /** After a restart on the data file or a restore (of everything, or of one account). */
  function resume(accountId?: string): void {
    if (accountId === undefined) generations.clear()
    for (const account of store.accounts.values()) {
      if (accountId === undefined || account.account.id === accountId) for (const s of account.settlements.values()) schedule(account, s)
    }
  }
  resume()
  deps.bus.on('state.restored', resume)

  return {
    schedule,
    /** Control `advance`: finishes the current step (a pending settlement starts and finishes its first one). */
    advance(account: AccountState, s: SettlementRecord): SettlementRecord {
      if (isFinal(s) || refundPending(s)) {
        throw new ApiError('invalid_state_transition', `Settlement ${s.id} is ${refundPending(s) ? 'being refunded' : s.status}; it has no step to advance.`)
      }
      if (s.status === 'pending') begin(account, s)
      if (s.status === 'processing' && !refundPending(s)) finish(account, s)
      return s
    },
  }
}

export type SettlementSteps = ReturnType<typeof createSettlementSteps>
