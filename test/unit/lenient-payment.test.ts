import { describe, expect, it } from 'vitest'
import { adaptLenientPayment } from '../../src/api/v1/payments.js'
import { CURRENCIES } from '../../src/model/networks.js'
import type { RequestContext } from '../../src/http/context.js'

const context = (lenient: boolean) => ({ deps: { config: { lenient } } }) as unknown as RequestContext

// adaptLenientPayment takes a known currency as upper case without upper-casing it (issue 33,
// round 9): that holds only while every currency is written in upper case.
describe('adaptLenientPayment and the currencies', () => {
  it('knows only upper-case currencies', () => {
    for (const currency of CURRENCIES) expect(currency).toBe(currency.toUpperCase())
  })

  it('passes a body with a known currency as it is, and refuses or adapts every other case', () => {
    for (const currency of CURRENCIES) {
      const body = { amount: '1', currency, source_wallet: 'wal_x', recipient: 'wal_y' }
      expect(adaptLenientPayment(body, context(false))).toBe(body)
      const lower = { ...body, currency: currency.toLowerCase() }
      expect(() => adaptLenientPayment(lower, context(false))).toThrow(/currency must be upper case/)
      expect(adaptLenientPayment(lower, context(true))).toEqual(body)
    }
    const unknown = { amount: '1', currency: 'ABC', source_wallet: 'wal_x', recipient: 'wal_y' }
    expect(adaptLenientPayment(unknown, context(false))).toBe(unknown)
    // Lower case and unknown: a copy, its currency as sent (the schema refuses it).
    expect(adaptLenientPayment({ ...unknown, currency: 'abc' }, context(true))).toEqual({ ...unknown, currency: 'abc' })
  })
})
