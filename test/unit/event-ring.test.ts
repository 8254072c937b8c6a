import { describe, expect, it } from 'vitest'
import { EventRing } from '../../src/events/event-ring.js'
import type { SandboxEvent } from '../../src/model/events.js'

/** An event whose text is about `size` bytes, with a non-ASCII character to count bytes, not characters. */
function eventOf(n: number, size = 100): SandboxEvent {
  return { id: `evt_${n}`, object: 'event', type: n % 2 ? 'payment.created' : 'payment.failed', account_id: 'acc_1', created_at: '2026-01-01T00:00:00.000Z', data: { object: { id: `pay_${n}`, note: `é${'x'.repeat(size)}` } } } as unknown as SandboxEvent
}

function fill(ring: EventRing, from: number, to: number, size?: number): void {
  for (let n = from; n <= to; n++) {
    const event = eventOf(n, size)
    const text = JSON.stringify(event)
    // Every third as the pieces the event log writes (a published event's head, its object, the tail), cut anywhere.
    if (n % 3 === 1) ring.push(n, event, [text.slice(0, n % 50), text.slice(n % 50, text.length - 2), text.slice(text.length - 2)], `pay_${n}`)
    else ring.push(n, event, text, `pay_${n}`)
  }
}

const kept = (ring: EventRing) => Array.from({ length: ring.size }, (_, i) => ring.eventAt(i))

describe('EventRing', () => {
  it('gives back each event as it was pushed, oldest first, through growth and wrapping', () => {
    const ring = new EventRing(300)
    fill(ring, 1, 1000)
    expect(ring.size).toBe(300)
    expect(ring.dropped).toBe(700)
    expect(kept(ring)).toEqual(Array.from({ length: 300 }, (_, i) => eventOf(701 + i)))
    expect([ring.seqAt(0), ring.typeAt(0), ring.objectIdAt(0)]).toEqual([701, 'payment.created', 'pay_701'])
  })

  it('keeps an event pushed in pieces of one to four characters, the short ones stored a byte at a time, a non-ASCII one written as UTF-8', () => {
    const ring = new EventRing(10)
    const events = [eventOf(1, 3), { ...eventOf(2, 3), data: { object: { id: 'pay_2', note: '\u00e9\u20ac\ud83d\ude00 \ud800x' } } } as unknown as SandboxEvent]
    for (const [i, event] of events.entries()) {
      const text = JSON.stringify(event)
      const pieces: string[] = []
      for (let at = 0, size = 1; at < text.length; at += size, size = (size % 4) + 1) pieces.push(text.slice(at, at + size))
      ring.push(i + 1, event, pieces, `pay_${i + 1}`)
    }
    expect(kept(ring)).toEqual(events)
  })

  it('finds an event by id only while it is kept, and the first event after a sequence number', () => {
    const ring = new EventRing(10)
    fill(ring, 1, 25)
    expect(ring.indexOf('evt_15')).toBeUndefined()
    expect(ring.indexOf('evt_16')).toBe(0)
    expect(ring.indexOf('evt_25')).toBe(9)
    expect(ring.firstAfter(0)).toBe(0)
    expect(ring.firstAfter(20)).toBe(5)
    expect(ring.firstAfter(25)).toBe(10)
  })

  it('keeps one event with a limit of 1, and an event larger than any segment', () => {
    const ring = new EventRing(1)
    fill(ring, 1, 3)
    fill(ring, 4, 4, 3 * 1024 * 1024)
    expect(ring.size).toBe(1)
    expect(ring.eventAt(0)).toEqual(eventOf(4, 3 * 1024 * 1024))
    fill(ring, 5, 5)
    expect(kept(ring)).toEqual([eventOf(5)])
  })

  it('lets go of the segments of dropped events: memory follows what is kept, not what went through', () => {
    const ring = new EventRing(100)
    fill(ring, 1, 20_000, 1000)
    const segments = (ring as unknown as { segments: Array<{ bytes: Buffer }> }).segments
    const bytes = segments.reduce((sum, segment) => sum + segment.bytes.length, 0)
    // 100 events of about 1 KB: a segment or two (they double up to 1 MB), never the 20 MB written.
    expect(bytes).toBeLessThanOrEqual(2 * 1024 * 1024)
    expect(kept(ring).map((event) => event.id)).toEqual(Array.from({ length: 100 }, (_, i) => `evt_${19_901 + i}`))
  })

  it('keeps events pushed as objects beside events kept as text, in one order, through growth and drops', () => {
    const ring = new EventRing(200)
    for (let n = 1; n <= 600; n++) {
      const event = eventOf(n)
      if (n % 3 === 0) ring.pushObject(n, event, `pay_${n}`)
      else ring.push(n, event, JSON.stringify(event), `pay_${n}`)
    }
    expect(kept(ring)).toEqual(Array.from({ length: 200 }, (_, i) => eventOf(401 + i)))
    // An event pushed as an object comes back as that object, not a copy.
    const object = eventOf(601)
    ring.pushObject(601, object, 'pay_601')
    expect(ring.eventAt(199)).toBe(object)
    expect(ring.indexOf('evt_601')).toBe(199)
  })
})
