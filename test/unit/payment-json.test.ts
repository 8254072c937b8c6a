import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { EventRing } from '../../src/events/event-ring.js'
import { eventJson } from '../../src/events/order-json.js'
import { PublishedEvent } from '../../src/events/publisher.js'
import { renderResource } from '../../src/http/respond.js'
import { presentPayment } from '../../src/ledger/present.js'
import type { SandboxEvent } from '../../src/model/events.js'
import type { PaymentRecord } from '../../src/model/records.js'
import { jsonString, paymentJson, PresentedPayment } from '../../src/payment-json.js'
import { PaymentSchema } from '../../src/schemas/payment.js'

/**
 * src/payment-json.ts writes a payment's JSON by code made for its shape, once for its event and its
 * answer: whatever the payment holds, the text must be exactly JSON.stringify's, keys in the wire's order.
 */

// Texts with what JSON escapes: quotes, backslashes, control characters, lone and paired surrogates.
const text = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('"', '\\', '\n', '\u0000', '\ud800', '\udc00x', '😀', '\u2028'))
const nullable = fc.option(text, { nil: null })
const record = fc.record({
  id: text,
  seq: fc.nat(),
  amount_units: fc.bigInt({ min: 1n, max: 10n ** 30n }),
  amount: text,
  currency: text,
  network: text,
  status: fc.constantFrom('pending', 'processing', 'completed', 'failed'),
  source: text,
  destination: text,
  destination_type: fc.constantFrom('wallet', 'address'),
  description: nullable,
  metadata: fc.dictionary(text, text, { maxKeys: 4 }),
  tx_hash: nullable,
  failure_code: nullable,
  failure_message: nullable,
  payout_id: nullable,
  created_at: text,
  updated_at: text,
  completed_at: nullable,
  plan: fc.constant(null),
}) as unknown as fc.Arbitrary<PaymentRecord>

const event = (payment: unknown): SandboxEvent =>
  ({ id: 'evt_1"', object: 'event', type: 'payment.created', created_at: '2026-01-01T00:00:00.000Z', api_version: 'v1', account_id: 'acc_\u0001', data: { object: payment } }) as SandboxEvent

describe('the JSON of a presented payment', () => {
  it('is JSON.stringify’s, alone, inside its event and inside its answer, whatever the payment holds', () => {
    fc.assert(
      fc.property(record, text, fc.boolean(), (payment, requestId, bare) => {
        const presented = presentPayment(payment)
        expect(paymentJson(presented)).toBe(JSON.stringify(presented))
        // Once more: the kept text.
        expect(paymentJson(presented)).toBe(JSON.stringify(presented))
        expect(eventJson(event(presented))).toBe(JSON.stringify(event(presented)))
        const answer = bare ? presented : { data: presented, request_id: requestId }
        expect(renderResource(201, presented, requestId, bare ? 'bare' : 'wrapped').text).toBe(JSON.stringify(answer))
      }),
    )
  })

  it('is JSON.stringify’s inside an event the publisher made, written whole or kept by the event log as its time and the payment’s text', () => {
    fc.assert(
      fc.property(record, text, text, text, fc.boolean(), (payment, id, createdAt, accountId, wholeFirst) => {
        const published = new PublishedEvent(id, 'payment.created', createdAt, accountId, presentPayment(payment))
        const expected = JSON.stringify(published)
        const kept = () => {
          const ring = new EventRing(10, accountId)
          ring.pushPublished(1, published, paymentJson(published.data.object as PresentedPayment), 'pay_1')
          return JSON.stringify(ring.eventAt(0))
        }
        // Either first: kept before anyone wrote the text whole, or after.
        if (wholeFirst) expect(eventJson(published)).toBe(expected)
        expect(kept()).toBe(expected)
        expect(eventJson(published)).toBe(expected)
        expect(kept()).toBe(expected)
      }),
    )
    // Its keys are those of any event, in the same order.
    expect(Object.keys(new PublishedEvent('evt_1', 'payment.created', 'now', 'acct_1', {}))).toEqual(Object.keys(event({})))
  })

  it('has the fields of the API’s payment in its order', () => {
    const payment = fc.sample(record, { numRuns: 1, seed: 7 })[0]!
    expect(Object.keys(presentPayment(payment))).toEqual(Object.keys(PaymentSchema.shape))
  })

  it('is JSON.stringify’s when a field needs escaping after the same field was plain, and plain again after (each field’s last plain text is remembered)', () => {
    // Every other field plain, so that the one tested decides which way the payment is written.
    const payment = {
      ...fc.sample(record, { numRuns: 1, seed: 11 })[0]!,
      ...{ id: 'pay_1', amount: '1.5', currency: 'USDC', network: 'ethereum', status: 'pending', source: 'wal_1', destination: 'wal_2', destination_type: 'wallet' },
      ...{ description: 'x', metadata: {}, tx_hash: null, failure_code: null, failure_message: null, payout_id: null, created_at: 't', updated_at: 't', completed_at: null },
    }
    const fields = ['amount', 'currency', 'network', 'status', 'source', 'destination', 'destination_type', 'description', 'tx_hash', 'failure_code', 'failure_message', 'payout_id', 'created_at', 'updated_at', 'completed_at'] as const
    for (const field of fields) {
      for (const value of ['plain', 'plain', 'quote"d', 'quote"d', 'plain', '\ud800', '\ud800', null, null, 7, 7, 'plain']) {
        const presented = presentPayment({ ...payment, [field]: value } as unknown as PaymentRecord)
        expect(paymentJson(presented)).toBe(JSON.stringify(presented))
      }
    }
  })

  it('is JSON.stringify’s for a published event whose type, time or account needs escaping after the same one was plain', () => {
    const presented = presentPayment({ ...fc.sample(record, { numRuns: 1, seed: 13 })[0]!, id: 'pay_1' })
    for (const field of [0, 1, 2]) {
      for (const value of ['plain', 'plain', 'quote"d', 'quote"d', 'plain', '\ud800', '\ud800', 'plain']) {
        const [type, createdAt, accountId] = ['payment.created', 't', 'acct_1'].map((text, i) => (i === field ? value : text))
        const published = new PublishedEvent('evt_1', type as 'payment.created', createdAt!, accountId!, presented)
        expect(eventJson(published)).toBe(JSON.stringify(published))
      }
    }
  })

  it('is JSON.stringify’s for a field that is not text (a hand-edited data file’s record)', () => {
    const payment = fc.sample(record, { numRuns: 1, seed: 3 })[0]!
    for (const odd of [undefined, 5, { a: 1 }, true]) {
      const presented = presentPayment({ ...payment, description: odd, tx_hash: odd } as unknown as PaymentRecord)
      expect(paymentJson(presented)).toBe(JSON.stringify(presented))
    }
  })

  it('leaves to JSON.stringify an event that is not as the publisher makes it', () => {
    const presented = presentPayment(fc.sample(record, { numRuns: 1, seed: 5 })[0]!)
    const { id, ...rest } = event(presented)
    const reordered = { ...rest, id } as SandboxEvent
    expect(eventJson(reordered)).toBe(JSON.stringify(reordered))
    const extra = { ...event(presented), more: 1 } as SandboxEvent
    expect(eventJson(extra)).toBe(JSON.stringify(extra))
    const wider = { ...event(presented), data: { object: presented, previous: 1 } } as SandboxEvent
    expect(eventJson(wider)).toBe(JSON.stringify(wider))
  })

  it('quotes a text as JSON.stringify does', () => {
    fc.assert(fc.property(text, (value) => {
      expect(jsonString(value)).toBe(JSON.stringify(value))
    }))
  })

  it('is a new text for a new presentation of a changed payment', () => {
    const payment = fc.sample(record, { numRuns: 1, seed: 9 })[0]!
    const before = presentPayment(payment)
    expect(paymentJson(before)).toBe(JSON.stringify(before))
    const after = new PresentedPayment({ ...payment, status: 'completed' })
    expect(paymentJson(after)).toContain('"status":"completed"')
  })
})
