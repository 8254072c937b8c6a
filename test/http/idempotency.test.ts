import { afterEach, describe, expect, it, vi } from 'vitest'
import { DEFAULT_KEY, institutionalWallet, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

const EVM = '0x52908400098527886E0F7030069857D2E4169EE7'
const DAY_MS = 24 * 60 * 60 * 1000

let sb: TestSandbox
afterEach(() => sb?.close())

function postPayment(body: Record<string, unknown> | string, idempotencyKey?: string, key = DEFAULT_KEY) {
  const req = sb.api.post('/v1/payments').set(sb.auth(key))
  if (idempotencyKey !== undefined) req.set('Idempotency-Key', idempotencyKey)
  return typeof body === 'string' ? req.set('Content-Type', 'application/json').send(body) : req.send(body)
}

async function paymentTotal(key = DEFAULT_KEY): Promise<number> {
  return (await sb.api.get('/v1/payments?limit=1').set(sb.auth(key)).expect(200)).body.pagination.total
}

async function lockedOf(walletId: string, key = DEFAULT_KEY): Promise<string> {
  return (await sb.api.get(`/v1/wallets/${walletId}/balance`).set(sb.auth(key)).expect(200)).body.data.locked_balance
}

function accountOf(key: string) {
  return sb.sandbox.store.accounts.get(sb.sandbox.store.keys.get(key)!.account_id)!
}

async function setup(overrides: Parameters<typeof startTestSandbox>[0] = {}) {
  sb = await startTestSandbox(overrides)
  const source = await institutionalWallet(sb, 'polygon', 'USDC')
  return { source, body: { amount: '10.00', currency: 'USDC', source_wallet: source.id, recipient: EVM, metadata: { order: '1' } } }
}

describe('a retry with the same key and body', () => {
  it('gets the stored answer byte for byte, with Idempotent-Replayed: true and the first X-Request-Id, and does nothing else', async () => {
    const { source, body } = await setup()
    const first = await postPayment(body, 'order-1').expect(201)
    expect(first.headers['idempotent-replayed']).toBeUndefined()
    const retry = await postPayment(body, 'order-1').expect(201)
    expect(retry.text).toBe(first.text)
    expect(retry.headers['idempotent-replayed']).toBe('true')
    expect(retry.headers['x-request-id']).toBe(first.headers['x-request-id'])
    expect(retry.body.request_id).toBe(first.headers['x-request-id'])
    expect(retry.headers['content-type']).toBe(first.headers['content-type'])
    expect(await paymentTotal()).toBe(1)
    expect(await lockedOf(source.id)).toBe('10.00')
  })

  it('matches however the JSON keys are ordered and spaced', async () => {
    const { source } = await setup()
    const first = await postPayment(`{"amount":"10.00","currency":"USDC","source_wallet":"${source.id}","recipient":"${EVM}","metadata":{"a":"1","b":"2"}}`, 'reordered').expect(201)
    const retry = await postPayment(`{ "metadata": {"b":"2", "a":"1"}, "recipient": "${EVM}", "source_wallet": "${source.id}",\n "currency": "USDC", "amount": "10.00" }`, 'reordered').expect(201)
    expect(retry.headers['idempotent-replayed']).toBe('true')
    expect(retry.text).toBe(first.text)
    expect(await paymentTotal()).toBe(1)
  })

  it('treats the quoted form "key" as the same key', async () => {
    const { body } = await setup()
    const first = await postPayment(body, 'quoted-key').expect(201)
    const retry = await postPayment(body, '"quoted-key"').expect(201)
    expect(retry.headers['idempotent-replayed']).toBe('true')
    expect(retry.text).toBe(first.text)
  })

  it('works on POST /v1/wallets too', async () => {
    sb = await startTestSandbox()
    const body = { name: 'Once', currency: 'USDC', network: 'polygon' }
    const first = await sb.api.post('/v1/wallets').set(sb.auth()).set('Idempotency-Key', 'wallet-once').send(body).expect(201)
    const retry = await sb.api.post('/v1/wallets').set(sb.auth()).set('Idempotency-Key', 'wallet-once').send(body).expect(201)
    expect(retry.text).toBe(first.text)
    expect((await sb.api.get('/v1/wallets?limit=1').set(sb.auth()).expect(200)).body.pagination.total).toBe(15)
  })
})

describe('the same key with a different request', () => {
  it('is 422 idempotency_key_reused and creates nothing', async () => {
    const { source, body } = await setup()
    await postPayment(body, 'reuse-me').expect(201)
    const res = await postPayment({ ...body, amount: '20.00' }, 'reuse-me').expect(422)
    expect(res.body.error).toMatchObject({ type: 'idempotency_error', code: 'idempotency_key_reused' })
    expect(res.headers['idempotent-replayed']).toBeUndefined()
    expect(await paymentTotal()).toBe(1)
    expect(await lockedOf(source.id)).toBe('10.00')
  })

  it.each([
    ['a body that would fail validation', (body: Record<string, unknown>) => ({ ...body, amount: '1e3' })],
    ['invalid JSON', () => '{"amount":'],
    ['an empty body', () => ''],
    ['different metadata', (body: Record<string, unknown>) => ({ ...body, metadata: { order: '2' } })],
  ])('is checked before the body: %s is 422 idempotency_key_reused', async (_name, change) => {
    const { body } = await setup()
    await postPayment(body, 'checked-first').expect(201)
    const res = await postPayment(change(body) as Record<string, unknown> | string, 'checked-first').expect(422)
    expect(res.body.error.code).toBe('idempotency_key_reused')
  })
})

describe('the same key while the first request is still running', () => {
  it('is 409 idempotency_key_in_use; afterwards the first answer replays', async () => {
    // --latency holds the first request inside the server, after its key is taken.
    const { source, body } = await setup({ latency: '300' })
    const account = accountOf(DEFAULT_KEY)
    const first = postPayment(body, 'in-flight').then((res) => res)
    await vi.waitFor(() => expect([...account.idempotency.values()].some((r) => r.state === 'in_flight')).toBe(true), { timeout: 5_000, interval: 5 })

    const concurrent = await postPayment(body, 'in-flight')
    expect(concurrent.status).toBe(409)
    expect(concurrent.body.error).toMatchObject({ type: 'idempotency_error', code: 'idempotency_key_in_use' })

    const firstRes = await first
    expect(firstRes.status).toBe(201)
    const retry = await postPayment(body, 'in-flight').expect(201)
    expect(retry.headers['idempotent-replayed']).toBe('true')
    expect(retry.text).toBe(firstRes.text)
    expect(await paymentTotal()).toBe(1)
    expect(await lockedOf(source.id)).toBe('10.00')
  })
})

describe('scope: account + method + path', () => {
  it('the same key on another path runs as a new request', async () => {
    const { body } = await setup()
    await postPayment(body, 'shared-key').expect(201)
    const wallet = await sb.api.post('/v1/wallets').set(sb.auth()).set('Idempotency-Key', 'shared-key').send({ name: 'x', currency: 'USDC', network: 'polygon' }).expect(201)
    expect(wallet.headers['idempotent-replayed']).toBeUndefined()
    expect(wallet.body.data.object).toBe('wallet')
  })

  it('the same key in another account runs as a new request', async () => {
    const { body } = await setup()
    const mine = await postPayment(body, 'shared-key').expect(201)
    const otherKey = 'sk_test_idempotency_other'
    const otherSource = await institutionalWallet(sb, 'polygon', 'USDC', otherKey)
    const theirs = await postPayment({ ...body, source_wallet: otherSource.id }, 'shared-key', otherKey).expect(201)
    expect(theirs.headers['idempotent-replayed']).toBeUndefined()
    expect(theirs.body.data.id).not.toBe(mine.body.data.id)
    expect(await paymentTotal(otherKey)).toBe(1)
  })

  it('without a key, two identical requests make two payments', async () => {
    const { body } = await setup()
    await postPayment(body).expect(201)
    await postPayment(body).expect(201)
    expect(await paymentTotal()).toBe(2)
  })
})

describe('malformed Idempotency-Key', () => {
  it.each([
    ['empty', ''],
    ['256 characters', 'k'.repeat(256)],
    ['non-ASCII', 'cl\u00e9-1'],
    ['with a space', 'two words'],
    ['with a tab', 'tab\there'],
    ['empty quotes', '""'],
  ])('%s is 400 parameter_invalid with param Idempotency-Key, and nothing is created', async (_name, header) => {
    const { body } = await setup()
    const res = await postPayment(body, header).expect(400)
    expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param: 'Idempotency-Key' })
    expect(await paymentTotal()).toBe(0)
  })

  it('255 visible ASCII characters are fine', async () => {
    const { body } = await setup()
    await postPayment(body, `${'k'.repeat(250)}!~#$%`).expect(201)
  })
})

describe('which answers are stored', () => {
  it('a 400 from validation is not stored: a retry with a fixed body runs', async () => {
    const { body } = await setup()
    await postPayment({ ...body, amount: '1e3' }, 'fix-me').expect(400)
    const fixed = await postPayment(body, 'fix-me').expect(201)
    expect(fixed.headers['idempotent-replayed']).toBeUndefined()
    expect(await paymentTotal()).toBe(1)
  })

  it('a 400 for invalid JSON is not stored', async () => {
    const { body } = await setup()
    await postPayment('{"amount": "10.00",', 'fix-json').expect(400)
    await postPayment(body, 'fix-json').expect(201)
  })

  it('a 404 from the handler is stored and replayed', async () => {
    const { body } = await setup()
    const first = await postPayment({ ...body, source_wallet: 'wal_000000000000000000000000' }, 'not-found').expect(404)
    const retry = await postPayment({ ...body, source_wallet: 'wal_000000000000000000000000' }, 'not-found').expect(404)
    expect(retry.headers['idempotent-replayed']).toBe('true')
    expect(retry.text).toBe(first.text)
  })

  it('a 422 from the handler is stored: the retry replays it even once funds arrive', async () => {
    sb = await startTestSandbox()
    const user = (await sb.api.get('/v1/wallets?type=user&network=polygon&currency=USDC').set(sb.auth()).expect(200)).body.data[0]
    const body = { amount: '300.00', currency: 'USDC', source_wallet: user.id, recipient: EVM }
    const first = await postPayment(body, 'too-much').expect(422)
    expect(first.body.error.code).toBe('insufficient_funds')
    sb.sandbox.services.wallets.deposit(accountOf(DEFAULT_KEY), user.id, '100', undefined)
    const retry = await postPayment(body, 'too-much').expect(422)
    expect(retry.headers['idempotent-replayed']).toBe('true')
    expect(retry.text).toBe(first.text)
    expect(await paymentTotal()).toBe(0)
    // A new key runs the request against the new balance.
    await postPayment(body, 'too-much-again').expect(201)
  })

  it('a 401 is not stored', async () => {
    const { body } = await setup()
    await sb.api.post('/v1/payments').set('Idempotency-Key', 'unauthenticated').send(body).expect(401)
    await postPayment(body, 'unauthenticated').expect(201)
  })

  it('a 429 is not stored', async () => {
    // setup() spent the one request of this second.
    const { body } = await setup({ rateLimit: 1 })
    await postPayment(body, 'limited').expect(429)
    expect([...accountOf(DEFAULT_KEY).idempotency.keys()].some((scope) => scope.endsWith(' limited'))).toBe(false)
  })

  it('a key is ignored on GET', async () => {
    sb = await startTestSandbox()
    const first = await sb.api.get('/v1/wallets').set(sb.auth()).set('Idempotency-Key', 'get-key').expect(200)
    const second = await sb.api.get('/v1/wallets').set(sb.auth()).set('Idempotency-Key', 'get-key').expect(200)
    expect(second.headers['idempotent-replayed']).toBeUndefined()
    expect(second.body.request_id).not.toBe(first.body.request_id)
  })
})

describe('expiry', () => {
  it('a key is kept for 24 hours of sandbox time, then the request runs anew', async () => {
    const { source, body } = await setup()
    const first = await postPayment(body, 'daily').expect(201)
    await sb.sandbox.clock.advance(DAY_MS - 1)
    const within = await postPayment(body, 'daily').expect(201)
    expect(within.headers['idempotent-replayed']).toBe('true')
    expect(within.text).toBe(first.text)

    await sb.sandbox.clock.advance(2)
    const after = await postPayment(body, 'daily').expect(201)
    expect(after.headers['idempotent-replayed']).toBeUndefined()
    expect(after.body.data.id).not.toBe(first.body.data.id)
    expect(await paymentTotal()).toBe(2)
    expect(await lockedOf(source.id)).toBe('20.00')
  })

  it('after 24 hours a different body with the old key is no longer a conflict', async () => {
    const { body } = await setup()
    await postPayment(body, 'daily').expect(201)
    await sb.sandbox.clock.advance(DAY_MS + 1)
    await postPayment({ ...body, amount: '5.00' }, 'daily').expect(201)
  })
})
