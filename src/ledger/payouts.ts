import type { Clock } from '../clock.js'
import { ApiError, notFound } from '../errors.js'
import type { EventType } from '../model/events.js'
import type { Publisher } from '../events/publisher.js'
import { newId } from '../ids.js'
import { formatAmount } from '../money.js'
import type { Metadata, PaymentRecord, PaymentStatus, PayoutRecord, PayoutStatus } from '../model/records.js'
import type { AccountState } from '../store/account-state.js'
import { put, type Change } from '../store/changes.js'
import type { Store } from '../store/store.js'
import { lock } from './balances.js'
import { newestFirst } from './page.js'
import type { CheckedPayment, PaymentService } from './payments.js'
import { decimalsOf, presentPayout } from './present.js'

export interface PayoutItemInput {
  amount: string
  recipient: string
  description?: string | null
  metadata: Metadata
}

export interface CreatePayoutInput {
  source_wallet: string
  currency: string
  items: PayoutItemInput[]
  metadata: Metadata
}

/** Errors about the payout as a whole keep their own `param`; the others name the item. */
const PAYOUT_PARAMS = new Set(['source_wallet', 'currency'])

const FINAL_EVENTS: Partial<Record<PayoutStatus, EventType>> = {
  completed: 'payout.completed',
  failed: 'payout.failed',
  partially_failed: 'payout.partially_failed',
}

/**
 * A payout's status from its items' (CONTRACT.md section 13): pending while every item is, final
 * once every item is, processing in between.
 */
function payoutStatusOf(statuses: readonly PaymentStatus[]): PayoutStatus {
  const count = (status: PaymentStatus) => statuses.filter((s) => s === status).length
  const completed = count('completed')
  const failed = count('failed')
  if (count('pending') === statuses.length) return 'pending'
  if (completed + failed < statuses.length) return 'processing'
  return failed === 0 ? 'completed' : completed === 0 ? 'failed' : 'partially_failed'
}

export type PayoutService = ReturnType<typeof createPayoutService>

/** Bulk payouts (CONTRACT.md section 5): one payment per item, created all together or not at all. */
export function createPayoutService(deps: { store: Store; clock: Clock; publisher: Publisher; payments: PaymentService }) {
  const { store, clock, publisher, payments } = deps

  /** The payment checks of one item; an error points at the item (`items[3].recipient`). */
  function checkItem(account: AccountState, input: CreatePayoutInput, item: PayoutItemInput, index: number): CheckedPayment {
    try {
      return payments.check(account, { ...item, source_wallet: input.source_wallet, currency: input.currency })
    } catch (error) {
      if (!(error instanceof ApiError) || (error.param !== undefined && PAYOUT_PARAMS.has(error.param))) throw error
      const at = `items[${index}]`
      throw new ApiError(error.code, `${at}: ${error.message}`, { param: error.param === undefined ? at : `${at}.${error.param}`, headers: error.headers })
    }
  }

  return {
    get(account: AccountState, id: string): PayoutRecord {
      const payout = account.payouts.get(id)
      if (!payout) throw notFound('payout', id)
      return payout
    },

    /** Newest first. */
    list(account: AccountState, offset: number, limit: number) {
      return newestFirst(account.payouts.values(), () => true, offset, limit)
    },

    create(account: AccountState, input: CreatePayoutInput): PayoutRecord {
      const checked = input.items.map((item, index) => checkItem(account, input, item, index))
      const { source } = checked[0]!
      const total = checked.reduce((sum, item) => sum + item.units, 0n)
      const decimals = decimalsOf(source)
      if (source.available < total) {
        throw new ApiError(
          'insufficient_funds',
          `Wallet ${source.id} has ${formatAmount(source.available, decimals)} ${source.currency} available; the ${checked.length} items of the payout total ${formatAmount(total, decimals)}.`,
          { param: 'items' },
        )
      }

      const id = newId('po', account.rng)
      const changes: Change[] = []
      // One transaction locks the payout's total; each item then completes or fails on its own.
      const locked = { ...source }
      lock(account, locked, total, { cause: 'payout.created', ref: id, at: clock.now(account.account.id) }, changes)
      const items = input.items.map((item, index) => {
        const itemChecked = { ...checked[index]!, source: locked }
        return payments.insert(account, { ...item, source_wallet: source.id, currency: source.currency, payout_id: id }, itemChecked, changes, false)
      })
      const now = clock.nowIso(account.account.id)
      const payout: PayoutRecord = {
        id,
        status: 'pending',
        source: source.id,
        currency: source.currency,
        total_amount: formatAmount(total, decimals),
        payment_ids: items.map((payment) => payment.id),
        metadata: input.metadata,
        created_at: now,
        updated_at: now,
      }
      store.apply([...changes, put('payout', account.account.id, id, payout)])
      // The payout first, so that its items' events can be traced back to a payout the receiver knows.
      publisher.event(account, 'payout.created', presentPayout(payout))
      for (const payment of items) payments.announce(account, payment)
      return payout
    },

    /** Called after each status change of a payment: the payout follows its items. */
    follow(account: AccountState, payment: PaymentRecord): void {
      const payout = payment.payout_id === null ? undefined : account.payouts.get(payment.payout_id)
      if (!payout) return
      const statuses = payout.payment_ids.flatMap((id) => account.payments.get(id)?.status ?? [])
      const status = payoutStatusOf(statuses)
      if (status === payout.status) return
      store.apply([put('payout', account.account.id, payout.id, { ...payout, status, updated_at: clock.nowIso(account.account.id) })])
      const type = FINAL_EVENTS[status]
      if (type) publisher.event(account, type, presentPayout(payout))
    },
  }
}
