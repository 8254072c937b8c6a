import type { Clock } from '../clock.js'
import type { Publisher } from '../events/publisher.js'
import type { OrderEventType } from '../model/events.js'
import type { OrderRecord, WalletRecord } from '../model/records.js'
import type { AccountState } from '../store/account-state.js'
import { put, type Change } from '../store/changes.js'
import type { Store } from '../store/store.js'
import { presentBalance } from './present.js'
import { presentOrder } from './present-order.js'

export type OrderCommit = ReturnType<typeof createOrderCommit>

/**
 * How every change of an order is written: one change set (the order, its wallets, their postings
 * and the account's order event counter), followed by its event.
 */
export function createOrderCommit(deps: { store: Store; clock: Clock; publisher: Publisher }) {
  const { store, clock, publisher } = deps

  /** One change set for the order's new state, then its event and the notifications of the wallets whose balances moved. */
  function commit(account: AccountState, order: OrderRecord, type: OrderEventType, wallets: WalletRecord[], changes: Change[]): void {
    const id = account.account.id
    const sequence = (account.account.order_events ?? 0) + 1
    store.apply([
      ...wallets.map((w) => put('wallet', id, w.id, w)),
      ...changes,
      put('order', id, order.id, order),
      put('account', id, id, { ...account.account, order_events: sequence }),
    ])
    const stored = account.orders.get(order.id)!
    for (const moved of wallets) {
      const record = account.wallets.get(moved.id)!
      publisher.wallet(account, moved.id, 'balance.updated', () => presentBalance(record))
    }
    publisher.order(account, type, presentOrder(stored), sequence)
  }

  /** The wallet as it will be put: a copy, updated now. */
  const copyOf = (account: AccountState, id: string): WalletRecord => ({ ...account.wallets.get(id)!, updated_at: clock.nowIso(account.account.id) })

  return { commit, copyOf }
}
