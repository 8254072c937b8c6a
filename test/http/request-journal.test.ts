import { Agent, get } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { createControlClient } from '../../src/client/control-client.js'
import { JOURNAL_CAPACITY } from '../../src/control/request-journal.js'
import { DEFAULT_KEY, institutionalWallet, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

/** `GET /_sandbox/requests` (CONTRACT.md section 10): a bounded journal of recent /v1 requests. */

const EVM = '0x52908400098527886E0F7030069857D2E4169EE7'
const OTHER_KEY = 'sk_test_journal_other_key'

let sb: TestSandbox
afterEach(() => sb?.close())

const journal = async (query = '') => (await sb.api.get(`/_sandbox/requests${query}`).expect(200)).body

describe('GET /_sandbox/requests', () => {
  it('lists /v1 requests newest first, with what was sent and answered', async () => {
    sb = await startTestSandbox()
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    const created = await sb.api.post('/v1/payments').set(sb.auth()).set('Idempotency-Key', 'order-1')
      .send({ amount: '1.00', currency: 'USDC', source_wallet: source.id, recipient: EVM }).expect(201)
    const body = await journal()
    expect(body.pagination).toEqual({ limit: 20, offset: 0, total: 2, has_more: false })
    expect(body.data[0]).toEqual({
      id: created.headers['x-request-id'],
      method: 'POST',
      path: '/v1/payments',
      query: null,
      status: 201,
      duration_ms: expect.any(Number),
      api_key: 'sk_test_…_key',
      account_id: sb.sandbox.store.keys.get(DEFAULT_KEY)!.account_id,
      idempotency_key: 'order-1',
      replayed: false,
      fault: null,
      at: '2026-01-01T00:00:00.000Z',
      request_body: JSON.stringify({ amount: '1.00', currency: 'USDC', source_wallet: source.id, recipient: EVM }),
      response_body: JSON.stringify(created.body),
    })
    expect(body.data[1]).toMatchObject({ method: 'GET', path: '/v1/wallets', query: 'type=institutional&network=polygon&currency=USDC', status: 200, request_body: null })
    expect(JSON.parse(body.data[1].response_body).data[0]).toMatchObject({ id: source.id })
  })

  it('keeps bodies to their first 4,096 characters, and answers an idempotent replay\'s body too', async () => {
    sb = await startTestSandbox()
    const long = 'x'.repeat(5000)
    await sb.api.post('/v1/wallets').set(sb.auth()).send({ name: long, currency: 'USDC', network: 'solana' }).expect(400)
    const [refused] = (await journal()).data
    expect(refused.request_body).toHaveLength(4096)
    expect(refused.request_body.startsWith('{"name":"xxx')).toBe(true)
    expect(JSON.parse(refused.response_body).error.code).toBe('parameter_invalid')

    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    const send = () => sb.api.post('/v1/payments').set(sb.auth()).set('Idempotency-Key', 'k').send({ amount: '1.00', currency: 'USDC', source_wallet: source.id, recipient: EVM }).expect(201)
    const first = await send()
    await send()
    const [replay] = (await journal()).data
    expect(replay).toMatchObject({ replayed: true, response_body: JSON.stringify(first.body) })
  })

  it('keeps the first 4,096 characters of an answer sent as bytes, the OpenAPI document\'s', async () => {
    sb = await startTestSandbox()
    const document = await sb.api.get('/v1/openapi.json').expect(200)
    const [entry] = (await journal()).data
    expect(entry).toMatchObject({ method: 'GET', path: '/v1/openapi.json', status: 200, request_body: null })
    expect(entry.response_body).toBe(document.text.slice(0, 4096))
  })

  it('includes requests that failed authentication or found no route, and leaves out the control API', async () => {
    sb = await startTestSandbox()
    await sb.api.get('/v1/wallets').expect(401)
    await sb.api.get('/v1/wallets').set('Authorization', 'Bearer sk_live_abcdefghijkl').expect(401)
    await sb.api.get('/v1/nothing-here').set(sb.auth()).expect(404)
    await sb.api.get('/_sandbox/clock').expect(200)
    const { data } = await journal()
    expect(data.map((entry: { path: string; status: number; api_key: string | null; account_id: string | null }) => [entry.path, entry.status, entry.api_key, entry.account_id])).toEqual([
      ['/v1/nothing-here', 404, 'sk_test_…_key', null],
      ['/v1/wallets', 401, 'sk_live_…ijkl', null],
      ['/v1/wallets', 401, null, null],
    ])
  })

  it('never holds a whole key, in the header or the query string', async () => {
    sb = await startTestSandbox()
    await sb.api.get(`/v1/wallets?api_key=${DEFAULT_KEY}&limit=1`).set(sb.auth()).expect(400)
    const text = JSON.stringify(await journal())
    expect(text).not.toContain(DEFAULT_KEY)
    expect((await journal()).data[0].query).toBe('api_key=sk_test_…_key&limit=1')
  })

  it('marks idempotent replays and injected faults; a request without an answer has status null', async () => {
    sb = await startTestSandbox()
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    const payment = { amount: '1.00', currency: 'USDC', source_wallet: source.id, recipient: EVM }
    await sb.api.post('/_sandbox/faults').send({ fault: 'commit_then_drop', times: 1 }).expect(201)
    await expect(sb.api.post('/v1/payments').set(sb.auth()).set('Idempotency-Key', 'k1').send(payment)).rejects.toThrow()
    const replay = await sb.api.post('/v1/payments').set(sb.auth()).set('Idempotency-Key', 'k1').send(payment).expect(201)
    await sb.api.post('/_sandbox/faults').send({ fault: 'error', times: 1 }).expect(201)
    await sb.api.get('/v1/payments').set(sb.auth()).expect(503)
    const { data } = await journal()
    expect(data.slice(0, 3).map((entry: { status: number | null; replayed: boolean; fault: string | null; id: string }) => [entry.status, entry.replayed, entry.fault])).toEqual([
      [503, false, 'error'],
      [201, true, null],
      [null, false, 'commit_then_drop'],
    ])
    // A replay carries the first request's id, as its X-Request-Id does.
    expect(data[1].id).toBe(replay.headers['x-request-id'])
    expect(data[1].id).toBe(data[2].id)
  })

  it('filters by method, exact path, path prefix, status and account, and pages', async () => {
    sb = await startTestSandbox()
    const wallet = await institutionalWallet(sb, 'polygon', 'USDC')
    await sb.api.get(`/v1/wallets/${wallet.id}/balance`).set(sb.auth()).expect(200)
    await sb.api.get('/v1/wallets/wal_unknown').set(sb.auth()).expect(404)
    await sb.api.post('/v1/wallets').set(sb.auth(OTHER_KEY)).send({ name: 'x', currency: 'USDC', network: 'polygon' }).expect(201)
    const paths = async (query: string) => (await journal(query)).data.map((entry: { method: string; path: string }) => `${entry.method} ${entry.path}`)

    expect(await paths('?method=post')).toEqual(['POST /v1/wallets'])
    expect(await paths('?path=/v1/wallets')).toEqual(['POST /v1/wallets', 'GET /v1/wallets'])
    expect(await paths('?path=/v1/wallets/*')).toEqual(['GET /v1/wallets/wal_unknown', `GET /v1/wallets/${wallet.id}/balance`])
    expect(await paths('?status=404')).toEqual(['GET /v1/wallets/wal_unknown'])
    const otherAccount = sb.sandbox.store.keys.get(OTHER_KEY)!.account_id
    expect(await paths(`?account_id=${otherAccount}`)).toEqual(['POST /v1/wallets'])

    const page = await journal('?limit=2&offset=1')
    expect(page.pagination).toEqual({ limit: 2, offset: 1, total: 4, has_more: true })
    expect(page.data.map((entry: { path: string }) => entry.path)).toEqual(['/v1/wallets/wal_unknown', `/v1/wallets/${wallet.id}/balance`])
  })

  it.each([
    ['?status=abc', 'status'],
    ['?method=FETCH', 'method'],
    ['?path=v1', 'path'],
    ['?limit=0', 'limit'],
    ['?offset=-1', 'offset'],
    ['?colour=red', 'colour'],
  ])('rejects %s with 400 parameter_invalid on %s', async (query, param) => {
    sb = await startTestSandbox()
    const res = await sb.api.get(`/_sandbox/requests${query}`).expect(400)
    expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param })
  })

  it(`keeps the last ${JOURNAL_CAPACITY} requests`, async () => {
    sb = await startTestSandbox()
    // Keep-alive and a few requests at a time: 505 requests in well under a second.
    const agent = new Agent({ keepAlive: true, maxSockets: 8 })
    const send = (i: number) => fetchWith(agent, `${sb.url}/v1/wallets/wal_${i}`)
    // The first five one by one, so that they are surely the five oldest.
    for (let i = 0; i < 5; i++) await send(i)
    for (let i = 5; i < JOURNAL_CAPACITY + 5; i += 8) await Promise.all(Array.from({ length: Math.min(8, JOURNAL_CAPACITY + 5 - i) }, (_, j) => send(i + j)))
    agent.destroy()
    const body = await journal('?limit=1')
    expect(body.pagination.total).toBe(JOURNAL_CAPACITY)
    const paths = new Set<string>()
    for (let offset = 0; offset < JOURNAL_CAPACITY; offset += 100) {
      for (const entry of (await journal(`?limit=100&offset=${offset}`)).data) paths.add(entry.path)
    }
    expect(paths.size).toBe(JOURNAL_CAPACITY)
    for (let i = 0; i < 5; i++) expect(paths.has(`/v1/wallets/wal_${i}`)).toBe(false)
    expect(paths.has(`/v1/wallets/wal_5`)).toBe(true)
  })

  it('a reset clears it; an account reset only clears that account', async () => {
    sb = await startTestSandbox()
    await sb.api.get('/v1/wallets').set(sb.auth()).expect(200)
    await sb.api.get('/v1/wallets').set(sb.auth(OTHER_KEY)).expect(200)
    await sb.api.get('/v1/wallets').expect(401)
    await sb.api.post('/_sandbox/reset').send({ api_key: OTHER_KEY }).expect(200)
    expect((await journal()).data.map((entry: { api_key: string | null }) => entry.api_key)).toEqual([null, 'sk_test_…_key'])
    await sb.api.post('/_sandbox/reset').send({}).expect(200)
    expect((await journal()).data).toEqual([])
  })

  it('needs the control token when --control-token is set', async () => {
    sb = await startTestSandbox({ controlToken: 'letmein' })
    expect((await sb.api.get('/_sandbox/requests').expect(401)).body.error.code).toBe('control_token_invalid')
    await sb.api.get('/_sandbox/requests').set('Authorization', 'Bearer letmein').expect(200)
  })
})

describe('the control client', () => {
  it('adds, lists and removes faults, and reads the journal', async () => {
    sb = await startTestSandbox({ controlToken: 'letmein' })
    const control = createControlClient({ baseUrl: sb.url, controlToken: 'letmein' })
    const fault = await control.addFault({ match: { path: '/v1/wallets' }, fault: 'error', status: 500, times: 1 })
    expect(await control.listFaults()).toEqual([fault])
    await sb.api.get('/v1/wallets').set(sb.auth()).expect(500)
    await sb.api.get('/v1/payments').set(sb.auth()).expect(200)
    expect((await control.requests({ status: 500 })).map((entry) => [entry.path, entry.fault])).toEqual([['/v1/wallets', 'error']])
    expect((await control.requests({ limit: 1 })).map((entry) => entry.path)).toEqual(['/v1/payments'])
    expect(await control.removeFault(fault.id)).toEqual({ id: fault.id, object: 'fault', deleted: true })
    await control.addFault({ fault: 'drop' })
    expect(await control.removeFaults()).toEqual({ deleted: 1 })
    await expect(control.removeFault(fault.id)).rejects.toMatchObject({ status: 404, code: 'resource_missing' })
    await expect(control.addFault({ fault: 'error', status: 404 as 500 })).rejects.toMatchObject({ status: 400, code: 'parameter_invalid', param: 'status' })
  })
})

/** One GET over the given agent, resolved once the answer is read. */
function fetchWith(agent: Agent, url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { agent, headers: { Authorization: `Bearer ${DEFAULT_KEY}` } }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
    }).on('error', reject)
  })
}
