import { monotonicMs, type Clock, type TimerHandle } from '../clock.js'
import { priceFrame } from './messages.js'
import type { Outbox } from './outbox.js'
import type { PriceModel } from './prices.js'

/** Lets a reset that cancels by tag leave the ticker alone, and shows what the timer is. */
export const PRICE_TICK_TAG = 'stream:prices'

/**
 * The `prices` channel: who listens to which pair, and the tick that feeds them.
 *
 * Ticks fall on a grid of `intervalMs` of sandbox time (aligned on the epoch), so a manual clock
 * drives them. The clock task only notes that a tick is due; the tick itself runs right after the
 * clock has finished moving (setImmediate) and sends the quotes at the latest grid time. Advancing
 * the clock by an hour therefore computes and sends one tick, not 3,600. Each pair's quote is
 * computed and serialized once per tick and the same frame goes to every subscriber. The timer only
 * exists while someone listens.
 */
export interface PriceTicker {
  /** Adds pairs to a subscriber and returns the snapshot frames (the quotes now) to send it. */
  subscribe(subscriber: Outbox, pairs: readonly string[]): Buffer[]
  unsubscribe(subscriber: Outbox, pairs: readonly string[]): void
  /** Pairs the subscriber listens to, in fixture order. */
  pairsOf(subscriber: Outbox): string[]
  /** Re-arms the tick if its timer was cancelled from outside (a reset that cancelled every timer). */
  repair(): void
  stats(): TickerStats
  close(): void
}

export interface TickerStats {
  subscriptions: number
  ticks: number
  lastTickAt: string | null
  /** Total ms spent computing and sending ticks (real time), for the benchmark. */
  tickWorkMs: number
  /** Total ms by which ticks started after their grid time (sandbox time). */
  tickLateMs: number
}

export function createPriceTicker(deps: { clock: Clock; model: PriceModel; intervalMs: number }): PriceTicker {
  const { clock, model, intervalMs } = deps
  const pairsBySubscriber = new Map<Outbox, Set<string>>()
  /** How many subscribers each pair has: a tick computes only the pairs someone listens to. */
  const listenerCount = new Map<string, number>(model.pairs.map((pair) => [pair, 0]))
  let subscriptions = 0
  let timer: TimerHandle | undefined
  let tickQueued = false
  let lastTickAt = Number.NEGATIVE_INFINITY
  let ticks = 0
  let tickWorkMs = 0
  let tickLateMs = 0
  let closed = false

  function arm(): void {
    if (timer || tickQueued || closed || subscriptions === 0) return
    const now = clock.now()
    const next = (Math.floor(now / intervalMs) + 1) * intervalMs
    const handle: TimerHandle = clock.schedule(next - now, () => onDue(handle), PRICE_TICK_TAG)
    timer = handle
  }

  function onDue(handle: TimerHandle): void {
    // A timer that `repair` gave up on may still run late; only the current one counts.
    if (handle !== timer) return
    timer = undefined
    tickQueued = true
    // Runs once the clock has stopped moving: `advance(1 hour)` ends here with a single tick.
    setImmediate(tick)
  }

  function tick(): void {
    tickQueued = false
    if (closed) return
    const now = clock.now()
    const at = Math.floor(now / intervalMs) * intervalMs
    if (at > lastTickAt && subscriptions > 0) {
      const started = monotonicMs()
      lastTickAt = at
      ticks++
      broadcast(at)
      tickWorkMs += monotonicMs() - started
      tickLateMs += now - at
    }
    arm()
  }

  function broadcast(at: number): void {
    const frames = new Map<string, Buffer>()
    for (const pair of model.pairs) {
      if (listenerCount.get(pair)! > 0) frames.set(pair, priceFrame(model.quote(pair, at)))
    }
    // One subscriber at a time, so that its frames of this tick leave in a single write.
    for (const [subscriber, pairs] of pairsBySubscriber) {
      subscriber.batch(() => {
        for (const [pair, frame] of frames) if (pairs.has(pair)) subscriber.sendPrice(pair, frame)
      })
    }
  }

  function cancelIfIdle(): void {
    if (subscriptions > 0 || !timer) return
    clock.cancel(timer)
    timer = undefined
  }

  return {
    subscribe(subscriber, pairs) {
      const now = clock.now()
      const frames: Buffer[] = []
      let subscribed = pairsBySubscriber.get(subscriber)
      if (!subscribed) pairsBySubscriber.set(subscriber, (subscribed = new Set()))
      for (const pair of pairs) {
        if (!subscribed.has(pair)) {
          subscribed.add(pair)
          listenerCount.set(pair, listenerCount.get(pair)! + 1)
          subscriptions++
        }
        frames.push(priceFrame(model.quote(pair, now)))
      }
      arm()
      return frames
    },
    unsubscribe(subscriber, pairs) {
      const subscribed = pairsBySubscriber.get(subscriber)
      for (const pair of pairs) {
        subscriber.dropPrice(pair)
        if (!subscribed?.delete(pair)) continue
        listenerCount.set(pair, listenerCount.get(pair)! - 1)
        subscriptions--
      }
      if (subscribed?.size === 0) pairsBySubscriber.delete(subscriber)
      cancelIfIdle()
    },
    pairsOf: (subscriber) => model.pairs.filter((pair) => pairsBySubscriber.get(subscriber)?.has(pair)),
    repair() {
      // A timer more than one interval overdue did not run: someone cancelled it.
      if (timer && clock.now() > timer.dueAt + intervalMs) timer = undefined
      arm()
    },
    stats: () => ({ subscriptions, ticks, lastTickAt: Number.isFinite(lastTickAt) ? new Date(lastTickAt).toISOString() : null, tickWorkMs, tickLateMs }),
    close() {
      closed = true
      if (timer) clock.cancel(timer)
      timer = undefined
      pairsBySubscriber.clear()
      for (const pair of model.pairs) listenerCount.set(pair, 0)
      subscriptions = 0
    },
  }
}
