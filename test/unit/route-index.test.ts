import { describe, expect, it } from 'vitest'
import { createRouteIndex } from '../../src/http/route-index.js'

// find() remembers the last path's lower case (issue 33, round 9): each path still finds what it
// finds on its own, whatever was asked before it.
describe('the route index', () => {
  const index = createRouteIndex()
  const handlers = Object.fromEntries(['payments', 'payment', 'wallets'].map((name) => [name, () => {}]))
  index.add('post', '/v1/payments', handlers.payments!)
  index.add('get', '/v1/payments/:id', handlers.payment!)
  index.add('get', '/v1/wallets', handlers.wallets!)
  const asks: Array<[string, string, string | undefined, Record<string, string>?]> = [
    ['POST', '/v1/payments', 'payments'],
    ['POST', '/V1/Payments/', 'payments'],
    ['POST', '/v1/payments//', undefined],
    ['GET', '/v1/payments/Pay_1', 'payment', { id: 'Pay_1' }],
    ['GET', '/V1/PAYMENTS/Pay_1', 'payment', { id: 'Pay_1' }],
    ['GET', '/v1/wallets', 'wallets'],
    ['GET', '/v1/WALLETS', 'wallets'],
    ['GET', '/v1/payments', undefined],
    ['POST', '', undefined],
  ]
  const nameOf = (handler: unknown) => Object.keys(handlers).find((name) => handlers[name] === handler)

  it('finds for each path what it finds alone, in any order', () => {
    for (const order of [asks, [...asks].reverse(), asks.flatMap((ask) => [ask, ask])]) {
      for (const [method, path, name, params] of order) {
        const found = index.find(method, Buffer.from(path, 'latin1').toString('latin1'))
        expect(nameOf(found?.handler)).toBe(name)
        if (params) expect({ ...found!.params }).toEqual(params)
      }
    }
  })
})
