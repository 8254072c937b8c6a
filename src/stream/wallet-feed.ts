import type { Bus } from '../events/bus.js'
import type { WalletNotification } from '../model/events.js'
import { walletFrame } from './messages.js'
import type { Outbox } from './outbox.js'

/**
 * The `wallets` channel: routes the ledger's wallet notifications to the connections of the account
 * that owns the wallet, never to another account. A subscription is "every wallet of the account"
 * (including wallets created later) or a set of wallet ids; unsubscribing some ids from "every
 * wallet" excludes them.
 */
export interface WalletFeed {
  /** No ids: every wallet of the account. */
  subscribe(subscriber: Outbox, accountId: string, walletIds: readonly string[] | undefined): void
  /** No ids: stop listening to wallets at all. */
  unsubscribe(subscriber: Outbox, walletIds: readonly string[] | undefined): void
  close(): void
}

interface Subscription {
  accountId: string
  all: boolean
  ids: Set<string>
  excluded: Set<string>
}

const wants = (sub: Subscription, walletId: string) => (sub.all ? !sub.excluded.has(walletId) : sub.ids.has(walletId))

export function createWalletFeed(bus: Bus): WalletFeed {
  const byAccount = new Map<string, Map<Outbox, Subscription>>()
  const bySubscriber = new Map<Outbox, Subscription>()

  function onWallet(notification: WalletNotification): void {
    const subscribers = byAccount.get(notification.account_id)
    if (!subscribers) return
    let frame: Buffer | undefined
    for (const [subscriber, sub] of subscribers) {
      if (!wants(sub, notification.wallet_id)) continue
      frame ??= walletFrame(notification)
      subscriber.send(frame)
    }
  }
  // On the bus only while someone subscribes: the ledger presents a wallet for its notification only
  // when something listens (publisher.ts), and every fill of an order moves two wallets.
  let listening = false
  function listen(wanted: boolean): void {
    if (wanted === listening) return
    listening = wanted
    if (wanted) bus.on('wallet', onWallet)
    else bus.off('wallet', onWallet)
  }

  function drop(subscriber: Outbox): void {
    const sub = bySubscriber.get(subscriber)
    if (!sub) return
    bySubscriber.delete(subscriber)
    const subscribers = byAccount.get(sub.accountId)!
    subscribers.delete(subscriber)
    if (subscribers.size === 0) byAccount.delete(sub.accountId)
    listen(bySubscriber.size > 0)
  }

  return {
    subscribe(subscriber, accountId, walletIds) {
      let sub = bySubscriber.get(subscriber)
      if (!sub) {
        sub = { accountId, all: false, ids: new Set(), excluded: new Set() }
        bySubscriber.set(subscriber, sub)
        if (!byAccount.has(accountId)) byAccount.set(accountId, new Map())
        byAccount.get(accountId)!.set(subscriber, sub)
        listen(true)
      }
      if (walletIds === undefined) {
        sub.all = true
        sub.ids.clear()
        sub.excluded.clear()
      } else if (sub.all) {
        for (const id of walletIds) sub.excluded.delete(id)
      } else {
        for (const id of walletIds) sub.ids.add(id)
      }
    },
    unsubscribe(subscriber, walletIds) {
      const sub = bySubscriber.get(subscriber)
      if (!sub) return
      if (walletIds === undefined) return drop(subscriber)
      for (const id of walletIds) {
        if (sub.all) sub.excluded.add(id)
        else sub.ids.delete(id)
      }
      if (!sub.all && sub.ids.size === 0) drop(subscriber)
    },
    close() {
      listen(false)
      byAccount.clear()
      bySubscriber.clear()
    },
  }
}
