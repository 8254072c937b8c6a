import { generateTxHash } from '../chain/networks.js'
import type { Clock } from '../clock.js'
import { ApiError, notFound } from '../errors.js'
import type { Publisher } from '../events/publisher.js'
import { newId } from '../ids.js'
import type { EventType } from '../model/events.js'
import { externalAccount, walletAccount } from '../model/ledger-accounts.js'
import { SETTLEMENT_FAILURE_MESSAGES, type SettlementFailureCode } from '../model/failures.js'
import type { Cause } from '../model/postings.js'
import type { SettlementOutcome, SettlementRecord, SettlementStepRecord, SettlementStepType, WalletRecord } from '../model/records.js'
import { toBaseUnits } from '../money.js'
import type { CreateSettlement } from '../schemas/settlement.js'
import type { AccountState } from '../store/account-state.js'
import { put, type Change } from '../store/changes.js'
import type { SettlementFilter } from '../store/settlement-index.js'
import type { Store } from '../store/store.js'
import { lock, post, release } from './balances.js'
import { decimalsOf, presentBalance } from './present.js'
import { presentSettlement } from './present-settlement.js'
import { checkSettlement, type CheckedSettlement } from './settlement-checks.js'
import type { PriceModel } from '../market/prices.js'
import type { QuoteService } from './quotes.js'
import { generateRailReference } from './settlement-references.js'

export type SettlementService = ReturnType<typeof createSettlementService>

/** The failure code a step uses when nothing more specific was asked for. */
export const DEFAULT_STEP_FAILURE: Record<SettlementStepType, SettlementFailureCode> = { conversion: 'conversion_failed', bridge: 'bridge_failed', transfer: 'transfer_failed' }

const FINAL = new Set(['completed', 'failed', 'refunded'])
export const isFinal = (s: SettlementRecord) => FINAL.has(s.status)
/** A step failed after value left: the refund is under way. */
export const refundPending = (s: SettlementRecord) => s.refund !== null && s.refund.completed_at === null
/** The step the settlement is at: the first one not completed, while none has failed. */
export const currentStep = (s: SettlementRecord): number => (s.failure_code !== null ? -1 : s.steps.findIndex((step) => step.status === 'pending' || step.status === 'processing'))

/**
 * Cross-border settlements (CONTRACT.md section 16): creation with its lock, and every move of a
 * settlement's steps. Each move is one change set (the settlement, its wallets, their postings)
 * followed by its event and wallet notifications; `onTransition` (the step timers) runs last.
 */
export function createSettlementService(deps: {
  store: Store
  clock: Clock
  publisher: Publisher
  prices: PriceModel
  quotes: QuoteService
  whitelistEnforced: boolean
  /** Decides how a new settlement ends (metadata, magic values, screening); the lifecycle supplies it. */
  decide?: (account: AccountState, settlement: SettlementRecord) => SettlementOutcome
  onTransition?: (account: AccountState, settlement: SettlementRecord) => void
}) {
  const { store, clock, publisher } = deps

  const units = (s: SettlementRecord, source: WalletRecord) => toBaseUnits(s.total_debit, decimalsOf(source))
  const reason = (account: AccountState, cause: Cause, s: SettlementRecord) => ({ cause, ref: s.id, at: clock.now(account.account.id) })

  /**
   * Applies `next` with the wallets it moved and their postings, then tells the world: the event
   * (if the status change has one), `balance.updated` to each moved wallet, then `onTransition`.
   */
  function commit(account: AccountState, current: SettlementRecord, next: SettlementRecord, event: EventType | undefined, wallets: WalletRecord[] = [], postings: Change[] = []): SettlementRecord {
    const id = account.account.id
    next.updated_at = clock.nowIso(account.account.id)
    for (const wallet of wallets) wallet.updated_at = next.updated_at
    store.apply([...wallets.map((wallet) => put('wallet', id, wallet.id, wallet)), ...postings, put('settlement', id, current.id, next)])
    for (const wallet of wallets) publisher.wallet(account, wallet.id, 'balance.updated', () => presentBalance(account.wallets.get(wallet.id)!))
    if (event) publisher.event(account, event, presentSettlement(current))
    deps.onTransition?.(account, current)
    return current
  }

  const copy = (s: SettlementRecord): SettlementRecord => structuredClone(s)
  const walletCopy = (account: AccountState, id: string) => ({ ...account.wallets.get(id)! })

  /** Starts step `index`; a bridge or transfer first sends the total debit out of the source wallet. */
  function startStep(account: AccountState, next: SettlementRecord, index: number, wallets: WalletRecord[], postings: Change[]): void {
    const step = next.steps[index]!
    step.status = 'processing'
    step.started_at = clock.nowIso(account.account.id)
    const source = account.wallets.get(next.source_wallet)!
    if (step.type === 'bridge') step.source_tx_hash = generateTxHash(source.network, account.rng)
    if (step.type === 'transfer' && step.rail) step.reference = generateRailReference(step.rail, account.rng)
    if (step.type === 'conversion' || next.value_left) return
    const moved = walletCopy(account, source.id)
    post(account, reason(account, 'settlement.sent', next), [
      { account: walletAccount(moved.id, 'locked'), amount: -units(next, moved) },
      { account: externalAccount(moved.network, moved.currency), amount: units(next, moved) },
    ], [moved], postings)
    wallets.push(moved)
    next.value_left = true
  }

  const service = {
    get(account: AccountState, id: string): SettlementRecord {
      const settlement = account.settlements.get(id)
      if (!settlement) throw notFound('settlement', id)
      return settlement
    },

    list(account: AccountState, filter: SettlementFilter, offset: number, limit: number) {
      return account.settlements.list(filter, offset, limit)
    },

    check: (account: AccountState, input: CreateSettlement): CheckedSettlement => checkSettlement(account, input, { prices: deps.prices, quotes: deps.quotes, now: clock.now(account.account.id), whitelistEnforced: deps.whitelistEnforced }),

    /** Checks, then creates the settlement with every step pending and `total_debit` locked in the source wallet. */
    create(account: AccountState, input: CreateSettlement): SettlementRecord {
      const checked = service.check(account, input)
      const { pricing, destination } = checked
      const now = clock.nowIso(account.account.id)
      const network = destination.type === 'wallet' ? checked.target!.network : destination.type === 'address' ? destination.network : null
      const rail = destination.type === 'bank_account' ? destination.rail : null
      const steps: SettlementStepRecord[] = checked.steps.map((type) => ({
        type, status: 'pending', network: type === 'conversion' ? null : network, rail: type === 'transfer' ? rail : null,
        tx_hash: null, source_tx_hash: null, destination_tx_hash: null, reference: null, started_at: null, completed_at: null, failure_code: null,
      }))
      const record: SettlementRecord = {
        id: newId('stl', account.rng),
        seq: account.settlements.nextSeq(),
        status: 'pending',
        source_wallet: checked.source.id,
        source_currency: checked.source.currency,
        amount: pricing.amount,
        fees: pricing.fees,
        total_debit: pricing.total_debit,
        destination,
        destination_currency: checked.destinationCurrency,
        destination_amount: pricing.destination_amount,
        rate: pricing.rate,
        quote_id: input.quote_id ?? null,
        steps,
        refund: null,
        value_left: false,
        failure_code: null,
        failure_message: null,
        description: input.description ?? null,
        metadata: input.metadata,
        plan: { outcome: 'completed', fail_step: null, failure_code: null, decided_by: 'default' },
        created_at: now,
        updated_at: now,
        completed_at: null,
      }
      if (deps.decide) record.plan = deps.decide(account, record)
      const source = { ...checked.source, updated_at: now }
      const changes: Change[] = []
      if (checked.quote) deps.quotes.markUsed(account, checked.quote, record.id, changes)
      lock(account, source, pricing.totalUnits, reason(account, 'settlement.created', record), changes)
      store.apply([put('wallet', account.account.id, source.id, source), ...changes, put('settlement', account.account.id, record.id, record)])
      const stored = account.settlements.get(record.id)!
      publisher.wallet(account, source.id, 'balance.updated', () => presentBalance(account.wallets.get(source.id)!))
      publisher.event(account, 'settlement.created', presentSettlement(stored))
      deps.onTransition?.(account, stored)
      return stored
    },

    /** pending → processing, the first step started. */
    begin(account: AccountState, s: SettlementRecord): SettlementRecord {
      if (s.status !== 'pending') throw new ApiError('invalid_state_transition', `Settlement ${s.id} is ${s.status}; only a pending settlement can begin.`)
      const next = copy(s)
      next.status = 'processing'
      const wallets: WalletRecord[] = []
      const postings: Change[] = []
      startStep(account, next, 0, wallets, postings)
      return commit(account, s, next, 'settlement.processing', wallets, postings)
    },

    /** Completes the current (processing) step and starts the next one, or completes the settlement. */
    completeStep(account: AccountState, s: SettlementRecord): SettlementRecord {
      const index = currentStep(s)
      if (index < 0 || s.steps[index]!.status !== 'processing') throw new ApiError('invalid_state_transition', `Settlement ${s.id} has no step in progress.`)
      const next = copy(s)
      const step = next.steps[index]!
      const now = clock.nowIso(account.account.id)
      step.status = 'completed'
      step.completed_at = now
      const wallets: WalletRecord[] = []
      const postings: Change[] = []
      if (step.type === 'bridge') step.destination_tx_hash = generateTxHash(step.network!, account.rng)
      if (step.type === 'transfer' && step.network) step.tx_hash = generateTxHash(step.network, account.rng)
      if (step.type === 'transfer' && next.destination.type === 'wallet') {
        const target = walletCopy(account, next.destination.wallet_id)
        const credited = toBaseUnits(next.destination_amount, decimalsOf(target))
        post(account, reason(account, 'settlement.credited', next), [
          { account: externalAccount(target.network, target.currency), amount: -credited },
          { account: walletAccount(target.id, 'available'), amount: credited },
        ], [target], postings)
        wallets.push(target)
      }
      const last = index === next.steps.length - 1
      if (last) {
        next.status = 'completed'
        next.completed_at = now
      } else startStep(account, next, index + 1, wallets, postings)
      // One event per completed step; the last one's completion follows it.
      commit(account, s, next, 'settlement.step_completed', wallets, postings)
      if (last) publisher.event(account, 'settlement.completed', presentSettlement(s))
      return s
    },

    /**
     * Fails the current step (a pending settlement: its first step, before it starts) and cancels
     * the later ones. Before value left, the lock is released and the settlement is `failed`; after,
     * it stays `processing` with a pending refund, which `refund` completes.
     */
    failStep(account: AccountState, s: SettlementRecord, code: SettlementFailureCode, message?: string): SettlementRecord {
      const index = currentStep(s)
      if (isFinal(s) || index < 0) throw new ApiError('invalid_state_transition', `Settlement ${s.id} is ${refundPending(s) ? 'being refunded' : s.status}; it has no step left to fail.`)
      const next = copy(s)
      next.steps[index]!.status = 'failed'
      next.steps[index]!.failure_code = code
      for (const later of next.steps.slice(index + 1)) later.status = 'cancelled'
      next.failure_code = code
      const source = walletCopy(account, next.source_wallet)
      const postings: Change[] = []
      if (!next.value_left) {
        release(account, source, units(next, source), reason(account, 'settlement.released', next), postings)
        next.status = 'failed'
        next.failure_message = message ?? `${SETTLEMENT_FAILURE_MESSAGES[code]} Nothing left the source wallet; the total debit was released.`
        return commit(account, s, next, 'settlement.failed', [source], postings)
      }
      next.failure_message = message ?? `${SETTLEMENT_FAILURE_MESSAGES[code]} The total debit is being refunded to the source wallet.`
      next.refund = { amount: next.total_debit, tx_hash: null, completed_at: null }
      return commit(account, s, next, undefined)
    },

    /** The refund of a settlement that failed after value left: `total_debit` back to the source's available balance. */
    refund(account: AccountState, s: SettlementRecord): SettlementRecord {
      if (!refundPending(s)) throw new ApiError('invalid_state_transition', `Settlement ${s.id} has no refund under way.`)
      const next = copy(s)
      const source = walletCopy(account, next.source_wallet)
      const postings: Change[] = []
      post(account, reason(account, 'settlement.refunded', next), [
        { account: externalAccount(source.network, source.currency), amount: -units(next, source) },
        { account: walletAccount(source.id, 'available'), amount: units(next, source) },
      ], [source], postings)
      next.status = 'refunded'
      next.refund = { amount: next.total_debit, tx_hash: generateTxHash(source.network, account.rng), completed_at: clock.nowIso(account.account.id) }
      return commit(account, s, next, 'settlement.refunded', [source], postings)
    },
  }
  return service
}
