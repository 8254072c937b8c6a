import { describe, expect, it } from 'vitest'
import type { SandboxRequest } from '../../../src/client/control-types.js'
import { requestFilter } from '../../../src/cli/terminal/request-filters.js'

/** `tail`'s --status, --method and --path, on journal entries. */

const entry = (method: string, path: string, status: number | null): SandboxRequest => ({
  id: 'req_1', method, path, query: null, status, duration_ms: 1, api_key: null, account_id: null,
  idempotency_key: null, replayed: false, fault: null, at: '2026-01-01T00:00:00.000Z', headers: {}, request_body: null, response_body: null, truncated: false,
})

const ENTRIES = [
  entry('GET', '/v1/wallets', 200),
  entry('POST', '/v1/payments', 201),
  entry('GET', '/v1/payments/pay_1', 404),
  entry('POST', '/v1/payments/pay_1/cancel', 409),
  entry('DELETE', '/v1/webhooks/we_1', 500),
  entry('GET', '/v1/wallets/wal_1/balances', null),
]
const shown = (flags: Parameters<typeof requestFilter>[0]) => ENTRIES.filter(requestFilter(flags)).map((e) => `${e.method} ${e.path}`)

describe("tail's filters", () => {
  it('shows everything without a filter, answered or not', () => {
    expect(shown({})).toHaveLength(ENTRIES.length)
  })

  it.each([
    ['--status 4xx,5xx', { status: '4xx,5xx' }, ['GET /v1/payments/pay_1', 'POST /v1/payments/pay_1/cancel', 'DELETE /v1/webhooks/we_1']],
    ['--status 201,409', { status: '201, 409' }, ['POST /v1/payments', 'POST /v1/payments/pay_1/cancel']],
    ['--method post', { method: 'post' }, ['POST /v1/payments', 'POST /v1/payments/pay_1/cancel']],
    ['--method GET,DELETE', { method: 'GET,DELETE' }, ['GET /v1/wallets', 'GET /v1/payments/pay_1', 'DELETE /v1/webhooks/we_1', 'GET /v1/wallets/wal_1/balances']],
    ['--path exact', { path: '/v1/payments' }, ['POST /v1/payments']],
    ['--path prefix', { path: '/v1/wallets/*' }, ['GET /v1/wallets/wal_1/balances']],
    ['--path template', { path: '/v1/payments/{id}' }, ['GET /v1/payments/pay_1']],
    ['--path template and more', { path: '/v1/payments/{id}/cancel,/v1/webhooks/{id}' }, ['POST /v1/payments/pay_1/cancel', 'DELETE /v1/webhooks/we_1']],
    ['all of them at once', { status: '4xx', method: 'GET', path: '/v1/payments/*' }, ['GET /v1/payments/pay_1']],
  ])('%s', (_name, flags, expected) => {
    expect(shown(flags)).toEqual(expected)
  })

  it('reads a path as a path, not as a pattern', () => {
    expect(requestFilter({ path: '/v1/payments.json' })(entry('GET', '/v1/paymentsXjson', 200))).toBe(false)
  })

  it.each([
    [{ status: '4xx,teapot' }, '--status takes classes and codes such as 4xx,5xx or 404,429; got "teapot"'],
    [{ method: 'GET,FETCH' }, '--method takes HTTP methods such as GET or POST,DELETE (GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS); got "FETCH"'],
    [{ path: 'v1/payments' }, '--path takes paths such as /v1/payments, a prefix such as /v1/wallets/* or a template such as /v1/payments/{id}; got "v1/payments"'],
    [{ path: '/v1/*/payments' }, '--path takes paths such as /v1/payments, a prefix such as /v1/wallets/* or a template such as /v1/payments/{id}; got "/v1/*/payments"'],
    [{ method: ',' }, '--method takes HTTP methods such as GET or POST,DELETE (GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS); got nothing'],
  ])('refuses %o, naming what it cannot read', (flags, message) => {
    expect(() => requestFilter(flags)).toThrow(message)
  })
})
