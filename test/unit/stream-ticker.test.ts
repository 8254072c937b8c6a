import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createClock } from '../../src/clock.js'
import { frameText } from '../../src/stream/frames.js'
import type { Outbox, PriceBatch } from '../../src/stream/outbox.js'
import { loadPriceModel, type PriceModel } from '../../src/market/prices.js'
import { createPriceTicker, MAX_SENT_TICKS_PER_ADVANCE } from '../../src/stream/ticker.js'

const START = Date.parse('2026-01-01T00:00:00.000Z')
const model = loadPriceModel(join(import.meta.dirname, '../../fixtures'), 'ticker-test')
const settle = () => new Promise<void>((resolve) => setImmediate(resolve))

/** Counts the quotes the ticker asks the model for. */
function countingModel(inner: PriceModel) {
  const counter = { quotes: 0 }
  const wrapped: PriceModel = { ...inner, quote: (pair, at) => (counter.quotes++, inner.quote(pair, at)) }
  return { model: wrapped, counter }
}

function recordingOutbox() {
  const frames: Array<{ pair: string; frame: Buffer }> = []
  const batches: PriceBatch[] = []
  const outbox: Outbox = {
    sendPrices(batch) {
      batches.push(batch)
      batch.pairs.forEach((pair, index) => frames.push({ pair, frame: batch.frames[index]! }))
    },
    batch: (send) => send(),
    dropPrice: () => {},
    send: () => {},
    stats: () => ({ bufferedBytes: 0, heldPrices: 0, droppedPrices: 0, congested: false }),
  }
  return { outbox, frames, batches, timestamps: () => frames.map((f) => JSON.parse(frameText(f.frame)).timestamp as string) }
}

function setup(intervalMs = 1000) {
  const clock = createClock({ mode: 'manual', start: START })
  const { model: counted, counter } = countingModel(model)
  const ticker = createPriceTicker({ clock, model: counted, intervalMs })
  const advance = async (ms: number) => {
    await clock.advance(ms)
    await settle()
  }
  return { clock, ticker, counter, advance }
}

describe('price ticker', () => {
  it('sends only the last 600 ticks, in time order, when the clock jumps a year, and stays fast', async () => {
    const { ticker, counter, advance } = setup()
    const a = recordingOutbox()
    ticker.subscribe(a.outbox, ['ETH/USD', 'SOL/USD'])
    counter.quotes = 0
    a.frames.length = 0
    const started = performance.now()
    const year = 365 * 24 * 3_600_000
    await advance(year)
    expect(performance.now() - started).toBeLessThan(1000)
    expect(counter.quotes).toBe(2 * MAX_SENT_TICKS_PER_ADVANCE)
    expect(ticker.stats().ticks).toBe(MAX_SENT_TICKS_PER_ADVANCE)
    const expected = Array.from({ length: MAX_SENT_TICKS_PER_ADVANCE }, (_, k) => new Date(START + year - (MAX_SENT_TICKS_PER_ADVANCE - 1 - k) * 1000).toISOString())
    expect(a.timestamps()).toEqual(expected.flatMap((at) => [at, at]))
    expect(a.frames.map((f) => f.pair).slice(0, 4)).toEqual(['ETH/USD', 'SOL/USD', 'ETH/USD', 'SOL/USD'])
  })

  it('sends one tick per interval of an advance, every pair\'s tick k before any pair\'s tick k+1', async () => {
    const { ticker, advance } = setup()
    const a = recordingOutbox()
    ticker.subscribe(a.outbox, ['ETH/USD', 'SOL/USD'])
    a.frames.length = 0
    await advance(3000)
    const at = (ms: number) => new Date(START + ms).toISOString()
    expect(a.frames.map((f, i) => [f.pair, a.timestamps()[i]])).toEqual([
      ['ETH/USD', at(1000)], ['SOL/USD', at(1000)],
      ['ETH/USD', at(2000)], ['SOL/USD', at(2000)],
      ['ETH/USD', at(3000)], ['SOL/USD', at(3000)],
    ])
  })

  it('runs ticks in time order with the other timers of an advance', async () => {
    const { clock, ticker, advance } = setup()
    const order: string[] = []
    ticker.subscribe(recordingOutbox().outbox, ['ETH/USD'])
    clock.schedule(1500, () => void order.push(`timer 1500 after ${ticker.stats().ticks} ticks`))
    await advance(2000)
    order.push(`${ticker.stats().ticks} ticks`)
    expect(order).toEqual(['timer 1500 after 1 ticks', '2 ticks'])
  })

  it('shares one serialized frame per pair among all subscribers', async () => {
    const { ticker, advance } = setup()
    const a = recordingOutbox()
    const b = recordingOutbox()
    ticker.subscribe(a.outbox, ['ETH/USD'])
    ticker.subscribe(b.outbox, ['ETH/USD', 'SOL/USD'])
    await advance(1000)
    const fromA = a.frames.at(-1)!
    const fromB = b.frames.find((f) => f.pair === 'ETH/USD')!
    expect(b.frames).toHaveLength(2)
    expect(fromA.frame).toBe(fromB.frame)
  })

  it('builds one buffer of a tick\'s frames for all the subscribers with the same pairs', async () => {
    const { ticker, advance } = setup()
    const [a, b, c] = [recordingOutbox(), recordingOutbox(), recordingOutbox()]
    ticker.subscribe(a.outbox, ['ETH/USD', 'SOL/USD'])
    ticker.subscribe(b.outbox, ['SOL/USD'])
    ticker.subscribe(b.outbox, ['ETH/USD'])
    ticker.subscribe(c.outbox, ['ETH/USD'])
    await advance(1000)
    const [fromA, fromB, fromC] = [a, b, c].map((r) => r.batches.at(-1)!)
    expect(fromB!.joined).toBe(fromA!.joined)
    expect(fromA!.joined).toEqual(Buffer.concat(fromA!.frames))
    expect(fromC!.joined).toBe(fromA!.frames[0])
    expect(fromA!.pairs).toEqual(['ETH/USD', 'SOL/USD'])
  })

  it('sends each subscriber its pairs in fixture order', async () => {
    const { ticker, advance } = setup()
    const a = recordingOutbox()
    ticker.subscribe(a.outbox, ['ETH/SOL', 'USDC/USD', 'ETH/USD'])
    a.frames.length = 0
    await advance(1000)
    expect(a.frames.map((f) => f.pair)).toEqual(['ETH/USD', 'USDC/USD', 'ETH/SOL'])
  })

  it('keeps ticks on the epoch-aligned grid whatever the clock steps are', async () => {
    const { ticker, advance } = setup(1000)
    const a = recordingOutbox()
    await advance(300)
    ticker.subscribe(a.outbox, ['ETH/USD'])
    a.frames.length = 0
    // 700, 1100 (tick 1000), 1500, 3000 (ticks 2000 and 3000, each at its own time).
    for (const step of [400, 400, 400, 1500]) await advance(step)
    expect(a.timestamps()).toEqual([1000, 2000, 3000].map((ms) => new Date(START + ms).toISOString()))
  })

  it('re-arms after every timer was cancelled from outside, without doubling ticks', async () => {
    const { clock, ticker, advance } = setup()
    const a = recordingOutbox()
    ticker.subscribe(a.outbox, ['ETH/USD'])
    clock.cancelAccount()
    await advance(5000)
    expect(ticker.stats().ticks).toBe(0)
    ticker.repair()
    a.frames.length = 0
    for (let i = 0; i < 3; i++) await advance(1000)
    expect(a.timestamps()).toEqual([6000, 7000, 8000].map((ms) => new Date(START + ms).toISOString()))
    expect(clock.pendingTimers()).toBe(1)
  })

  it('goes back on the grid when the clock is set backwards and realigned (a restore)', async () => {
    const { clock, ticker, advance } = setup()
    const a = recordingOutbox()
    ticker.subscribe(a.outbox, ['ETH/USD'])
    await advance(5000)
    clock.setNow(START + 1500)
    ticker.realign()
    a.frames.length = 0
    await advance(1500)
    expect(a.timestamps()).toEqual([2000, 3000].map((ms) => new Date(START + ms).toISOString()))
    expect(clock.pendingTimers()).toBe(1)
  })

  it('drops its timer when the last pair is unsubscribed', async () => {
    const { clock, ticker } = setup()
    const a = recordingOutbox()
    ticker.subscribe(a.outbox, ['ETH/USD', 'SOL/USD'])
    expect(clock.pendingTimers()).toBe(1)
    ticker.unsubscribe(a.outbox, ['ETH/USD'])
    expect(clock.pendingTimers()).toBe(1)
    ticker.unsubscribe(a.outbox, ['SOL/USD'])
    expect(clock.pendingTimers()).toBe(0)
    expect(ticker.pairsOf(a.outbox)).toEqual([])
  })
})
