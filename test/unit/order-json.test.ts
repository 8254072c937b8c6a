import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { eventJson, orderJson, spliceJson } from '../../src/events/order-json.js'
import type { SandboxEvent } from '../../src/model/events.js'

/**
 * order-json.ts writes what carries an order from pieces it keeps; whatever the order holds and
 * whichever of its snapshots is written when, the text must be exactly `JSON.stringify`'s.
 */

const fill = fc.record({ price: fc.string(), amount: fc.string(), fee: fc.string(), timestamp: fc.string() })
// Keys in any order, `fills` among them, values of any JSON (strings with quotes, escapes, a "fills" key nested).
const fields = fc.uniqueArray(fc.tuple(fc.string({ minLength: 1 }).filter((key) => !/^\d+$/.test(key) && key !== 'fills' && key !== 'object'), fc.jsonValue()), { selector: ([key]) => key, maxLength: 6 })
const step = fc.oneof(
  fc.record({ kind: fc.constant('fill' as const), fill }),
  fc.record({ kind: fc.constant('write' as const), back: fc.nat(4), asEvent: fc.boolean() }),
)

describe('the JSON of what carries an order', () => {
  it('is JSON.stringify’s, for every snapshot of an order whose fills grow, written in any order, as an order or inside an event', () => {
    fc.assert(
      fc.property(fields, fc.nat(6), fc.array(step, { maxLength: 40 }), (entries, fillsAt, steps) => {
        const fills: object[] = []
        const snapshots: Array<Record<string, unknown>> = []
        const wrong: string[] = []
        const snapshot = () => {
          const order: Record<string, unknown> = { object: 'order' }
          entries.forEach(([key, value], i) => {
            if (i === fillsAt) order.fills = fills.slice()
            order[key] = value
          })
          if (!('fills' in order)) order.fills = fills.slice()
          return order
        }
        for (const s of steps) {
          if (s.kind === 'fill') {
            fills.push({ ...s.fill })
            snapshots.push(snapshot())
            continue
          }
          // As presentOrder does it: a fresh object per answer or event, sharing the fill objects.
          const order = s.back === 0 || snapshots.length === 0 ? snapshot() : snapshots[Math.max(0, snapshots.length - s.back)]!
          if (s.asEvent) {
            const event = { id: 'evt_1', object: 'event', type: 'order.partially_filled', created_at: 'now', api_version: 'v1', account_id: 'acct_1', data: { object: order } } as SandboxEvent
            if (eventJson(event) !== JSON.stringify(event)) wrong.push(`event: ${eventJson(event)}`)
          } else if (orderJson(order) !== JSON.stringify(order)) {
            wrong.push(`order: ${orderJson(order)}`)
          }
        }
        expect(wrong).toEqual([])
      }),
      { numRuns: 300 },
    )
  })

  it('splices a value’s given JSON in at its key, first, last or alone', () => {
    expect(spliceJson({ a: 1, b: [2], c: 'x' }, 'b', '[2]')).toBe(JSON.stringify({ a: 1, b: [2], c: 'x' }))
    expect(spliceJson({ b: [2], c: 'x' }, 'b', '[2]')).toBe(JSON.stringify({ b: [2], c: 'x' }))
    expect(spliceJson({ a: 1, b: [2] }, 'b', '[2]')).toBe(JSON.stringify({ a: 1, b: [2] }))
    expect(spliceJson({ b: [2] }, 'b', '[2]')).toBe(JSON.stringify({ b: [2] }))
    // A "__proto__" key (JSON.parse makes one an own key) is written as JSON.stringify writes it; one only inherited is not.
    const parsed = JSON.parse('{"__proto__": {"x": 1}, "b": [2], "c": 3}') as Record<string, unknown>
    expect(spliceJson(parsed, 'b', '[2]')).toBe(JSON.stringify(parsed))
    const inherited = Object.assign(Object.create({ hidden: 1 }) as Record<string, unknown>, { a: 1, b: [2] })
    expect(spliceJson(inherited, 'b', '[2]')).toBe(JSON.stringify(inherited))
    expect(spliceJson({ a: undefined, b: [2], c: undefined }, 'b', '[2]')).toBe(JSON.stringify({ b: [2] }))
  })

  it('writes other events as they are', () => {
    const event = { id: 'evt_1', object: 'event', type: 'payment.created', created_at: 'now', api_version: 'v1', account_id: 'acct_1', data: { object: { id: 'pay_1', fills: 'no' } } } as SandboxEvent
    expect(eventJson(event)).toBe(JSON.stringify(event))
  })
})
