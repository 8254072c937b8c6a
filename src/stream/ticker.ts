import type { Clock, TimerHandle } from '../clock.js'
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
  stats(): { subscriptions: number; ticks: number; lastTickAt: string | null }
  close(): void
}

export function createPriceTicker(deps: { clock: Clock; model: PriceModel; intervalMs: number }): PriceTicker {
  const { clock, model, intervalMs } = deps
  const listeners = new Map<string, Set<Outbox>>(model.pairs.map((pair) => [pair, new Set()]))
  let subscriptions = 0
  let timer: TimerHandle | undefined
  let tickQueued = false
  let lastTickAt = Number.NEGATIVE_INFINITY
  let ticks = 0
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
    const at = Math.floor(clock.now() / intervalMs) * intervalMs
    if (at > lastTickAt && subscriptions > 0) {
      lastTickAt = at
      ticks++
      broadcast(at)
    }
    arm()
  }

  function broadcast(at: number): void {
    for (const pair of model.pairs) {
      const subscribers = listeners.get(pair)!
      if (subscribers.size === 0) continue
      const frame = priceFrame(model.quote(pair, at))
      for (const subscriber of subscribers) subscriber.sendPrice(pair, frame)
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
      for (const pair of pairs) {
        const subscribers = listeners.get(pair)!
        if (!subscribers.has(subscriber)) {
          subscribers.add(subscriber)
          subscriptions++
        }
        frames.push(priceFrame(model.quote(pair, now)))
      }
      arm()
      return frames
    },
    unsubscribe(subscriber, pairs) {
      for (const pair of pairs) {
        if (listeners.get(pair)!.delete(subscriber)) subscriptions--
        subscriber.dropPrice(pair)
      }
      cancelIfIdle()
    },
    pairsOf: (subscriber) => model.pairs.filter((pair) => listeners.get(pair)!.has(subscriber)),
    repair() {
      // A timer more than one interval overdue did not run: someone cancelled it.
      if (timer && clock.now() > timer.dueAt + intervalMs) timer = undefined
      arm()
    },
    stats: () => ({ subscriptions, ticks, lastTickAt: Number.isFinite(lastTickAt) ? new Date(lastTickAt).toISOString() : null }),
    close() {
      closed = true
      if (timer) clock.cancel(timer)
      timer = undefined
      for (const subscribers of listeners.values()) subscribers.clear()
      subscriptions = 0
    },
  }
}
