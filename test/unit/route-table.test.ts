import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROUTE_GROUPS } from '../../src/api/route-table.js'
import { lazyRoutes } from '../../src/http/lazy-routes.js'
import { defineRoute, type AnyRoute } from '../../src/http/route.js'
import { startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

/** src/api/route-table.ts names every route before its module loads (issue 33: a cold start builds no route's schemas). */

let sb: TestSandbox
beforeAll(async () => {
  sb = await startTestSandbox()
})
afterAll(() => sb.close())

const route = (method: 'get' | 'post', path: string): AnyRoute =>
  defineRoute({ method, path, operationId: path, summary: path, tag: 't', status: 200, response: undefined as never, handler: () => ({}) })

describe('the route table', () => {
  it('says what each group\'s module defines: every group loads, and their routes are the table\'s, in order', async () => {
    const loaded = await sb.sandbox.loadRoutes()
    expect(loaded.map((r) => `${r.method.toUpperCase()} ${r.path}`)).toEqual(ROUTE_GROUPS.flatMap((group) => group.paths))
    expect(new Set(loaded.map((r) => r.operationId)).size).toBe(loaded.length)
  })

  it('serves a route of a group no request has loaded yet, and answers 405 and 404 from the table alone', async () => {
    const other = await startTestSandbox()
    try {
      await other.api.get('/v1/prices').set(other.auth()).expect(200)
      await other.api.delete('/v1/prices').set(other.auth()).expect(405).expect('Allow', 'GET, HEAD')
      await other.api.get('/v1/nothing').set(other.auth()).expect(404)
    } finally {
      await other.close()
    }
  })
})

describe('lazyRoutes', () => {
  it('loads nothing until a route is asked for, then its group once, for concurrent requests too', async () => {
    let loads = 0
    const { routes } = lazyRoutes([{ paths: ['GET /a', 'POST /a'], load: async () => (loads++, [route('get', '/a'), route('post', '/a')]) }])
    expect(routes.map((r) => [r.method, r.path])).toEqual([['get', '/a'], ['post', '/a']])
    expect(loads).toBe(0)
    const [get, post] = await Promise.all(routes.map((r) => r.load()))
    expect([get!.method, post!.method, loads]).toEqual(['get', 'post', 1])
  })

  it('refuses a module whose routes differ from the table, naming both', async () => {
    const { routes, loadAll } = lazyRoutes([{ paths: ['GET /a', 'GET /b'], load: async () => [route('get', '/a'), route('post', '/b')] }])
    await expect(routes[1]!.load()).rejects.toThrow('The route table (src/api/route-table.ts) says [GET /a, GET /b] where the module defines [GET /a, POST /b]')
    await expect(loadAll()).rejects.toThrow(/route table/)
  })
})
