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

// A start adds eighty routes lazily; their express paths and prefixes are made when a request of
// their method first reaches them (issue 33, round 10).
describe('the route index, routes added lazily', () => {
  const sources = [
    { method: 'post' as const, path: '/v1/payments' },
    { method: 'get' as const, path: '/v1/payments/{id}' },
    { method: 'get' as const, path: '/v1/wallets' },
    { method: 'delete' as const, path: '/v1/wallets/{id}' },
  ]
  const made: string[] = []
  const handlers = new Map(sources.map((source) => [source, () => {}]))
  const index = createRouteIndex()
  for (const source of sources) {
    index.addLazily(
      source.method,
      source,
      (route) => {
        made.push(`${route.method} ${route.path}`)
        return route.path.replace(/\{(\w+)\}/g, ':$1')
      },
      (route) => handlers.get(route)!,
    )
  }

  it('makes a path only when a request of its method reaches it, and finds as with the paths given', () => {
    expect(made).toEqual([])
    expect(index.find('GET', '/V1/Payments/Pay_1')).toMatchObject({ handler: handlers.get(sources[1]!), params: { id: 'Pay_1' } })
    expect(made).toEqual(['get /v1/payments/{id}'])
    expect(index.find('GET', '/v1/wallets/')?.handler).toBe(handlers.get(sources[2]!))
    expect(index.find('PUT', '/v1/wallets/w_1')).toBeUndefined()
    expect(made).toEqual(['get /v1/payments/{id}', 'get /v1/wallets'])
    expect(index.find('DELETE', '/v1/wallets/w_1')).toMatchObject({ handler: handlers.get(sources[3]!), params: { id: 'w_1' } })
    expect(index.routes.map((route) => `${route.method} ${route.path}`)).toEqual(['post /v1/payments', 'get /v1/payments/:id', 'get /v1/wallets', 'delete /v1/wallets/:id'])
    // Each path made once.
    expect(made).toEqual(['get /v1/payments/{id}', 'get /v1/wallets', 'delete /v1/wallets/{id}', 'post /v1/payments'])
    expect(index.find('POST', '/v1/payments')?.handler).toBe(handlers.get(sources[0]!))
    expect(made).toHaveLength(4)
  })
})
