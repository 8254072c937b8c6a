import type { OrderRecord } from '../model/records.js'
import { scalePrice } from '../money.js'

/** A pair's bid and ask at one tick, scaled by 10^18 (`scalePrice`). */
export interface ScaledQuote {
  bid: bigint
  ask: bigint
}

interface Entry<K> {
  order: OrderRecord
  key: K
  live: boolean
}

/**
 * Entries kept sorted by key (then by age), so that those a price reaches are a prefix: found by a
 * binary search, read without looking at the rest. Additions wait in `pending` and are merged in
 * by the next read (one sort of the few added since, not of everything); removals only mark the
 * entry dead, and the dead are swept out once they are half of the run.
 */
class Run<K extends bigint | number> {
  private sorted: Entry<K>[] = []
  private pending: Entry<K>[] = []
  private dead = 0

  constructor(private readonly ascending: boolean) {}

  add(entry: Entry<K>): void {
    this.pending.push(entry)
  }

  remove(entry: Entry<K>): void {
    entry.live = false
    this.dead++
  }

  /** Pushes onto `out` the live orders of the prefix whose keys `reached` holds for. */
  prefix(reached: (key: K) => boolean, out: OrderRecord[]): void {
    this.settle()
    const { sorted } = this
    let lo = 0
    let hi = sorted.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (reached(sorted[mid]!.key)) lo = mid + 1
      else hi = mid
    }
    for (let i = 0; i < lo; i++) if (sorted[i]!.live) out.push(sorted[i]!.order)
  }

  private readonly before = (a: Entry<K>, b: Entry<K>): number => {
    if (a.key !== b.key) return (a.key < b.key) === this.ascending ? -1 : 1
    return a.order.seq - b.order.seq
  }

  private settle(): void {
    if (this.dead * 2 > this.sorted.length + this.pending.length) {
      this.sorted = this.sorted.filter((entry) => entry.live)
      this.pending = this.pending.filter((entry) => entry.live)
      this.dead = 0
    }
    if (this.pending.length === 0) return
    const added = this.pending.sort(this.before)
    this.pending = []
    const merged: Entry<K>[] = []
    let i = 0
    for (const entry of this.sorted) {
      while (i < added.length && this.before(added[i]!, entry) < 0) merged.push(added[i++]!)
      merged.push(entry)
    }
    while (i < added.length) merged.push(added[i++]!)
    this.sorted = merged
  }
}

interface PairRuns {
  /** Highest limit first: a tick's ask reaches a prefix of them. */
  buy: Run<bigint>
  /** Lowest limit first: a tick's bid reaches a prefix of them. */
  sell: Run<bigint>
  /** Orders without a limit (a market order never rests, but a hand-edited data file may hold one): every tick reaches them. */
  unlimited: Run<number>
}

/** What the book holds for an order, and the fields it was filed under. */
interface Held {
  side: Entry<bigint> | Entry<number>
  run: Run<bigint> | Run<number>
  expiry: Entry<number> | undefined
  pair: string
  sideName: string
  limit: string | null
  expires: string | null
}

const rests = (order: OrderRecord) => order.status === 'open' || order.status === 'partially_filled'

/**
 * One account's resting orders (`open`, `partially_filled`), filed so that a price tick finds the
 * few it concerns without looking at the others (CONTRACT.md sections 15 and 19): per pair, buys
 * by limit from the highest (a tick's ask reaches those at or above it) and sells from the lowest
 * (its bid reaches those at or below it), and the orders that expire by their `expires_at`.
 * Limits are compared scaled by 10^18, exactly as a fill compares them (`scalePrice`).
 */
export class RestingBook {
  private readonly held = new Map<OrderRecord, Held>()
  private readonly pairs = new Map<string, PairRuns>()
  private readonly expiring = new Run<number>(true)

  get size(): number {
    return this.held.size
  }

  /** After an order was added or changed (in place): files it while it rests, drops it once it does not. */
  sync(order: OrderRecord): void {
    const held = this.held.get(order)
    if (held && rests(order) && held.limit === order.limit_price && held.expires === order.expires_at && held.pair === order.pair && held.sideName === order.side) return
    if (held) {
      ;(held.run as Run<bigint | number>).remove(held.side)
      if (held.expiry) this.expiring.remove(held.expiry)
      this.held.delete(order)
    }
    if (rests(order)) this.file(order)
  }

  /**
   * The orders a tick at `at` must look at, oldest first: those whose limit the pair's price
   * reaches (ask ≤ limit for a buy, bid ≥ limit for a sell), and those whose `expires_at` is at or
   * before `at`. `quoteOf` is asked once per pair that has resting orders.
   */
  due(at: number, quoteOf: (pair: string) => ScaledQuote): OrderRecord[] {
    const out: OrderRecord[] = []
    for (const [pair, runs] of this.pairs) {
      const { bid, ask } = quoteOf(pair)
      runs.buy.prefix((limit) => limit >= ask, out)
      runs.sell.prefix((limit) => limit <= bid, out)
      runs.unlimited.prefix(() => true, out)
    }
    this.expiring.prefix((expiresAt) => expiresAt <= at, out)
    out.sort((a, b) => a.seq - b.seq)
    // An order can be both reached and expired: once is enough.
    return out.filter((order, i) => i === 0 || out[i - 1] !== order)
  }

  private file(order: OrderRecord): void {
    let runs = this.pairs.get(order.pair)
    if (!runs) this.pairs.set(order.pair, (runs = { buy: new Run(false), sell: new Run(true), unlimited: new Run(true) }))
    let side: Entry<bigint> | Entry<number>
    let run: Run<bigint> | Run<number>
    if (order.limit_price === null) {
      side = { order, key: order.seq, live: true }
      runs.unlimited.add(side)
      run = runs.unlimited
    } else {
      side = { order, key: scalePrice(order.limit_price), live: true }
      run = order.side === 'buy' ? runs.buy : runs.sell
      run.add(side)
    }
    let expiry: Entry<number> | undefined
    if (order.expires_at !== null) {
      const at = Date.parse(order.expires_at)
      // A date that does not parse never expires, as a tick's own comparison with it would have it.
      expiry = { order, key: Number.isNaN(at) ? Number.POSITIVE_INFINITY : at, live: true }
      this.expiring.add(expiry)
    }
    this.held.set(order, { side, run, expiry, pair: order.pair, sideName: order.side, limit: order.limit_price, expires: order.expires_at })
  }
}
