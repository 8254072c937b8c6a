import { request as httpRequest } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { institutionalWallet, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

const EVM_RECIPIENT = '0x52908400098527886E0F7030069857D2E4169EE7'
const REQUEST_ID = /^req_[0-9A-Za-z]{24}$/

let sb: TestSandbox
afterEach(() => sb?.close())

type Res = { status: number; text: string; body: any; headers: Record<string, string> }

/** Every answer: JSON, the one error shape for errors, and the same request id in header and body. */
function expectWellFormed(res: Res): void {
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
  expect(res.headers['x-request-id']).toMatch(REQUEST_ID)
  expect(res.text).not.toMatch(/<html|<!DOCTYPE|\n\s+at /i)
  if (res.status >= 400) {
    expect(Object.keys(res.body).sort()).toEqual(['error', 'request_id'])
    expect(Object.keys(res.body.error).every((k) => ['type', 'code', 'message', 'param'].includes(k))).toBe(true)
    expect(typeof res.body.error.message).toBe('string')
  }
  if (res.body && typeof res.body === 'object' && 'request_id' in res.body) expect(res.body.request_id).toBe(res.headers['x-request-id'])
}

function expectError(res: Res, status: number, code: string, param?: string): void {
  expectWellFormed(res)
  expect(res.status).toBe(status)
  expect(res.body.error.code).toBe(code)
  if (param !== undefined) expect(res.body.error.param).toBe(param)
}

async function walletCount(): Promise<number> {
  const res = await sb.api.get('/v1/wallets?limit=1').set(sb.auth()).expect(200)
  return res.body.pagination.total
}

describe('the wrapped envelope (default)', () => {
  it('wraps a single resource as {data, request_id}', async () => {
    sb = await startTestSandbox()
    const wallet = await institutionalWallet(sb, 'polygon', 'USDC')
    const res = await sb.api.get(`/v1/wallets/${wallet.id}`).set(sb.auth()).expect(200)
    expect(Object.keys(res.body).sort()).toEqual(['data', 'request_id'])
    expect(res.body.data).toMatchObject({ id: wallet.id, object: 'wallet' })
    expectWellFormed(res)
  })

  it('wraps a list as {data, pagination, request_id}', async () => {
    sb = await startTestSandbox()
    const res = await sb.api.get('/v1/wallets?limit=2').set(sb.auth()).expect(200)
    expect(Object.keys(res.body).sort()).toEqual(['data', 'pagination', 'request_id'])
    expect(res.body.pagination).toEqual({ limit: 2, offset: 0, total: 14, has_more: true })
    expectWellFormed(res)
  })
})

describe('the bare envelope', () => {
  it('returns single resources unwrapped, still with X-Request-Id', async () => {
    sb = await startTestSandbox({ envelope: 'bare' })
    const list = await sb.api.get('/v1/wallets?type=institutional&network=polygon&currency=USDC').set(sb.auth()).expect(200)
    const id = list.body.data[0].id
    const wallet = await sb.api.get(`/v1/wallets/${id}`).set(sb.auth()).expect(200)
    expect(wallet.body).toMatchObject({ id, object: 'wallet' })
    expect(wallet.body).not.toHaveProperty('data')
    expect(wallet.body).not.toHaveProperty('request_id')
    expect(wallet.headers['x-request-id']).toMatch(REQUEST_ID)

    const balance = await sb.api.get(`/v1/wallets/${id}/balance`).set(sb.auth()).expect(200)
    expect(balance.body).toMatchObject({ object: 'balance', wallet_id: id })
    const created = await sb.api.post('/v1/wallets').set(sb.auth()).send({ name: 'Bare', currency: 'USDC', network: 'polygon' }).expect(201)
    expect(created.body).toMatchObject({ object: 'wallet', name: 'Bare' })
    const updated = await sb.api.put(`/v1/wallets/${created.body.id}`).set(sb.auth()).send({ name: 'Bare 2' }).expect(200)
    expect(updated.body).toMatchObject({ object: 'wallet', name: 'Bare 2' })
    const payment = await sb.api.post('/v1/payments').set(sb.auth()).send({ amount: '1', currency: 'USDC', source_wallet: id, recipient: EVM_RECIPIENT }).expect(201)
    expect(payment.body).toMatchObject({ object: 'payment', status: 'pending' })
    const fetched = await sb.api.get(`/v1/payments/${payment.body.id}`).set(sb.auth()).expect(200)
    expect(fetched.body).toEqual(payment.body)
  })

  it('keeps data and pagination on lists', async () => {
    sb = await startTestSandbox({ envelope: 'bare' })
    const res = await sb.api.get('/v1/wallets?limit=3&offset=1').set(sb.auth()).expect(200)
    expect(res.body.data).toHaveLength(3)
    expect(res.body.pagination).toEqual({ limit: 3, offset: 1, total: 14, has_more: true })
    expectWellFormed(res)
  })

  it('keeps errors enveloped', async () => {
    sb = await startTestSandbox({ envelope: 'bare' })
    expectError(await sb.api.get('/v1/wallets/wal_unknown').set(sb.auth()), 404, 'resource_missing')
    expectError(await sb.api.get('/v1/wallets'), 401, 'api_key_missing')
  })
})

describe('X-Request-Id', () => {
  it('matches the body’s request_id on every kind of answer', async () => {
    sb = await startTestSandbox({ bodyLimit: 1024 })
    const wallet = await institutionalWallet(sb, 'polygon', 'USDC')
    const answers: Res[] = [
      await sb.api.get('/v1/wallets').set(sb.auth()),
      await sb.api.get(`/v1/wallets/${wallet.id}`).set(sb.auth()),
      await sb.api.post('/v1/wallets').set(sb.auth()).send({ name: 'x', currency: 'USDC', network: 'polygon' }),
      await sb.api.post('/v1/wallets').set(sb.auth()).send({ name: 'x' }),
      await sb.api.get('/v1/wallets'),
      await sb.api.get('/v1/wallets').set({ Authorization: 'Bearer rk_test_sandbox_payments_loopback' }).query({}),
      await sb.api.post('/v1/wallets').set({ Authorization: 'Bearer rk_test_sandbox_read_only' }).send({}),
      await sb.api.get('/v1/wallets/wal_unknown').set(sb.auth()),
      await sb.api.get('/v1/no-such-thing').set(sb.auth()),
      await sb.api.get('/v1/no-such-thing'),
      await sb.api.patch('/v1/wallets').set(sb.auth()),
      await sb.api.post('/v1/wallets').set(sb.auth()).set('Content-Type', 'application/json').send('{"name":'),
      await sb.api.post('/v1/wallets').set(sb.auth()).send({ name: 'x'.repeat(2000) }),
      await sb.api.post('/v1/wallets').set(sb.auth()).set('Content-Type', 'text/plain').send('hi'),
    ]
    for (const res of answers) {
      expectWellFormed(res)
      expect(res.body.request_id).toBe(res.headers['x-request-id'])
    }
    expect(new Set(answers.map((res) => res.headers['x-request-id'])).size).toBe(answers.length)
  })
})

describe('unknown routes and wrong verbs', () => {
  it.each(['/', '/v1', '/v1/nope', '/v2/wallets', '/v1/wallets/a/b/c', '/v1/payments/x/refund'])('answers GET %s with 404 route_not_found', async (path) => {
    sb = await startTestSandbox()
    expectError(await sb.api.get(path).set(sb.auth()), 404, 'route_not_found')
  })

  it('answers an unknown route before checking the key', async () => {
    sb = await startTestSandbox()
    expectError(await sb.api.get('/v1/nope'), 404, 'route_not_found')
  })

  it.each([
    ['delete', '/v1/payments', 'POST, GET, HEAD'],
    ['patch', '/v1/wallets', 'POST, GET, HEAD'],
    ['post', '/v1/wallets/wal_x', 'GET, PUT, DELETE, HEAD'],
    ['put', '/v1/wallets/wal_x/balance', 'GET, HEAD'],
    ['put', '/v1/payments/pay_x', 'GET, HEAD'],
    ['get', '/v1/whitelisted_addresses/wla_x', 'DELETE'],
  ] as const)('answers %s %s with 405 method_not_allowed and Allow: %s', async (method, path, allow) => {
    sb = await startTestSandbox()
    const res = await sb.api[method](path).set(sb.auth())
    expectError(res, 405, 'method_not_allowed')
    expect(res.headers.allow).toBe(allow)
    expect(res.body.error.message).toContain(allow)
  })
})

describe('bodies', () => {
  it('answers invalid JSON with 400 invalid_json and never echoes the body', async () => {
    sb = await startTestSandbox()
    const before = await walletCount()
    for (const text of ['{"name": "SECRET-MARKER-4711",', "{'name': 'SECRET-MARKER-4711'}", '{name: "SECRET-MARKER-4711"}', 'SECRET-MARKER-4711']) {
      const res = await sb.api.post('/v1/wallets').set(sb.auth()).set('Content-Type', 'application/json').send(text)
      expectError(res, 400, 'invalid_json')
      expect(res.text).not.toContain('SECRET-MARKER')
    }
    expect(await walletCount()).toBe(before)
  })

  it('answers a body over the limit with 413 body_too_large (default 100 KB)', async () => {
    sb = await startTestSandbox()
    const res = await sb.api.post('/v1/wallets').set(sb.auth()).send({ name: 'x', currency: 'USDC', network: 'polygon', metadata: { k: 'v'.repeat(101 * 1024) } })
    expectError(res, 413, 'body_too_large')
    expect(await walletCount()).toBe(14)
  })

  it('accepts a body just under the configured limit and refuses one just over it', async () => {
    sb = await startTestSandbox({ bodyLimit: 200 })
    const body = (size: number) => {
      const base = JSON.stringify({ name: '', currency: 'USDC', network: 'polygon' })
      return JSON.stringify({ name: 'n'.repeat(size - base.length), currency: 'USDC', network: 'polygon' })
    }
    expect(body(200)).toHaveLength(200)
    await sb.api.post('/v1/wallets').set(sb.auth()).set('Content-Type', 'application/json').send(body(100)).expect(201)
    const over = await sb.api.post('/v1/wallets').set(sb.auth()).set('Content-Type', 'application/json').send(body(201))
    expectError(over, 413, 'body_too_large')
  })

  it('refuses an oversized chunked body that declares no length', async () => {
    sb = await startTestSandbox({ bodyLimit: 1024 })
    const { port } = new URL(sb.url)
    const res = await new Promise<Res>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port: Number(port), method: 'POST', path: '/v1/wallets', headers: { ...sb.auth(), 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' } },
        (response) => {
          let text = ''
          response.on('data', (chunk) => (text += chunk))
          response.on('end', () => resolve({ status: response.statusCode!, text, body: JSON.parse(text), headers: response.headers as Record<string, string> }))
        },
      )
      req.on('error', reject)
      req.write('{"name":"')
      for (let i = 0; i < 4; i++) req.write('x'.repeat(512))
      req.end('","currency":"USDC","network":"polygon"}')
    })
    expectError(res, 413, 'body_too_large')
    expect(await walletCount()).toBe(14)
  })

  it.each([
    ['text/plain', 'hello'],
    ['application/xml', '<wallet/>'],
    ['multipart/form-data; boundary=x', '--x--'],
  ])('answers Content-Type %s with 415 unsupported_media_type', async (type, text) => {
    sb = await startTestSandbox()
    expectError(await sb.api.post('/v1/wallets').set(sb.auth()).set('Content-Type', type).send(text), 415, 'unsupported_media_type')
    expect(await walletCount()).toBe(14)
  })

  it('answers a body without Content-Type with 415', async () => {
    sb = await startTestSandbox()
    const res = await sb.api.post('/v1/wallets').set(sb.auth()).send(Buffer.from('{"name":"x","currency":"USDC","network":"polygon"}'))
    expectError(res, 415, 'unsupported_media_type')
  })

  it('answers a form-encoded body with 415 naming --lenient when not lenient', async () => {
    sb = await startTestSandbox()
    const res = await sb.api.post('/v1/wallets').set(sb.auth()).type('form').send('name=x&currency=USDC&network=polygon')
    expectError(res, 415, 'unsupported_media_type')
    expect(res.body.error.message).toContain('--lenient')
  })

  it('accepts application/json with a charset parameter', async () => {
    sb = await startTestSandbox()
    await sb.api
      .post('/v1/wallets')
      .set(sb.auth())
      .set('Content-Type', 'application/json; charset=utf-8')
      .send(JSON.stringify({ name: 'x', currency: 'USDC', network: 'polygon' }))
      .expect(201)
  })
})

describe('never a 500, an HTML page or a stack for bad input', () => {
  const cases: Array<[string, (sb: TestSandbox) => any]> = [
    ['bad percent-encoding in the path', (s) => s.api.get('/v1/wallets/%E0%A4%A').set(s.auth())],
    ['a lone percent sign in the path', (s) => s.api.get('/v1/wallets/%').set(s.auth())],
    ['a very long path', (s) => s.api.get(`/v1/wallets/${'a'.repeat(5000)}`).set(s.auth())],
    ['a repeated query parameter', (s) => s.api.get('/v1/wallets?limit=1&limit=2').set(s.auth())],
    ['a bracketed query parameter', (s) => s.api.get('/v1/payments?status[$ne]=failed').set(s.auth())],
    ['a JSON null body', (s) => s.api.post('/v1/payments').set(s.auth()).set('Content-Type', 'application/json').send('null')],
    ['a JSON array body', (s) => s.api.post('/v1/payments').set(s.auth()).set('Content-Type', 'application/json').send('[]')],
    ['a JSON string body', (s) => s.api.post('/v1/wallets').set(s.auth()).set('Content-Type', 'application/json').send('"wallet"')],
    ['a JSON number body', (s) => s.api.put('/v1/wallets/wal_x').set(s.auth()).set('Content-Type', 'application/json').send('42')],
    ['an operator object for an amount', (s) => s.api.post('/v1/payments').set(s.auth()).send({ amount: { $gt: '0' }, currency: 'USDC', source_wallet: 'wal_x', recipient: 'x' })],
    ['a number too large for a double', (s) => s.api.post('/v1/payments').set(s.auth()).set('Content-Type', 'application/json').send('{"amount":1e400}')],
    ['deeply nested JSON', (s) => s.api.post('/v1/wallets').set(s.auth()).set('Content-Type', 'application/json').send(`${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`)],
    ['NUL characters in strings', (s) => s.api.post('/v1/wallets').set(s.auth()).send({ name: 'a\u0000b', currency: 'USDC\u0000', network: 'polygon' })],
    ['an empty JSON body on a POST', (s) => s.api.post('/v1/payments').set(s.auth()).set('Content-Type', 'application/json').send('')],
    ['OPTIONS on an API path', (s) => s.api.options('/v1/payments').set(s.auth())],
    ['a malformed Idempotency-Key', (s) => s.api.post('/v1/wallets').set(s.auth()).set('Idempotency-Key', 'has spaces in it').send({})],
  ]

  it.each(cases)('%s', async (_name, request) => {
    sb = await startTestSandbox()
    const res = await request(sb)
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(res.status).toBeLessThan(500)
    expectWellFormed(res)
  })

  it('ignores a body sent with a GET', async () => {
    sb = await startTestSandbox()
    const res = await sb.api.get('/v1/wallets').set(sb.auth()).send({ limit: 5 })
    expect(res.status).toBe(200)
    expect(res.body.pagination.limit).toBe(20)
  })

  it('answers a bug with 500 internal_error that shows neither the message nor the stack', async () => {
    sb = await startTestSandbox()
    sb.sandbox.services.wallets.list = () => {
      throw new Error('secret internal detail')
    }
    const res = await sb.api.get('/v1/wallets').set(sb.auth())
    expectError(res, 500, 'internal_error')
    expect(res.body.error.type).toBe('api_error')
    expect(res.text).not.toContain('secret internal detail')
    expect(res.body.error.message).toContain(res.body.request_id)
  })
})
