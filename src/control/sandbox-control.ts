import type { Clock } from '../clock.js'
import { notFound } from '../errors.js'
import type { Bus } from '../events/bus.js'
import type { RequestJournal } from '../http/request-journal.js'
import type { Accounts } from '../ledger/accounts.js'
import type { OutcomeRules } from '../lifecycle/outcome-rules.js'
import type { Screening } from '../lifecycle/screening.js'
import type { AccountState, PaymentRecord, WalletRecord } from '../store/records.js'
import { emptyData, type Data } from '../store/data.js'
import type { Store } from '../store/store.js'
import type { FaultRules } from './fault-rules.js'

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
}) {
  const { store, accounts, clock, bus, rules, screening, faults, journal } = deps

  function forget(accountId: string): void {
    clock.cancelTagged(accountId)
    bus.emit('account.reset', accountId)
  }

  return {
    rules,
    screening,
    faults,
    journal,

    /** Everything back to the fixtures: accounts provisioned since start-up are gone (open auth re-creates them on use). */
    resetAll(): void {
      for (const id of store.accounts.keys()) forget(id)
      store.apply([{ op: 'replace', value: emptyData() }])
      rules.clear()
      screening.clear()
      faults.clear()
      journal.clear()
      accounts.ensureDefault()
    },

    /**
     * Replaces the whole state with a snapshot (already validated). Observers first drop what they
     * hold for the accounts that go away, as on a reset; settlement then picks up the restored
     * payments that were on their way. The clock is not part of a snapshot and stays where it is.
     */
    restore(data: Data): void {
      for (const id of store.accounts.keys()) forget(id)
      store.apply([{ op: 'replace', value: data }])
      accounts.ensureDefault()
      bus.emit('state.restored')
    },

    /** One account back to its seeded state; its keys stay valid. */
    resetAccount(accountId: string): AccountState {
      forget(accountId)
      rules.clear(accountId)
      faults.clear(new Set([...store.keys.values()].filter((key) => key.account_id === accountId).map((key) => key.key)))
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

    findPayment(id: string): { account: AccountState; payment: PaymentRecord } {
      for (const account of store.accounts.values()) {
        const payment = account.payments.get(id)
        if (payment) return { account, payment }
      }
      throw notFound('payment', id)
    },
  }
}

export type SandboxControl = ReturnType<typeof createSandboxControl>
