import { monotonicMs, type Clock, type TimerHandle } from '../clock.js'
import { priceFrame } from './messages.js'
import { priceBatch, type Outbox, type PriceBatch } from './outbox.js'
import { createPriceGroups } from './price-groups.js'
import type { PriceModel } from '../market/prices.js'
import { isoOf } from '../date-text.js'

/** At most this many ticks of one advance are sent to subscribers: the last ones (CONTRACT.md section 14). */
export const MAX_SENT_TICKS_PER_ADVANCE = 600

/**
 * The `prices` channel: who listens to which pair, and the tick that feeds them.
 *
 * Ticks fall on a grid of `intervalMs` of sandbox time (aligned on the epoch), so a manual clock
 * drives them: each tick is a clock timer that runs at its own time, in order with everything else
 * due, so an advance of 3 s sends three ticks per pair, each with its own timestamp. Of one advance
 * only the last 600 ticks are sent; earlier ones are skipped, so advancing by a year stays fast
 * (resting orders have ticks of their own, on their account's clock: lifecycle/order-matching.ts).
 * Each pair's quote is computed and framed
 * once per tick, and subscribers with the same pairs share one buffer of the tick's frames, written
 * as it is to each of them (`price-groups.ts`, `outbox.ts`). The timer only exists while someone
 * listens.
 */
export interface PriceTicker {
  /**
   * Adds pairs to a subscriber and returns the snapshot (the quotes now, in the order asked) to send
   * it. A subscriber of an account gets that account's price pins (CONTRACT.md section 24).
   */
  subscribe(subscriber: Outbox, pairs: readonly string[], accountId?: string): PriceBatch
  unsubscribe(subscriber: Outbox, pairs: readonly string[]): void
  /** Pairs the subscriber listens to, in fixture order. */
  pairsOf(subscriber: Outbox): string[]
  /** Re-arms the tick if its timer was cancelled from outside (a reset that cancelled every timer). */
  repair(): void
  /** Puts the tick back on the grid after the clock was set (a restore), also backwards. */
  realign(): void
  stats(): TickerStats
  close(): void
}

export interface TickerStats {
  subscriptions: number
  ticks: number
  lastTickAt: string | null
  /** Total ms spent computing and sending ticks (real time), for the benchmark. */
  tickWorkMs: number
  /** Total ms by which real-time ticks ran after their grid time (sandbox time; 0 under a manual clock). */
  tickLateMs: number
}

export function createPriceTicker(deps: { clock: Clock; model: PriceModel; intervalMs: number }): PriceTicker {
  const { clock, model, intervalMs } = deps
  const groups = createPriceGroups(model.pairs)
  /** How many subscribers each pair has: a tick computes only the pairs someone listens to. */
  const listenerCount = new Map<string, number>(model.pairs.map((pair) => [pair, 0]))
  let subscriptions = 0
  /** The account of each subscriber that has one: an account with pins of its own gets frames of its own. */
  const accounts = new Map<Outbox, string>()
  let timer: TimerHandle | undefined
  let lastTickAt = Number.NEGATIVE_INFINITY
  let ticks = 0
  let tickWorkMs = 0
  let tickLateMs = 0
  let closed = false

  /** Schedules the next grid tick after now, or the first one at or after `notBefore`. */
  function arm(notBefore = Number.NEGATIVE_INFINITY): void {
    if (timer || closed || subscriptions === 0) return
    const now = clock.now()
    const next = Math.max((Math.floor(now / intervalMs) + 1) * intervalMs, Math.ceil(notBefore / intervalMs) * intervalMs)
    const handle: TimerHandle = clock.schedule(next - now, () => onDue(handle))
    timer = handle
  }

  function onDue(handle: TimerHandle): void {
    // A timer that `repair` gave up on may still run late; only the current one counts.
    if (handle !== timer) return
    timer = undefined
    const at = handle.dueAt
    // The clock runs everything due up to `until` (the end of an advance): the last 600 ticks before it are sent.
    const until = clock.dueUntil() ?? at
    const firstSent = (Math.floor(until / intervalMs) - MAX_SENT_TICKS_PER_ADVANCE + 1) * intervalMs
    const sent = at >= firstSent
    // Re-armed first, so that a failing send cannot stop the ticks. Unsent ticks are skipped.
    arm(sent ? undefined : firstSent)
    if (at <= lastTickAt) return
    lastTickAt = at
    if (sent && subscriptions > 0) {
      const started = monotonicMs()
      ticks++
      broadcast(at)
      tickWorkMs += monotonicMs() - started
      // A real-time wake-up runs what is due up to its own now: how far behind the grid it woke.
      if (clock.mode === 'real') tickLateMs += until - at
    }
  }

  function broadcast(at: number): void {
    const frames = new Map<string, Buffer>()
    for (const pair of model.pairs) {
      if (listenerCount.get(pair)! > 0) frames.set(pair, priceFrame(model.quote(pair, at)))
    }
    for (const group of groups.all()) {
      const batch = priceBatch(group.pairs, group.pairs.map((pair) => frames.get(pair)!))
      for (const subscriber of group.members) {
        const accountId = accounts.get(subscriber)
        subscriber.sendPrices(accountId !== undefined && model.hasOwnPins(accountId) ? batchAt(group.pairs, at, accountId) : batch)
      }
    }
  }

  function batchAt(pairs: readonly string[], at: number, accountId: string | undefined): PriceBatch {
    return priceBatch(pairs, pairs.map((pair) => priceFrame(model.quote(pair, at, accountId))))
  }

  function cancelIfIdle(): void {
    if (subscriptions > 0 || !timer) return
    clock.cancel(timer)
    timer = undefined
  }

  return {
    subscribe(subscriber, pairs, accountId) {
      for (const pair of groups.add(subscriber, pairs)) {
        listenerCount.set(pair, listenerCount.get(pair)! + 1)
        subscriptions++
      }
      if (accountId !== undefined) accounts.set(subscriber, accountId)
      arm()
      return batchAt(pairs, clock.now(), accountId)
    },
    unsubscribe(subscriber, pairs) {
      for (const pair of pairs) subscriber.dropPrice(pair)
      for (const pair of groups.remove(subscriber, pairs)) {
        listenerCount.set(pair, listenerCount.get(pair)! - 1)
        subscriptions--
      }
      if (groups.pairsOf(subscriber).length === 0) accounts.delete(subscriber)
      cancelIfIdle()
    },
    pairsOf: (subscriber) => [...groups.pairsOf(subscriber)],
    repair() {
      // A timer more than one interval overdue did not run: someone cancelled it.
      if (timer && clock.now() > timer.dueAt + intervalMs) timer = undefined
      arm()
    },
    realign() {
      if (timer) clock.cancel(timer)
      timer = undefined
      lastTickAt = Number.NEGATIVE_INFINITY
      arm()
    },
    stats: () => ({ subscriptions, ticks, lastTickAt: Number.isFinite(lastTickAt) ? isoOf(lastTickAt) : null, tickWorkMs, tickLateMs }),
    close() {
      closed = true
      if (timer) clock.cancel(timer)
      timer = undefined
      groups.clear()
      for (const pair of model.pairs) listenerCount.set(pair, 0)
      subscriptions = 0
    },
  }
}
