import { describe, expect, it } from 'vitest'
import { EventRing } from '../../src/events/event-ring.js'
import { PublishedEvent } from '../../src/events/publisher.js'
import type { SandboxEvent } from '../../src/model/events.js'

/** An event whose text is about `size` bytes, with a non-ASCII character to count bytes, not characters. */
function eventOf(n: number, size = 100): SandboxEvent {
  return { id: `evt_${n}`, object: 'event', type: n % 2 ? 'payment.created' : 'payment.failed', account_id: 'acc_1', created_at: '2026-01-01T00:00:00.000Z', data: { object: { id: `pay_${n}`, note: `é${'x'.repeat(size)}` } } } as unknown as SandboxEvent
}

/** `eventOf(n)` as the publisher makes it (its keys in SandboxEvent's order): what `pushPublished` keeps. */
function publishedOf(n: number, size = 100): SandboxEvent {
  const { id, type, created_at: createdAt, account_id: accountId, data } = eventOf(n, size)
  return new PublishedEvent(id, type, createdAt, accountId, data.object)
}

function fill(ring: EventRing, from: number, to: number, size?: number): void {
  for (let n = from; n <= to; n++) {
    // Every third as the event log keeps a payment's event: its time and its object's text.
    if (n % 3 === 1) ring.pushPublished(n, publishedOf(n, size), JSON.stringify(eventOf(n, size).data.object), `pay_${n}`)
    else ring.push(n, eventOf(n, size), JSON.stringify(eventOf(n, size)), `pay_${n}`)
  }
}

/** The kept events as JSON (a published event comes back with its keys in its order, as a plain object). */
const kept = (ring: EventRing) => Array.from({ length: ring.size }, (_, i) => JSON.stringify(ring.eventAt(i)))
const jsonOf = (n: number) => JSON.stringify(n % 3 === 1 ? publishedOf(n) : eventOf(n))

describe('EventRing', () => {
  it('gives back each event as it was pushed, oldest first, through growth and wrapping', () => {
    const ring = new EventRing(300, 'acc_1')
    fill(ring, 1, 1000)
    expect(ring.size).toBe(300)
    expect(ring.dropped).toBe(700)
    expect(kept(ring)).toEqual(Array.from({ length: 300 }, (_, i) => jsonOf(701 + i)))
    expect([ring.seqAt(0), ring.typeAt(0), ring.objectIdAt(0)]).toEqual([701, 'payment.created', 'pay_701'])
  })

  it('keeps a published event as its time and its object’s text, and gives back the same JSON; a time that is not short ASCII whole', () => {
    const ring = new EventRing(10, 'acc_"\u0001')
    const object = { id: 'pay_1', note: '\u00e9\u20ac\ud83d\ude00 \ud800x"\n' }
    const times = ['2026-01-01T00:00:00.000Z', '+275760-09-13T00:00:00.000Z', 'a"\\\u0001', '\u00e9t\u00e9', '', 'x'.repeat(256)]
    const events = times.map((time, i) => new PublishedEvent(`evt_${i}"`, 'payment.created', time, 'acc_"\u0001', object))
    for (const [i, event] of events.entries()) ring.pushPublished(i + 1, event, JSON.stringify(object), 'pay_1')
    expect(kept(ring)).toEqual(events.map((event) => JSON.stringify(event)))
    // The head is not among the bytes kept for the clock's time: its time and the object's text are.
    const lengths = (ring as unknown as { lengths: Uint32Array }).lengths
    expect(lengths[0]).toBe(24 + Buffer.byteLength(JSON.stringify(object)))
  })

  it('finds an event by id only while it is kept, and the first event after a sequence number', () => {
    const ring = new EventRing(10, 'acc_1')
    fill(ring, 1, 25)
    expect(ring.indexOf('evt_15')).toBeUndefined()
    expect(ring.indexOf('evt_16')).toBe(0)
    expect(ring.indexOf('evt_25')).toBe(9)
    expect(ring.firstAfter(0)).toBe(0)
    expect(ring.firstAfter(20)).toBe(5)
    expect(ring.firstAfter(25)).toBe(10)
  })

  it('keeps one event with a limit of 1, and an event larger than any segment', () => {
    const ring = new EventRing(1, 'acc_1')
    fill(ring, 1, 3)
    fill(ring, 4, 4, 3 * 1024 * 1024)
    expect(ring.size).toBe(1)
    expect(kept(ring)).toEqual([JSON.stringify(publishedOf(4, 3 * 1024 * 1024))])
    fill(ring, 5, 5)
    expect(kept(ring)).toEqual([jsonOf(5)])
  })

  it('lets go of the segments of dropped events: memory follows what is kept, not what went through', () => {
    const ring = new EventRing(100, 'acc_1')
    fill(ring, 1, 20_000, 1000)
    const segments = (ring as unknown as { segments: Array<{ bytes: Buffer }> }).segments
    const bytes = segments.reduce((sum, segment) => sum + segment.bytes.length, 0)
    // 100 events of about 1 KB: a segment or two (they double up to 1 MB), never the 20 MB written.
    expect(bytes).toBeLessThanOrEqual(2 * 1024 * 1024)
    expect(kept(ring).map((text) => (JSON.parse(text) as SandboxEvent).id)).toEqual(Array.from({ length: 100 }, (_, i) => `evt_${19_901 + i}`))
  })

  it('keeps events pushed as objects beside events kept as text, in one order, through growth and drops', () => {
    const ring = new EventRing(200, 'acc_1')
    for (let n = 1; n <= 600; n++) {
      const event = eventOf(n)
      if (n % 3 === 0) ring.pushObject(n, event, `pay_${n}`)
      else ring.push(n, event, JSON.stringify(event), `pay_${n}`)
    }
    expect(kept(ring)).toEqual(Array.from({ length: 200 }, (_, i) => JSON.stringify(eventOf(401 + i))))
    // An event pushed as an object comes back as that object, not a copy.
    const object = eventOf(601)
    ring.pushObject(601, object, 'pay_601')
    expect(ring.eventAt(199)).toBe(object)
    expect(ring.indexOf('evt_601')).toBe(199)
  })
})
