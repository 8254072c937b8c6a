import type { Clock } from '../clock.js'
import type { Bus } from '../events/bus.js'
import type { OrderService } from '../ledger/orders.js'
import type { PriceModel } from '../market/prices.js'
import type { OrderRecord } from '../model/records.js'
import { scalePrice } from '../money.js'
import type { AccountState } from '../store/account-state.js'
import type { ScaledQuote } from '../store/resting-book.js'
import type { Store } from '../store/store.js'

/**
 * Resting limit orders against the price feed (CONTRACT.md sections 15 and 19): on every price tick
 * of the sandbox clock (also the ticks of a long advance that the stream does not send), the open
 * orders that tick's bid or ask reaches fill, oldest first; a `gtd` order expires at the first
 * instant the clock reaches its `expires_at`. A tick looks only at those orders, which each
 * account's book of resting orders (store/resting-book.ts) finds by limit price, not at the orders
 * that rest on. The tick hook is only set while some order rests, so that a sandbox without orders
 * advances as fast as before.
 */
export function createOrderMatching(deps: { store: Store; clock: Clock; bus: Bus; orders: OrderService; prices: PriceModel; onTick: (hook: (at: number) => void) => () => void }) {
  const { store, clock, orders, prices } = deps
  let removeHook: (() => void) | undefined

  /** Only an order still held by the store, not replaced by a reset or restore, and not final. */
  const current = (account: AccountState, order: OrderRecord) =>
    store.accounts.get(account.account.id) === account && account.orders.get(order.id) === order && (order.status === 'open' || order.status === 'partially_filled')

  const expired = (order: OrderRecord, at: number) => order.expires_at !== null && Date.parse(order.expires_at) <= at

  function tick(at: number): void {
    const quotes = new Map<string, ScaledQuote>()
    const quoteOf = (pair: string): ScaledQuote => {
      let scaled = quotes.get(pair)
      if (!scaled) {
        const { bid, ask } = prices.quote(pair, at)
        quotes.set(pair, (scaled = { bid: scalePrice(bid), ask: scalePrice(ask) }))
      }
      return scaled
    }
    for (const account of store.accounts.values()) {
      if (account.orders.book.size === 0) continue
      // The list is taken as the tick begins; `current` skips an order that something ended since.
      for (const order of account.orders.book.due(at, quoteOf)) {
        if (!current(account, order)) continue
        if (expired(order, at)) orders.expire(account, order)
        else orders.match(account, order, at)
      }
    }
  }

  function resting(): boolean {
    for (const account of store.accounts.values()) if (account.orders.openCount() > 0) return true
    return false
  }

  function sync(): void {
    const wanted = resting()
    if (wanted && !removeHook) removeHook = deps.onTick(tick)
    else if (!wanted && removeHook) {
      removeHook()
      removeHook = undefined
    }
  }

  function scheduleExpiry(account: AccountState, order: OrderRecord): void {
    if (order.expires_at === null) return
    clock.schedule(Math.max(0, Date.parse(order.expires_at) - clock.now()), () => {
      const stored = account.orders.get(order.id)
      if (stored && current(account, stored)) orders.expire(account, stored)
    }, account.account.id)
  }

  /** After a restart on the data file or a restore: the expiries of the orders that rest. */
  function resume(): void {
    for (const account of store.accounts.values()) for (const order of account.orders.open()) scheduleExpiry(account, order)
    sync()
  }

  deps.bus.on('order', (notification) => {
    if (notification.event === 'order.created') {
      const account = store.accounts.get(notification.account_id)
      const order = account?.orders.get((notification.data as { id: string }).id)
      if (account && order) scheduleExpiry(account, order)
    }
    sync()
  })
  deps.bus.on('state.restored', resume)
  deps.bus.on('account.reset', sync)
  resume()

  return {
    /** Whether the tick hook is set (some order rests). */
    active: () => removeHook !== undefined,
    close(): void {
      removeHook?.()
      removeHook = undefined
    },
  }
}
