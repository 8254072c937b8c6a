import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ApiError } from '../../src/errors.js'
import { CURRENCIES } from '../../src/model/networks.js'
import { FAILURE_CODES } from '../../src/model/failures.js'
import { checkCreatePayment } from '../../src/schemas/payment-fast.js'
import { CreatePaymentSchema } from '../../src/schemas/payment.js'
import { fastPathOf, parseOrThrow } from '../../src/schemas/validate.js'

/**
 * src/schemas/payment-fast.ts answers the payment bodies it is sure of without zod; CreatePaymentSchema
 * stays the definition. For any body, good or bad, the fast path must answer exactly what zod answers
 * (the same fields in the same order) or nothing, and what a request gets (the body or the error) must
 * be what zod alone gives.
 */

const text = fc.oneof(fc.string({ maxLength: 8 }), fc.string({ unit: 'binary', maxLength: 4 }), fc.constantFrom('', '"', '\u0000', '😀', '\ud800'))
const goodAmount = fc.oneof(
  fc.constantFrom('1', '10.50', '0.000001', '100000000000000000000'),
  fc.tuple(fc.integer({ min: 1, max: 10 ** 9 }), fc.option(fc.stringMatching(/^[0-9]{1,8}$/), { nil: undefined })).map(([whole, fraction]) => (fraction === undefined ? `${whole}` : `${whole}.${fraction}`)),
)
const badAmount = fc.oneof(fc.constantFrom('0', '0.00', '01', '1.', '.5', '-1', '+1', '1e5', ' 1', '1,5', '', 'abc'), fc.constantFrom(10, null, true, [], {}), text)
const goodCurrency = fc.constantFrom(...CURRENCIES)
const badCurrency = fc.oneof(fc.constantFrom(...CURRENCIES.map((currency) => currency.toLowerCase()), 'XYZ', '', 5, null), text)
const goodId = fc.oneof(fc.constantFrom('wal_1', '0x52908400098527886E0F7030069857D2E4169EE7'), fc.string({ minLength: 1, maxLength: 30 }))
const badId = fc.constantFrom('', 7, null, {}, ['wal_1'])
const goodDescription = fc.oneof(fc.constant(null), text, fc.constant('d'.repeat(1000)))
const badDescription = fc.constantFrom('d'.repeat(1001), 12, {}, false)

const metadataKey = fc.oneof(fc.string({ minLength: 1, maxLength: 12 }), fc.constant('k'.repeat(40)))
const goodValue = fc.oneof(text, fc.constant('v'.repeat(500)))
const goodMetadata = fc.oneof(
  fc.constant(null),
  fc.dictionary(metadataKey.filter((key) => !['__proto__', 'constructor', 'prototype', 'sandbox_outcome', 'sandbox_failure_code'].includes(key)), goodValue, { maxKeys: 6 }),
  fc.record({ sandbox_outcome: fc.constantFrom('completed', 'failed', 'pending') }),
  fc.record({ sandbox_outcome: fc.constant('failed'), sandbox_failure_code: fc.constantFrom(...FAILURE_CODES) }),
  fc.constant(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v']))),
)
const badMetadata = fc.oneof(
  fc.constantFrom('', 'a', 5, ['a'], true),
  fc.constant({ ['k'.repeat(41)]: 'v' }),
  fc.constant({ '': 'v' }),
  fc.constant({ key: 'v'.repeat(501) }),
  fc.constant({ key: 5 }),
  fc.constant({ key: null }),
  fc.constant({ key: { nested: 'v' } }),
  fc.constant({ constructor: 'v' }),
  fc.constant({ prototype: 'v' }),
  fc.constant({ sandbox_outcome: 'maybe' }),
  fc.constant({ sandbox_failure_code: 'nope' }),
  fc.constant(Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']))),
)

/** A field's value: absent (undefined, dropped by the JSON round trip), good, or bad. */
const field = <G, B>(good: fc.Arbitrary<G>, bad: fc.Arbitrary<B>, absentToo: boolean) =>
  fc.oneof({ arbitrary: good, weight: 6 }, { arbitrary: bad, weight: 1 }, { arbitrary: fc.constant(undefined), weight: absentToo ? 2 : 1 })

const bodyObject = (mostlyGood: boolean) =>
  fc
    .record({
      amount: mostlyGood ? goodAmount : field(goodAmount, badAmount, false),
      currency: mostlyGood ? goodCurrency : field(goodCurrency, badCurrency, false),
      source_wallet: mostlyGood ? goodId : field(goodId, badId, false),
      recipient: mostlyGood ? goodId : field(goodId, badId, false),
      description: mostlyGood ? fc.option(goodDescription, { nil: undefined }) : field(goodDescription, badDescription, true),
      metadata: mostlyGood ? fc.option(goodMetadata, { nil: undefined }) : field(goodMetadata, badMetadata, true),
      extra: mostlyGood ? fc.constant(undefined) : fc.option(fc.constantFrom('x', null), { nil: undefined, freq: 5 }),
      order: fc.array(fc.nat(), { minLength: 6, maxLength: 6 }),
    })
    .map(({ order, ...fields }) => {
      // The fields in any order, as clients send them; then through JSON, as the server gets them.
      const entries = Object.entries(fields).map((entry, i) => [order[i]!, entry] as const).sort((a, b) => a[0] - b[0]).map(([, entry]) => entry)
      return JSON.parse(JSON.stringify(Object.fromEntries(entries))) as unknown
    })

const notAnObject = fc.constantFrom(null, [], 'payment', 12, true)
/** Bodies only raw JSON can spell: `__proto__` as an own key. */
const rawJson = fc.constantFrom(
  '{"amount":"1","currency":"USDC","source_wallet":"w","recipient":"r","metadata":{"__proto__":"x"}}',
  '{"amount":"1","currency":"USDC","source_wallet":"w","recipient":"r","__proto__":{"amount":"2"}}',
  '{"amount":"1","currency":"USDC","source_wallet":"w","recipient":"r","amount":"2"}',
).map((json) => JSON.parse(json) as unknown)

/** The keys of a value and every object in it, in order: zod's answer and the fast path's must agree on them too. */
function shapeOf(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value
  return Object.entries(value).map(([key, inner]) => [key, shapeOf(inner)])
}

/** What a request gets for `body`: the body, or the error's code, message and param. */
function outcome(parse: () => unknown): unknown {
  try {
    return { body: shapeOf(parse()) }
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    return { error: error.toBody() }
  }
}

function agrees(body: unknown): boolean {
  const fast = checkCreatePayment(body)
  const zod = CreatePaymentSchema.safeParse(body)
  if (fast !== undefined) {
    expect(zod.success).toBe(true)
    expect(shapeOf(fast)).toEqual(shapeOf(zod.data))
  }
  const fastBody = fastPathOf(CreatePaymentSchema)!
  expect(outcome(() => fastBody(body) ?? parseOrThrow(CreatePaymentSchema, body, 'body'))).toEqual(outcome(() => parseOrThrow(CreatePaymentSchema, body, 'body')))
  return fast !== undefined
}

describe('the payment body fast path (payment-fast.ts) against CreatePaymentSchema', () => {
  it('is the schema’s fast path', () => {
    expect(fastPathOf(CreatePaymentSchema)).toBe(checkCreatePayment)
  })

  it('answers every well-formed body as zod does, fields in zod’s order', () => {
    fc.assert(fc.property(bodyObject(true), (body) => {
      expect(agrees(body)).toBe(true)
    }), { numRuns: 2000 })
  })

  it('answers zod’s body or nothing for any body, and the request gets zod’s answer or error', () => {
    let taken = 0
    fc.assert(
      fc.property(fc.oneof({ arbitrary: bodyObject(false), weight: 8 }, { arbitrary: notAnObject, weight: 1 }, { arbitrary: rawJson, weight: 1 }), (body) => {
        if (agrees(body)) taken++
      }),
      { numRuns: 4000 },
    )
    // Bad fields are drawn one time in seven: many bodies are good, and the fast path must take them.
    expect(taken).toBeGreaterThan(200)
  })

  it('leaves every bad field to zod', () => {
    const good = { amount: '10.50', currency: 'USDC', source_wallet: 'wal_1', recipient: 'wal_2' }
    expect(checkCreatePayment(good)).toEqual({ ...good, metadata: {} })
    for (const [name, bad] of [['amount', badAmount], ['currency', badCurrency], ['source_wallet', badId], ['recipient', badId], ['description', badDescription], ['metadata', badMetadata]] as const) {
      fc.assert(fc.property(bad as fc.Arbitrary<unknown>, (value) => {
        const body = JSON.parse(JSON.stringify({ ...good, [name]: value })) as Record<string, unknown>
        if (!(name in body) || CreatePaymentSchema.safeParse(body).success) return
        expect(checkCreatePayment(body)).toBeUndefined()
      }))
    }
  })
})
