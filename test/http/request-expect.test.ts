import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_KEY, institutionalWallet, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

/** `POST /_sandbox/requests/expect` (CONTRACT.md section 23): what an account sent, as an assertion with near misses. */

const EVM = '0x52908400098527886E0F7030069857D2E4169EE7'
const OTHER_KEY = 'sk_test_request_expect_other'

let sb: TestSandbox
afterEach(() => sb?.close())

type Difference = { field: string; expected: unknown; actual?: unknown }
type Result = { satisfied: boolean; matched: Array<{ id: string; path: string }>; near_misses: Array<{ request: { id: string; method: string; path: string }; differences: Difference[] }> }

const expectation = async (body: object, status = 200) => {
  const res = await sb.api.post('/_sandbox/requests/expect').send(body).expect(status)
  return (status === 200 ? res.body.data : res.body) as Result & { error: { code: string; param?: string; message: string } }
}
const own = { api_key: DEFAULT_KEY }

/** A payment of the default account (its wallet read first), answered 201. */
async function pay(body: object = {}, headers: Record<string, string> = {}) {
  const wallet = await institutionalWallet(sb, 'polygon', 'USDC')
  return sb.api.post('/v1/payments').set(sb.auth()).set(headers).send({ amount: '10.00', currency: 'USDC', source_wallet: wallet.id, recipient: EVM, metadata: { order: '7', channel: 'web' }, ...body }).expect(201)
}

describe('POST /_sandbox/requests/expect matchers', () => {
  it('matches a body as a subset: named fields equal, nested objects likewise, arrays exactly', async () => {
    sb = await startTestSandbox()
    const wallet = await institutionalWallet(sb, 'polygon', 'USDC')
    await sb.api.post('/v1/payouts').set(sb.auth()).send({ source_wallet: wallet.id, currency: 'USDC', items: [{ amount: '1.00', recipient: EVM }] }).expect(201)
    await pay()
    expect((await expectation({ ...own, body: { amount: '10.00' } })).satisfied).toBe(true)
    expect((await expectation({ ...own, body: { metadata: { order: '7' } } })).satisfied).toBe(true)
    expect((await expectation({ ...own, body: { items: [{ amount: '1.00', recipient: EVM }] } })).satisfied).toBe(true)
    // An array is compared whole: one of its elements as a subset is not enough.
    const partial = await expectation({ ...own, path: '/v1/payouts', body: { items: [{ amount: '1.00' }] } })
    expect(partial.satisfied).toBe(false)
    expect(partial.near_misses[0]!.differences).toEqual([{ field: 'body.items', expected: [{ amount: '1.00' }], actual: [{ amount: '1.00', recipient: EVM }] }])
    const nested = await expectation({ ...own, path: '/v1/payments', body: { metadata: { order: '8', 'gift wrap': true } } })
    expect(nested.near_misses[0]!.differences).toEqual([
      { field: 'body.metadata.order', expected: '8', actual: '7' },
      { field: 'body.metadata["gift wrap"]', expected: true },
    ])
  })

  it('matches headers present (true), absent (false) or equal, names in any case, and never echoes a key', async () => {
    sb = await startTestSandbox()
    await pay({}, { 'Idempotency-Key': 'order-7', 'X-Trace': 'abc' })
    expect((await expectation({ ...own, headers: { 'Idempotency-Key': true, 'x-retry': false, 'X-TRACE': 'abc', 'content-type': 'application/json' } })).satisfied).toBe(true)
    expect((await expectation({ ...own, headers: { authorization: `Bearer ${DEFAULT_KEY}` } })).satisfied).toBe(true)
    const missed = await expectation({ ...own, method: 'POST', headers: { 'idempotency-key': false, 'x-retry': true, 'x-trace': 'abd', authorization: 'Bearer sk_test_another_key_9999' } })
    expect(missed.near_misses[0]!.differences).toEqual([
      { field: 'headers.idempotency-key', expected: false, actual: 'order-7' },
      { field: 'headers.x-retry', expected: true },
      { field: 'headers.x-trace', expected: 'abd', actual: 'abc' },
      { field: 'headers.authorization', expected: 'Bearer sk_test_…9999', actual: 'Bearer sk_test_…_key' },
    ])
    const text = JSON.stringify(missed)
    expect(text).not.toContain(DEFAULT_KEY)
    expect(text).not.toContain('sk_test_another_key_9999')
  })

  it('matches method, path (exact, template, prefix), query parameters and status (code or class)', async () => {
    sb = await startTestSandbox()
    const wallet = await institutionalWallet(sb, 'polygon', 'USDC')
    const payment = (await pay()).body.data
    await sb.api.get(`/v1/payments/${payment.id}`).set(sb.auth()).expect(200)
    await sb.api.get('/v1/payments/pay_unknown').set(sb.auth()).expect(404)
    expect((await expectation({ ...own, method: 'get', path: '/v1/wallets', query: { network: 'polygon', currency: 'USDC' }, status: 200 })).satisfied).toBe(true)
    expect((await expectation({ ...own, method: 'GET', path: '/v1/payments/{id}', status: '2xx' })).matched.map((entry) => entry.path)).toEqual([`/v1/payments/${payment.id}`])
    expect((await expectation({ ...own, path: '/v1/payments/{id}', status: 404 })).matched.map((entry) => entry.path)).toEqual(['/v1/payments/pay_unknown'])
    expect((await expectation({ ...own, path: '/v1/*', count: 5, exactly: true })).satisfied).toBe(true)
    const query = await expectation({ ...own, path: '/v1/wallets', query: { network: 'solana', limit: '5' } })
    expect(query.near_misses[0]!.differences).toEqual([{ field: 'query.network', expected: 'solana', actual: 'polygon' }, { field: 'query.limit', expected: '5' }])
    expect(wallet.id).toMatch(/^wal_/)
  })

  it('reports a body that is not there or not JSON as the body field', async () => {
    sb = await startTestSandbox()
    await sb.api.get('/v1/wallets').set(sb.auth()).expect(200)
    await sb.api.post('/v1/wallets').set(sb.auth()).set('content-type', 'application/json').send('{"name": ').expect(400)
    const result = await expectation({ ...own, body: { name: 'x' } })
    expect(result.near_misses.map((miss) => miss.differences)).toEqual([
      [{ field: 'body', expected: { name: 'x' }, actual: '{"name": ' }],
      [{ field: 'body', expected: { name: 'x' } }],
    ])
  })
})

describe('POST /_sandbox/requests/expect counts and waiting', () => {
  it('is satisfied by at least count matches, or exactly count with exactly', async () => {
    sb = await startTestSandbox()
    await pay({}, { 'Idempotency-Key': 'k-1' })
    await pay({}, { 'Idempotency-Key': 'k-1' })
    const retried = { ...own, method: 'POST', path: '/v1/payments', headers: { 'idempotency-key': 'k-1' } }
    const twice = await expectation({ ...retried, count: 2 })
    expect(twice.satisfied).toBe(true)
    expect(twice.matched).toHaveLength(2)
    expect(twice.near_misses).toEqual([])
    expect((await expectation({ ...retried, count: 1 })).satisfied).toBe(true)
    expect((await expectation({ ...retried, count: 1, exactly: true })).satisfied).toBe(false)
    expect((await expectation({ ...retried, count: 2, exactly: true })).satisfied).toBe(true)
    expect((await expectation({ ...retried, count: 3 })).satisfied).toBe(false)
  })

  it('count 0 with exactly asserts absence: over the whole window when nothing comes, and no as soon as one does', async () => {
    sb = await startTestSandbox()
    await pay()
    const none = { ...own, method: 'DELETE', count: 0, exactly: true }
    expect((await expectation(none)).satisfied).toBe(true)
    let started = performance.now()
    expect((await expectation({ ...none, within_ms: 300 })).satisfied).toBe(true)
    expect(performance.now() - started).toBeGreaterThanOrEqual(299)

    const noPayment = { ...own, method: 'POST', path: '/v1/payments', body: { amount: '99.00' }, count: 0, exactly: true, within_ms: 30_000 }
    started = performance.now()
    const waiting = expectation(noPayment)
    await pay({ amount: '99.00' })
    const result = await waiting
    expect(result.satisfied).toBe(false)
    expect(result.matched).toHaveLength(1)
    expect(performance.now() - started).toBeLessThan(10_000)
  })

  it('waits within_ms of real time: a request sent 200 ms later satisfies it as soon as it is answered', async () => {
    sb = await startTestSandbox({ clock: 'manual' })
    const wallet = await institutionalWallet(sb, 'polygon', 'USDC')
    const started = performance.now()
    const waiting = expectation({ ...own, method: 'POST', path: '/v1/payments', body: { amount: '12.50' }, within_ms: 10_000 }).then((result) => ({ result, at: performance.now() }))
    // Another request, and a payment of another amount, do not end the wait.
    await pay({ amount: '12.00' })
    await new Promise((resolve) => setTimeout(resolve, 200))
    const sentAt = performance.now()
    const created = await sb.api.post('/v1/payments').set(sb.auth()).send({ amount: '12.50', currency: 'USDC', source_wallet: wallet.id, recipient: EVM }).expect(201)
    const answeredAt = performance.now()
    const { result, at } = await waiting
    expect(result.satisfied).toBe(true)
    expect(result.matched.map((entry) => entry.id)).toEqual([created.headers['x-request-id']])
    expect(sentAt - started).toBeGreaterThanOrEqual(200)
    // The expectation's answer follows the request's own, not the end of the window.
    expect(at - answeredAt).toBeLessThan(100)
    expect(at - started).toBeLessThan(5000)
  })

  it('answers unsatisfied once within_ms is over, with the near misses', async () => {
    sb = await startTestSandbox()
    await pay()
    const started = performance.now()
    const result = await expectation({ ...own, path: '/v1/payments', body: { amount: '10' }, within_ms: 50 })
    expect(performance.now() - started).toBeGreaterThanOrEqual(49)
    expect(result).toMatchObject({ satisfied: false, matched: [] })
    expect(result.near_misses[0]!.differences).toEqual([{ field: 'body.amount', expected: '10', actual: '10.00' }])
  })
})

describe('POST /_sandbox/requests/expect near misses', () => {
  it('lists up to 5, fewest differences first and the newest of those first, each field named', async () => {
    sb = await startTestSandbox()
    const wallet = await institutionalWallet(sb, 'polygon', 'USDC') // GET /v1/wallets?…
    await pay({ amount: '10' })
    await pay({ amount: '10.0' })
    await sb.api.get('/v1/payments').set(sb.auth()).expect(200)
    await sb.api.post('/v1/payments').set(sb.auth()).send({ amount: 'ten' }).expect(400)
    await sb.api.get(`/v1/wallets/${wallet.id}`).set(sb.auth()).expect(200)
    await sb.api.get('/v1/prices').set(sb.auth()).expect(200)
    await sb.api.get('/v1/wallets').set(sb.auth(OTHER_KEY)).expect(200)
    const result = await expectation({ ...own, method: 'POST', path: '/v1/payments', body: { amount: '10.00' }, status: 201 })
    expect(result.satisfied).toBe(false)
    expect(result.near_misses.map(({ request, differences }) => [`${request.method} ${request.path}`, differences.map((d) => d.field)])).toEqual([
      ['POST /v1/payments', ['body.amount']],
      ['POST /v1/payments', ['body.amount']],
      ['POST /v1/payments', ['body.amount', 'status']],
      ['GET /v1/payments', ['method', 'body', 'status']],
      ['GET /v1/prices', ['method', 'path', 'body', 'status']],
    ])
    expect(result.near_misses[0]!.differences[0]).toEqual({ field: 'body.amount', expected: '10.00', actual: '10.0' })
    expect(result.near_misses[1]!.differences[0]).toEqual({ field: 'body.amount', expected: '10.00', actual: '10' })
    expect(result.near_misses[2]!.differences[1]).toEqual({ field: 'status', expected: 201, actual: 400 })
    expect(result.near_misses[4]!.differences).toEqual([
      { field: 'method', expected: 'POST', actual: 'GET' },
      { field: 'path', expected: '/v1/payments', actual: '/v1/prices' },
      { field: 'body', expected: { amount: '10.00' } },
      { field: 'status', expected: 201, actual: 200 },
    ])
  })

  it('is empty when the account sent nothing', async () => {
    sb = await startTestSandbox()
    await sb.api.get('/v1/wallets').set(sb.auth(OTHER_KEY)).expect(200)
    expect(await expectation({ ...own, path: '/v1/payments' })).toEqual({ satisfied: false, matched: [], near_misses: [] })
  })
})

describe('POST /_sandbox/requests/expect refuses a bad expectation', () => {
  it.each([
    [{ path: '/v1/payments' }, 400, 'parameter_missing', 'api_key'],
    [{ ...own, method: 'FETCH' }, 400, 'parameter_invalid', 'method'],
    [{ ...own, path: 'payments' }, 400, 'parameter_invalid', 'path'],
    [{ ...own, query: { network: 1 } }, 400, 'parameter_invalid', 'query.network'],
    [{ ...own, headers: { 'idempotency-key': 1 } }, 400, 'parameter_invalid', 'headers.idempotency-key'],
    [{ ...own, headers: { 'bad name': true } }, 400, 'parameter_invalid', 'headers.bad name'],
    [{ ...own, status: '6xx' }, 400, 'parameter_invalid', 'status'],
    [{ ...own, status: 99 }, 400, 'parameter_invalid', 'status'],
    [{ ...own, count: -1 }, 400, 'parameter_invalid', 'count'],
    [{ ...own, count: 1.5 }, 400, 'parameter_invalid', 'count'],
    [{ ...own, exactly: 'yes' }, 400, 'parameter_invalid', 'exactly'],
    [{ ...own, within_ms: 30_001 }, 400, 'parameter_invalid', 'within_ms'],
    [{ ...own, colour: 'red' }, 400, 'parameter_invalid', 'colour'],
    [{ api_key: 'sk_test_nobody_has_this' }, 404, 'resource_missing', 'api_key'],
    [{ account_id: 'acct_nobody' }, 404, 'resource_missing', 'account_id'],
  ])('%o: %i %s naming %s', async (body, status, code, param) => {
    sb = await startTestSandbox()
    await sb.api.get('/v1/wallets').set(sb.auth()).expect(200)
    expect((await expectation(body, status)).error).toMatchObject({ code, param })
  })

  it.each([
    [{ ...own, within_ms: 31_000 }, 'within_ms must be at most 30,000.'],
    [{ ...own, count: -1 }, 'count must be at least 0.'],
    [{ ...own, query: { '': 'x' } }, 'query parameter names must not be empty.'],
    [{ ...own, path: `/${'a'.repeat(2048)}` }, 'path must be at most 2,048 characters long.'],
  ])('%o says what it allows: %s', async (body, message) => {
    sb = await startTestSandbox()
    await sb.api.get('/v1/wallets').set(sb.auth()).expect(200)
    expect((await expectation(body, 400)).error.message).toBe(message)
  })
})
