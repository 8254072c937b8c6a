import type { Bus } from '../events/bus.js'
import type { OrderNotification } from '../model/events.js'
import { orderFrame } from './messages.js'
import type { Outbox } from './outbox.js'

/**
 * The `orders` channel (CONTRACT.md sections 15 and 19): an account's order events, each with the
 * account's `sequence`, to that account's subscribers only, optionally for some pairs.
 */
export interface OrderFeed {
  /** No pairs: every pair. Subscribing again replaces the filter. */
  subscribe(subscriber: Outbox, accountId: string, pairs: readonly string[] | undefined): void
  unsubscribe(subscriber: Outbox): void
  close(): void
}

interface Subscription {
  accountId: string
  pairs: Set<string> | undefined
}

export function createOrderFeed(bus: Bus): OrderFeed {
  const byAccount = new Map<string, Map<Outbox, Subscription>>()

  function onOrder(notification: OrderNotification): void {
    const subscribers = byAccount.get(notification.account_id)
    if (!subscribers) return
    let frame: Buffer | undefined
    for (const [subscriber, sub] of subscribers) {
      if (sub.pairs && !sub.pairs.has(notification.pair)) continue
      frame ??= orderFrame(notification)
      subscriber.send(frame)
    }
  }
  bus.on('order', onOrder)

  const feed: OrderFeed = {
    subscribe(subscriber, accountId, pairs) {
      feed.unsubscribe(subscriber)
      let subscribers = byAccount.get(accountId)
      if (!subscribers) byAccount.set(accountId, (subscribers = new Map()))
      subscribers.set(subscriber, { accountId, pairs: pairs && new Set(pairs) })
    },
    unsubscribe(subscriber) {
      for (const [accountId, subscribers] of byAccount) {
        if (subscribers.delete(subscriber) && subscribers.size === 0) byAccount.delete(accountId)
      }
    },
    close() {
      bus.off('order', onOrder)
      byAccount.clear()
    },
  }
  return feed
}
