import { Agent, get } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { createControlClient } from '../../src/client/control-client.js'
import { DEFAULT_KEY, institutionalWallet, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

/** `GET /_sandbox/requests` (CONTRACT.md sections 10 and 23): a bounded journal of recent /v1 requests, per account. */

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
      headers: expect.objectContaining({ authorization: 'Bearer sk_test_…_key', 'idempotency-key': 'order-1', 'content-type': 'application/json' }),
      replayed: false,
      fault: null,
      at: '2026-01-01T00:00:00.000Z',
      request_body: JSON.stringify({ amount: '1.00', currency: 'USDC', source_wallet: source.id, recipient: EVM }),
      response_body: JSON.stringify(created.body),
      truncated: false,
    })
    expect(body.data[1]).toMatchObject({ method: 'GET', path: '/v1/wallets', query: 'type=institutional&network=polygon&currency=USDC', status: 200, request_body: null })
    expect(JSON.parse(body.data[1].response_body).data[0]).toMatchObject({ id: source.id })
  })

  it('keeps bodies to their first 64 KB, cut at a character and marked truncated, and answers an idempotent replay\'s body too', async () => {
    sb = await startTestSandbox()
    await sb.api.post('/v1/wallets').set(sb.auth()).send({ name: 'x'.repeat(70_000), currency: 'USDC', network: 'solana' }).expect(400)
    const [refused] = (await journal()).data
    expect(refused.request_body).toHaveLength(65_536)
    expect(refused.request_body.startsWith('{"name":"xxx')).toBe(true)
    expect(refused.truncated).toBe(true)
    expect(JSON.parse(refused.response_body).error.code).toBe('parameter_invalid')
    // Three bytes a character: the cut falls inside one, which is left out whole.
    await sb.api.post('/v1/wallets').set(sb.auth()).send({ name: '€'.repeat(30_000), currency: 'USDC', network: 'solana' }).expect(400)
    const [euros] = (await journal()).data
    expect(Buffer.byteLength(euros.request_body)).toBeGreaterThan(65_533)
    expect(Buffer.byteLength(euros.request_body)).toBeLessThanOrEqual(65_536)
    expect(euros.request_body).not.toContain('\ufffd')
    expect(euros.truncated).toBe(true)

    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    const send = () => sb.api.post('/v1/payments').set(sb.auth()).set('Idempotency-Key', 'k').send({ amount: '1.00', currency: 'USDC', source_wallet: source.id, recipient: EVM }).expect(201)
    const first = await send()
    await send()
    const [replay] = (await journal()).data
    expect(replay).toMatchObject({ replayed: true, response_body: JSON.stringify(first.body), truncated: false })
  })

  it('keeps the first 64 KB of an answer sent as bytes, the OpenAPI document\'s', async () => {
    sb = await startTestSandbox()
    const document = await sb.api.get('/v1/openapi.json').expect(200)
    const [entry] = (await journal()).data
    expect(entry).toMatchObject({ method: 'GET', path: '/v1/openapi.json', status: 200, request_body: null, truncated: true })
    expect(Buffer.byteLength(entry.response_body)).toBeGreaterThan(65_533)
    expect(document.text.startsWith(entry.response_body)).toBe(true)
  })

  it('includes requests that failed authentication or found no route, and leaves out the control API', async () => {
    sb = await startTestSandbox()
    await sb.api.get('/v1/wallets').expect(401)
    await sb.api.get('/v1/wallets').set('Authorization', 'Bearer sk_live_abcdefghijkl').expect(401)
    await sb.api.get('/v1/nothing-here').set(sb.auth()).expect(404)
    await sb.api.get('/_sandbox/clock').expect(200)
    const { data } = await journal()
    // A known key's request belongs to its account even when no route took it.
    const account = sb.sandbox.store.keys.get(DEFAULT_KEY)!.account_id
    expect(data.map((entry: { path: string; status: number; api_key: string | null; account_id: string | null }) => [entry.path, entry.status, entry.api_key, entry.account_id])).toEqual([
      ['/v1/nothing-here', 404, 'sk_test_…_key', account],
      ['/v1/wallets', 401, 'sk_live_…ijkl', null],
      ['/v1/wallets', 401, null, null],
    ])
    expect((await journal('?account_id=none')).data.map((entry: { api_key: string | null }) => entry.api_key)).toEqual(['sk_live_…ijkl', null])
    expect((await journal(`?account_id=${account}`)).data.map((entry: { path: string }) => entry.path)).toEqual(['/v1/nothing-here'])
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

  it('keeps the last --request-log-limit requests of each account, and as many without one', async () => {
    const LIMIT = 40
    sb = await startTestSandbox({ requestLogLimit: LIMIT })
    // Keep-alive and a few requests at a time.
    const agent = new Agent({ keepAlive: true, maxSockets: 8 })
    const send = (i: number, key?: string | null) => fetchWith(agent, `${sb.url}/v1/wallets/wal_${i}`, key)
    // The first five one by one, so that they are surely the five oldest.
    for (let i = 0; i < 5; i++) await send(i)
    for (let i = 5; i < LIMIT + 5; i += 8) await Promise.all(Array.from({ length: 8 }, (_, j) => send(i + j)))
    for (let i = 0; i < 3; i++) await send(i, OTHER_KEY)
    for (let i = 0; i < LIMIT + 2; i++) await send(i, null)
    agent.destroy()
    const pathsOf = async (query: string) => {
      const paths: string[] = []
      for (let offset = 0; ; offset += 100) {
        const page = await journal(`?${query}&limit=100&offset=${offset}`)
        paths.push(...page.data.map((entry: { path: string }) => entry.path))
        if (!page.pagination.has_more) return paths
      }
    }
    const own = await pathsOf(`api_key=${DEFAULT_KEY}`)
    expect(own).toHaveLength(LIMIT)
    expect(own.at(-1)).toBe('/v1/wallets/wal_5')
    expect(await pathsOf(`api_key=${OTHER_KEY}`)).toEqual(['/v1/wallets/wal_2', '/v1/wallets/wal_1', '/v1/wallets/wal_0'])
    const unowned = await pathsOf('account_id=none')
    expect(unowned).toHaveLength(LIMIT)
    expect(unowned.at(-1)).toBe('/v1/wallets/wal_2')
    expect((await journal('?limit=1')).pagination.total).toBe(2 * LIMIT + 3)
  })

  it('keeps nothing with --request-log-limit 0, and says so instead of answering an empty journal', async () => {
    sb = await startTestSandbox({ requestLogLimit: 0 })
    await sb.api.get('/v1/wallets').set(sb.auth()).expect(200)
    const listed = await sb.api.get('/_sandbox/requests').expect(409)
    expect(listed.body.error).toMatchObject({ code: 'request_log_disabled' })
    expect(listed.body.error.message).toContain('--request-log-limit 0')
    const expected = await sb.api.post('/_sandbox/requests/expect').send({ api_key: DEFAULT_KEY, count: 0, exactly: true }).expect(409)
    expect(expected.body.error.code).toBe('request_log_disabled')
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

  it('dates an account\'s request on the account\'s clock, an hour ahead once that account alone was advanced', async () => {
    sb = await startTestSandbox()
    await sb.api.get('/v1/wallets').set(sb.auth()).expect(200)
    await sb.api.post('/_sandbox/clock/advance').send({ ms: 3_600_000, api_key: DEFAULT_KEY }).expect(200)
    const later = await sb.api.get('/v1/wallets').set(sb.auth()).expect(200)
    await sb.api.get('/v1/wallets').expect(401)
    const [unowned, ahead, before] = (await journal()).data
    expect([unowned.at, ahead.at, before.at]).toEqual(['2026-01-01T00:00:00.000Z', '2026-01-01T01:00:00.000Z', '2026-01-01T00:00:00.000Z'])
    expect(ahead.id).toBe(later.headers['x-request-id'])
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

/** One GET over the given agent with `key` (null: none), resolved once the answer is read. */
function fetchWith(agent: Agent, url: string, key: string | null = DEFAULT_KEY): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { agent, headers: key === null ? {} : { Authorization: `Bearer ${key}` } }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
    }).on('error', reject)
  })
}
