import type { Network } from '../model/networks.js'
import type { Clock } from '../clock.js'
import type { Config } from '../config.js'
import type { Bus } from '../events/bus.js'
import type { Fixtures } from '../fixtures.js'
import type { PaymentService } from '../ledger/payments.js'
import type { PaymentRecord } from '../model/records.js'
import type { AccountState } from '../store/account-state.js'
import { put } from '../store/changes.js'
import type { Store } from '../store/store.js'
import type { OutcomeDecider } from './outcomes.js'

/**
 * Moves payments through `pending → processing → completed | failed` by themselves (CONTRACT.md
 * section 8). `auto` waits for a screening delay, then the network's confirmation delay, on the
 * sandbox clock; `instant` runs both steps right after the create response; `manual` does nothing
 * (control calls move payments). Every step goes through the ledger's transitions, so balances and
 * events follow.
 */
export function createPaymentSettlement(deps: { config: Config; clock: Clock; store: Store; bus: Bus; fixtures: Fixtures; payments: PaymentService; decide: OutcomeDecider }) {
  const { config, clock, store, payments } = deps
  const screeningDelay = deps.fixtures.networks.screening_delay_ms
  const confirmationDelay = (network: Network) => config.settleDelay ?? deps.fixtures.networks.confirmation_delay_ms[network] ?? 1000

  /** A step only acts if the account was not reset meanwhile and the payment is where it expects. */
  const current = (account: AccountState, payment: PaymentRecord) => store.accounts.get(account.account.id) === account && account.payments.get(payment.id) === payment

  function screen(account: AccountState, payment: PaymentRecord): boolean {
    if (!current(account, payment) || payment.status !== 'pending') return false
    const plan = payment.plan!
    if (plan.outcome === 'failed' && plan.stage === 'pending') {
      payments.fail(account, payment, plan.failure_code!)
      return false
    }
    payments.process(account, payment)
    return true
  }

  function confirm(account: AccountState, payment: PaymentRecord): void {
    if (!current(account, payment) || payment.status !== 'processing') return
    const plan = payment.plan!
    if (plan.outcome === 'failed') payments.fail(account, payment, plan.failure_code!)
    else payments.complete(account, payment)
  }

  function start(account: AccountState, payment: PaymentRecord): void {
    const plan = deps.decide(account, payment)
    store.apply([put('payment', account.account.id, payment.id, { ...payment, plan })])
    if (plan.outcome !== 'pending') drive(account, payment)
  }

  /** Schedules the steps a payment with a plan still has to take, from wherever it stands. */
  function drive(account: AccountState, payment: PaymentRecord): void {
    const tag = account.account.id
    const confirmLater = () => clock.schedule(confirmationDelay(payment.network), () => confirm(account, payment), tag)
    if (config.settle === 'instant') setImmediate(() => (payment.status === 'processing' || screen(account, payment)) && confirm(account, payment))
    else if (payment.status === 'processing') confirmLater()
    else
      clock.schedule(
        screeningDelay,
        () => {
          if (screen(account, payment)) confirmLater()
        },
        tag,
      )
  }

  /**
   * A sandbox restarted on its data file, or restored from a snapshot (of everything, or of one
   * account), picks up the payments that were on their way. Payments a
   * control call took over (their plan is cleared) or whose plan waits stay where they are.
   */
  function resume(accountId?: string): void {
    for (const account of store.accounts.values()) {
      if (accountId !== undefined && account.account.id !== accountId) continue
      for (const status of ['pending', 'processing'] as const) {
        const { items } = account.payments.list({ status }, 0, Number.MAX_SAFE_INTEGER)
        for (const payment of items.reverse()) if (payment.plan && payment.plan.outcome !== 'pending') drive(account, payment)
      }
    }
  }

  if (config.settle !== 'manual') {
    resume()
    deps.bus.on('state.restored', resume)
    deps.bus.on('event', (event) => {
      if (event.type !== 'payment.created') return
      const account = store.accounts.get(event.account_id)
      const payment = account?.payments.get((event.data.object as { id: string }).id)
      if (account && payment) start(account, payment)
    })
  }
}
