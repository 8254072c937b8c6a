import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_KEY, institutionalWallet, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

/** `GET /_sandbox/requests` (CONTRACT.md section 23): its filters, `after` and `wait`. */

const EVM = '0x52908400098527886E0F7030069857D2E4169EE7'
const OTHER_KEY = 'sk_test_request_filters_other'

let sb: TestSandbox
afterEach(() => sb?.close())

type Entry = { id: string; method: string; path: string; status: number | null; idempotency_key: string | null; replayed: boolean }
const journal = async (query: Record<string, string | number>, status = 200) => (await sb.api.get('/_sandbox/requests').query(query).expect(status)).body
const lines = async (query: Record<string, string | number>) => (await journal(query)).data.map((entry: Entry) => `${entry.method} ${entry.path} ${entry.status}`)

/** The default account's calls: a wallet read, its balance, a missing wallet, a payment (with a key) and its replay; the other key's wallet list. */
async function traffic() {
  const wallet = await institutionalWallet(sb, 'polygon', 'USDC')
  await sb.api.get(`/v1/wallets/${wallet.id}/balance`).set(sb.auth()).expect(200)
  await sb.api.get('/v1/wallets/wal_unknown').set(sb.auth()).expect(404)
  const payment = { amount: '1.00', currency: 'USDC', source_wallet: wallet.id, recipient: EVM }
  const first = await sb.api.post('/v1/payments').set(sb.auth()).set('Idempotency-Key', 'order-7').send(payment).expect(201)
  await sb.api.post('/v1/payments').set(sb.auth()).set('Idempotency-Key', 'order-7').send(payment).expect(201)
  await sb.api.get('/v1/wallets').set(sb.auth(OTHER_KEY)).expect(200)
  return { wallet, payment: first.body.data as { id: string }, firstRequestId: first.headers['x-request-id'] as string }
}

describe('GET /_sandbox/requests filters', () => {
  it('selects an account by api_key or account_id; without either, every request', async () => {
    sb = await startTestSandbox()
    await traffic()
    const account = sb.sandbox.store.keys.get(DEFAULT_KEY)!.account_id
    expect(await lines({ api_key: OTHER_KEY })).toEqual(['GET /v1/wallets 200'])
    expect(await lines({ account_id: account })).toHaveLength(5)
    expect(await lines({ api_key: DEFAULT_KEY, account_id: account })).toHaveLength(5)
    expect(await lines({})).toHaveLength(6)
    expect((await journal({ api_key: 'sk_test_nobody_has_this' }, 404)).error).toMatchObject({ code: 'resource_missing', param: 'api_key' })
    expect((await journal({ account_id: 'acct_nobody' }, 404)).error).toMatchObject({ code: 'resource_missing', param: 'account_id' })
    expect((await journal({ api_key: OTHER_KEY, account_id: account }, 400)).error).toMatchObject({ code: 'parameter_invalid', param: 'account_id' })
  })

  it('filters by method, path (exact, template, prefix), status (code or class) and idempotency_key', async () => {
    sb = await startTestSandbox()
    const { wallet } = await traffic()
    const own = { api_key: DEFAULT_KEY }
    expect(await lines({ ...own, method: 'post' })).toEqual(['POST /v1/payments 201', 'POST /v1/payments 201'])
    expect(await lines({ ...own, path: '/v1/wallets' })).toEqual(['GET /v1/wallets 200'])
    expect(await lines({ ...own, path: '/v1/wallets/{id}' })).toEqual(['GET /v1/wallets/wal_unknown 404'])
    expect(await lines({ ...own, path: '/v1/wallets/{id}/balance' })).toEqual([`GET /v1/wallets/${wallet.id}/balance 200`])
    expect(await lines({ ...own, path: '/v1/wallets/{id}/*' })).toEqual([`GET /v1/wallets/${wallet.id}/balance 200`])
    expect(await lines({ ...own, path: '/v1/wallets*' })).toHaveLength(3)
    expect(await lines({ ...own, status: 404 })).toEqual(['GET /v1/wallets/wal_unknown 404'])
    expect(await lines({ ...own, status: '4xx' })).toEqual(['GET /v1/wallets/wal_unknown 404'])
    expect(await lines({ ...own, status: '2xx' })).toHaveLength(4)
    expect(await lines({ ...own, status: '5xx' })).toEqual([])
    const keyed = (await journal({ ...own, idempotency_key: 'order-7' })).data as Entry[]
    expect(keyed.map((entry) => entry.replayed)).toEqual([true, false])
    expect(await lines({ ...own, idempotency_key: 'order-8' })).toEqual([])
  })

  it('after a request id: only the requests recorded after it (after the replay, for an id a replay shares)', async () => {
    sb = await startTestSandbox()
    await sb.api.get('/v1/wallets').set(sb.auth()).expect(200)
    const [first] = (await journal({ api_key: DEFAULT_KEY })).data as Entry[]
    const { firstRequestId } = await traffic()
    expect(await lines({ api_key: DEFAULT_KEY, after: first!.id })).toEqual([
      'POST /v1/payments 201', 'POST /v1/payments 201', 'GET /v1/wallets/wal_unknown 404', expect.stringMatching(/balance 200$/), 'GET /v1/wallets 200',
    ])
    expect(await lines({ after: firstRequestId })).toEqual(['GET /v1/wallets 200'])
    expect(await lines({ api_key: DEFAULT_KEY, after: firstRequestId })).toEqual([])
    const error = (await journal({ api_key: OTHER_KEY, after: first!.id }, 400)).error
    expect(error).toMatchObject({ code: 'parameter_invalid', param: 'after' })
    expect(error.message).toContain(`the journal holds no request '${first!.id}'`)
  })

  it('limit and offset page the answer, with the total', async () => {
    sb = await startTestSandbox()
    await traffic()
    const page = await journal({ limit: 2, offset: 1 })
    expect(page.pagination).toEqual({ limit: 2, offset: 1, total: 6, has_more: true })
    expect(page.data.map((entry: Entry) => entry.path)).toEqual(['/v1/payments', '/v1/payments'])
  })

  it.each([
    [{ status: 'abc' }, 'status'],
    [{ status: '6xx' }, 'status'],
    [{ method: 'FETCH' }, 'method'],
    [{ path: 'v1' }, 'path'],
    [{ path: '/v1/{not a name}' }, 'path'],
    [{ path: '/v1/*/payments' }, 'path'],
    [{ wait: 30_001 }, 'wait'],
    [{ wait: -1 }, 'wait'],
    [{ limit: 0 }, 'limit'],
    [{ idempotency_key: '' }, 'idempotency_key'],
    [{ colour: 'red' }, 'colour'],
  ])('rejects %o with 400 parameter_invalid naming %s', async (query, param) => {
    sb = await startTestSandbox()
    expect((await journal(query, 400)).error).toMatchObject({ code: 'parameter_invalid', param })
  })
})

describe('GET /_sandbox/requests?wait=', () => {
  it('waits for a matching request, under a manual clock, and answers as soon as it has been answered', async () => {
    sb = await startTestSandbox({ clock: 'manual' })
    const wallet = await institutionalWallet(sb, 'polygon', 'USDC')
    const started = performance.now()
    // Far longer than the test may take: only the request can end this wait.
    const waiting = sb.api.get('/_sandbox/requests').query({ api_key: DEFAULT_KEY, method: 'POST', path: '/v1/payments', wait: 30_000 }).then((res) => ({ body: res.body, at: performance.now() }))
    // Requests that do not match do not end it.
    await sb.api.get('/v1/payments').set(sb.auth()).expect(200)
    await sb.api.post('/v1/wallets').set(sb.auth(OTHER_KEY)).send({ name: 'x', currency: 'USDC', network: 'polygon' }).expect(201)
    await new Promise((resolve) => setTimeout(resolve, 200))
    const created = await sb.api.post('/v1/payments').set(sb.auth()).send({ amount: '1.00', currency: 'USDC', source_wallet: wallet.id, recipient: EVM }).expect(201)
    const answered = performance.now()
    const { body, at } = await waiting
    expect(body.data.map((entry: Entry) => entry.id)).toEqual([created.headers['x-request-id']])
    expect(at - started).toBeGreaterThanOrEqual(200)
    expect(at - answered).toBeLessThan(100)
  })

  it('answers at once when a request matches already, and an empty list once the wait is over', async () => {
    sb = await startTestSandbox()
    await sb.api.get('/v1/wallets').set(sb.auth()).expect(200)
    const started = performance.now()
    expect((await journal({ api_key: DEFAULT_KEY, wait: 30_000 })).data).toHaveLength(1)
    expect(performance.now() - started).toBeLessThan(5000)
    expect((await journal({ api_key: DEFAULT_KEY, method: 'DELETE', wait: 20 })).data).toEqual([])
  })

  it('with after, waits for a request later than that one', async () => {
    sb = await startTestSandbox()
    await sb.api.get('/v1/wallets').set(sb.auth()).expect(200)
    const [seen] = (await journal({ api_key: DEFAULT_KEY })).data as Entry[]
    const waiting = journal({ api_key: DEFAULT_KEY, after: seen!.id, wait: 30_000 })
    const next = await sb.api.get('/v1/payments').set(sb.auth()).expect(200)
    expect((await waiting).data.map((entry: Entry) => entry.id)).toEqual([next.headers['x-request-id']])
  })
})
