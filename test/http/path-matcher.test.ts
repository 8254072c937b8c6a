import { createRequire } from 'node:module'
import express from 'express'
import { describe, expect, it } from 'vitest'
import { ROUTE_GROUPS } from '../../src/api/route-table.js'
import { pathMatcher, pathPattern } from '../../src/http/path-matcher.js'
import { toExpressPath } from '../../src/http/route.js'

// The route index matches paths without express (src/http/path-matcher.ts) and must pick the route
// express would pick: the same regular expression as express's router makes, the same parameters.

/** path-to-regexp as express's router loads it (express → router → path-to-regexp). */
const require = createRequire(createRequire(createRequire(import.meta.url).resolve('express')).resolve('router'))
const pathToRegexp = require('path-to-regexp') as { pathToRegexp(path: string, options: object): { regexp: RegExp } }

/** The layer express's router makes for a route path, with its own match(). */
function expressLayer(path: string): { match(input: string): false | { params: Record<string, string> } } {
  const app = express()
  app.get(path, () => {})
  const stack = (app as unknown as { router: { stack: Array<{ match(input: string): false | { params: Record<string, string> } }> } }).router.stack
  return stack[stack.length - 1]!
}

const PATHS = [...new Set(ROUTE_GROUPS.flatMap((group) => group.paths.map((entry) => toExpressPath(entry.split(' ')[1]!))))]

describe('the route matcher', () => {
  it.each(PATHS)('makes the regular expression express makes for %s', (path) => {
    // The router's options for a route: case-insensitive, not strict (a trailing slash may follow), the whole path.
    const theirs = pathToRegexp.pathToRegexp(path, { sensitive: undefined, end: true, trailing: true }).regexp
    const ours = pathPattern(path).regexp
    expect([ours.source, ours.flags]).toEqual([theirs.source, theirs.flags])
  })

  const INPUTS = ['/v1/wallets/abc', '/V1/WALLETS/abc/', '/v1/wallets/abc//', '/v1/wallets/a%20b', '/v1/wallets/a%2Fb/balance', '/v1/wallets/%E0%A4%A', '/v1/wallets/', '/v1/wallets', '/_sandbox/prices/BTC/USD', '/_sandbox/prices/BTC%2fUSD', '/v1/openapi.json', '/v1/openapiXjson', '/v1/payments/pay_1/x', '/V1/WEBHOOKS/', '/v1/webhoo\u212As', '/v1/webhooks\u017f', '/_sandbox/HEALTH//', '/_sandbox/health?x', '/v1/prices/']
  it.each(PATHS.flatMap((path) => INPUTS.map((input) => [path, input] as const)))('matches %s against %s as express does', (path, input) => {
    const outcome = (match: (input: string) => false | { params: Record<string, string> }) => {
      try {
        const found = match(input)
        return found && { params: { ...found.params }, prototype: Object.getPrototypeOf(found.params) }
      } catch (error) {
        return { thrown: (error as Error).name, message: (error as Error).message, status: (error as { status?: number }).status }
      }
    }
    const layer = expressLayer(path)
    expect(outcome(pathMatcher(path))).toEqual(outcome((value) => layer.match(value)))
  })

  it('refuses route path syntax it would not match as express does', () => {
    for (const path of ['/v1/a-:b', '/v1/*rest', '/v1/{x}', '/v1/:a.:b', 'v1/x', '/v1/(x)']) expect(() => pathPattern(path)).toThrow(/not literal segments/)
  })
})
