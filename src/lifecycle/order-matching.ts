import type { Clock, TimerHandle } from '../clock.js'
import type { Bus } from '../events/bus.js'
import type { OrderService } from '../ledger/orders.js'
import type { PriceModel } from '../market/prices.js'
import type { OrderRecord } from '../model/records.js'
import { scalePrice } from '../money.js'
import type { AccountState } from '../store/account-state.js'
import type { ScaledQuote } from '../store/resting-book.js'
import type { Store } from '../store/store.js'

/**
 * Resting limit orders against the price feed (CONTRACT.md sections 15, 19 and 24): on every price
 * tick of the account's clock (every `intervalMs` of its time, on the grid the stream's ticks fall
 * on), the open orders that tick's bid or ask reaches fill at the price of that time, oldest first;
 * a `gtd` order expires at the first instant the account's clock reaches its `expires_at`. A tick
 * looks only at those orders, which each account's book of resting orders (store/resting-book.ts)
 * finds by limit price, not at the orders that rest on.
 *
 * Each account with resting orders has its own tick timer on its own clock, so an account advanced
 * on its own fills its orders at the prices of its time, in order with its other timers, and an
 * account without resting orders costs an advance nothing.
 */
export function createOrderMatching(deps: { store: Store; clock: Clock; bus: Bus; orders: () => OrderService; prices: PriceModel; intervalMs: number }) {
  const { store, clock, orders, prices, intervalMs } = deps
  // `orders` is asked for only when an order fills or expires: a start without any makes no order service (issue 33, round 10).
  /** The next tick of each account with resting orders. */
  const ticks = new Map<string, TimerHandle>()

  /** Only an order still held by the store, not replaced by a reset or restore, and not final. */
  const current = (account: AccountState, order: OrderRecord) =>
    store.accounts.get(account.account.id) === account && account.orders.get(order.id) === order && (order.status === 'open' || order.status === 'partially_filled')

  const expired = (order: OrderRecord, at: number) => order.expires_at !== null && Date.parse(order.expires_at) <= at

  function tick(account: AccountState, at: number): void {
    const accountId = account.account.id
    const quotes = new Map<string, ScaledQuote>()
    const quoteOf = (pair: string): ScaledQuote => {
      let scaled = quotes.get(pair)
      if (!scaled) {
        const { bid, ask } = prices.quote(pair, at, accountId)
        quotes.set(pair, (scaled = { bid: scalePrice(bid), ask: scalePrice(ask) }))
      }
      return scaled
    }
    // The list is taken as the tick begins; `current` skips an order that something ended since.
    for (const order of account.orders.book.due(at, quoteOf)) {
      if (!current(account, order)) continue
      if (expired(order, at)) orders().expire(account, order)
      else orders().match(account, order, at)
    }
  }

  /** Keeps an account's tick timer while some order of it rests, and only then. */
  function sync(accountId: string): void {
    const account = store.accounts.get(accountId)
    const wanted = account !== undefined && account.orders.openCount() > 0
    const timer = ticks.get(accountId)
    if (wanted && !timer) arm(account)
    else if (!wanted && timer) {
      clock.cancel(timer)
      ticks.delete(accountId)
    }
  }

  function arm(account: AccountState): void {
    const accountId = account.account.id
    const now = clock.now(accountId)
    const next = (Math.floor(now / intervalMs) + 1) * intervalMs
    const handle = clock.schedule(next - now, () => {
      if (ticks.get(accountId) !== handle) return
      ticks.delete(accountId)
      if (store.accounts.get(accountId) !== account) return
      tick(account, handle.dueAt)
      sync(accountId)
    }, accountId)
    ticks.set(accountId, handle)
  }

  function scheduleExpiry(account: AccountState, order: OrderRecord): void {
    if (order.expires_at === null) return
    const accountId = account.account.id
    clock.schedule(Math.max(0, Date.parse(order.expires_at) - clock.now(accountId)), () => {
      const stored = account.orders.get(order.id)
      if (stored && current(account, stored)) orders().expire(account, stored)
    }, accountId)
  }

  /** After a restart on the data file or a restore (of everything, or of one account): the ticks and expiries of the orders that rest. */
  function resume(accountId?: string): void {
    const accounts = accountId === undefined ? [...store.accounts.values()] : [store.accounts.get(accountId)].filter((account) => account !== undefined)
    // A restore cancelled the timers of the accounts it replaced.
    for (const account of accounts) ticks.delete(account.account.id)
    if (accountId === undefined) ticks.clear()
    for (const account of accounts) {
      // An account that never had an order has nothing to resume: a start skips the order index's
      // lists for the default account (issue 33, round 10).
      if (account.orders.size === 0) continue
      for (const order of account.orders.open()) scheduleExpiry(account, order)
      sync(account.account.id)
    }
  }

  deps.bus.on('order', (notification) => {
    if (notification.event === 'order.created') {
      const account = store.accounts.get(notification.account_id)
      const order = account?.orders.get((notification.data as { id: string }).id)
      if (account && order) scheduleExpiry(account, order)
    }
    sync(notification.account_id)
  })
  deps.bus.on('state.restored', resume)
  // A reset cancelled the account's timers.
  deps.bus.on('account.reset', (accountId) => void ticks.delete(accountId))
  resume()

  return {
    /** How many accounts have a tick timer (some order of theirs rests). */
    ticking: () => ticks.size,
    close(): void {
      for (const timer of ticks.values()) clock.cancel(timer)
      ticks.clear()
    },
  }
}
