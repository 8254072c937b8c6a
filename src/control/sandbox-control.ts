import type { Clock } from '../clock.js'
import { notFound } from '../errors.js'
import type { Bus } from '../events/bus.js'
import type { RequestJournal } from './request-journal.js'
import type { Accounts } from '../ledger/accounts.js'
import type { OutcomeRules } from '../lifecycle/outcome-rules.js'
import type { Screening } from '../lifecycle/screening.js'
import type { SettlementSteps } from '../lifecycle/settlement-steps.js'
import type { OrderRecord, PaymentRecord, SettlementRecord, WalletRecord } from '../model/records.js'
import type { AccountState } from '../store/account-state.js'
import { forkRngState, type RngState } from '../rng.js'
import type { Data } from '../schemas/data-file.js'
import { put } from '../store/changes.js'
import { emptyData } from '../store/data.js'
import type { Store } from '../store/store.js'
import type { FaultRules } from './fault-rules.js'
import type { PricePins } from './price-pins.js'
import type { AccountClocks } from './account-clocks.js'
import { createAccountSnapshots } from './account-snapshots.js'
import { RecentPayments } from './recent-payments.js'
import type { EventLog } from '../events/event-log.js'
import type { WebhookEngine } from '../events/webhooks.js'

/** What the control API does that no single ledger service owns: resets and cross-account look-ups. */
export function createSandboxControl(deps: {
  store: Store
  accounts: Accounts
  clock: Clock
  bus: Bus
  rules: OutcomeRules
  screening: Screening
  faults: FaultRules
  journal: RequestJournal
  settlementSteps: SettlementSteps
  pins: PricePins
  clocks: AccountClocks
  events: Pick<EventLog, 'exportAccount' | 'importAccount'>
  deliveries: Pick<WebhookEngine, 'exportAccount' | 'importAccount'>
}) {
  const { store, accounts, clock, bus, rules, screening, faults, journal, pins, clocks } = deps

  /** What is held for an account goes: its timers and offset, and what observers keep of it. */
  function forget(accountId: string): void {
    clock.forgetAccount(accountId)
    bus.emit('account.reset', accountId)
  }

  const recentPayments = new RecentPayments(bus, () => store.accounts.size)
  const accountKeys = (accountId: string) => ({ id: accountId, keys: new Set([...store.keys.values()].filter((key) => key.account_id === accountId).map((key) => key.key)) })
  const snapshots = createAccountSnapshots({
    ...deps,
    forget(accountId) {
      forget(accountId)
      journal.clear(accountId)
    },
  })

  return {
    rules,
    screening,
    faults,
    journal,
    settlementSteps: deps.settlementSteps,
    pins,
    clocks,
    /** One account's snapshot and its restore (CONTRACT.md section 24). */
    accountSnapshots: snapshots,
    /** An account and its keys, as the fault rules scope them. */
    accountKeys,

    /** Everything back to the fixtures: accounts provisioned since start-up are gone (open auth re-creates them on use). */
    resetAll(): void {
      for (const id of store.accounts.keys()) forget(id)
      store.apply([{ op: 'replace', value: emptyData() }])
      rules.clear()
      screening.clear()
      faults.clear()
      journal.clear()
      pins.clear()
      accounts.ensureDefault()
    },

    /**
     * Replaces the whole state with a snapshot (already validated), the clock included when the
     * snapshot says when it was taken, and each account's clock its offset from it. Observers first drop what they hold for the accounts that go
     * away, as on a reset; settlement then picks up the restored payments that were on their way.
     * Every generator of the restored accounts is forked with a new generation, so new ids repeat
     * neither the snapshot's (which the process may have issued after it was taken) nor any other.
     */
    restore(data: Data, takenAt?: number): void {
      for (const id of store.accounts.keys()) forget(id)
      const generation = accounts.newIdGeneration()
      const forked = data.accounts.map((account) => ({ ...account, rng_state: forkRngState(account.rng_state as RngState, 'generation', generation) }))
      store.apply([{ op: 'replace', value: { ...data, accounts: forked } }])
      if (takenAt !== undefined) clock.setNow(takenAt)
      clocks.load()
      accounts.ensureDefault()
      bus.emit('state.restored')
    },

    /** One account back to its seeded state, on the sandbox's time, without rules, pins or screening entries of its own; its keys stay valid. */
    resetAccount(accountId: string): AccountState {
      forget(accountId)
      rules.clear(accountId)
      faults.clear(accountKeys(accountId))
      screening.clear(accountId)
      pins.clear(accountId)
      journal.clear(accountId)
      return accounts.reset(accountId)
    },

    findWallet(id: string): { account: AccountState; wallet: WalletRecord } {
      for (const account of store.accounts.values()) {
        const wallet = account.wallets.get(id)
        if (wallet) return { account, wallet }
      }
      throw notFound('wallet', id)
    },

    /** PATCH /_sandbox/accounts/{id}: the account record changes through the store like any other. */
    setWhitelistEnforced(account: AccountState, enforced: boolean): void {
      store.apply([put('account', account.account.id, account.account.id, { ...account.account, whitelist_enforced: enforced })])
    },

    /** A control call decided the payment's fate: its plan is dropped, so settlement leaves it alone. */
    dropPlan(account: AccountState, payment: PaymentRecord): void {
      // No plan (manual settlement, or one dropped already): nothing to write, no copy of the payment to index again.
      if (payment.plan === null) return
      store.apply([put('payment', account.account.id, payment.id, { ...payment, plan: null })])
    },

    findPayment(id: string): { account: AccountState; payment: PaymentRecord } {
      const recentAccountId = recentPayments.accountOf(id)
      const recent = recentAccountId === undefined ? undefined : store.accounts.get(recentAccountId)
      const recentPayment = recent?.payments.get(id)
      if (recentPayment) return { account: recent!, payment: recentPayment }
      for (const account of store.accounts.values()) {
        const payment = account.payments.get(id)
        if (payment) return { account, payment }
      }
      throw notFound('payment', id)
    },

    findOrder(id: string): { account: AccountState; order: OrderRecord } {
      for (const account of store.accounts.values()) {
        const order = account.orders.get(id)
        if (order) return { account, order }
      }
      throw notFound('order', id)
    },

    findSettlement(id: string): { account: AccountState; settlement: SettlementRecord } {
      for (const account of store.accounts.values()) {
        const settlement = account.settlements.get(id)
        if (settlement) return { account, settlement }
      }
      throw notFound('settlement', id)
    },
  }
}

export type SandboxControl = ReturnType<typeof createSandboxControl>
