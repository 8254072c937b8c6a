import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_KEY, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

const QUOTE_FIELDS = ['id', 'object', 'source_currency', 'destination_currency', 'source_amount', 'destination_amount', 'rate', 'fee', 'status', 'expires_at', 'created_at']
const OTHER_KEY = 'sk_test_quotes_other_account'

let sb: TestSandbox
afterEach(() => sb?.close())

type Body = Record<string, unknown>

const quote = (body: Body, key?: string) => sb.api.post('/v1/quotes').set(sb.auth(key)).send(body)
const pin = (pair: string, price: string, spread_bp = 0) => sb.api.post('/_sandbox/prices').send({ pair, price, spread_bp }).expect(201)
const advance = (ms: number) => sb.api.post('/_sandbox/clock/advance').send({ ms }).expect(200)
const quoteCount = () => sb.sandbox.store.accounts.get(sb.sandbox.store.keys.get(DEFAULT_KEY)!.account_id)!.quotes.size

async function created(body: Body, key?: string) {
  const res = await quote(body, key)
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body.data
}

describe('POST /v1/quotes', () => {
  it('answers the full shape, held for 30 s of sandbox time', async () => {
    sb = await startTestSandbox()
    const q = await created({ source_currency: 'USDC', destination_currency: 'ETH', source_amount: '1000' })
    expect(Object.keys(q).sort()).toEqual([...QUOTE_FIELDS].sort())
    expect(q).toMatchObject({
      id: expect.stringMatching(/^quo_[0-9A-Za-z]{24}$/),
      object: 'quote',
      source_currency: 'USDC',
      destination_currency: 'ETH',
      source_amount: '1000.00',
      fee: { amount: '1.00', currency: 'USDC' },
      status: 'active',
      created_at: '2026-01-01T00:00:00.000Z',
      expires_at: '2026-01-01T00:00:30.000Z',
    })
    expect((await sb.api.get(`/v1/quotes/${q.id}`).set(sb.auth()).expect(200)).body.data).toEqual(q)
  })

  describe('under pinned prices (ETH/USD 3000.00 with 20 bp, USDC/USD 1.00000 with none: ETH/USDC bid 2997.00, ask 3003.00)', () => {
    const cases: Array<[string, Body, Body]> = [
      ['selling 2 ETH gets the bid', { source_currency: 'ETH', destination_currency: 'USDC', source_amount: '2' },
        { source_amount: '2.00', destination_amount: '5994.00', rate: '2997.00', fee: { amount: '0.002', currency: 'ETH' } }],
      ['selling ETH for exactly 2997 USDC needs exactly 1 ETH', { source_currency: 'ETH', destination_currency: 'USDC', destination_amount: '2997' },
        { source_amount: '1.00', destination_amount: '2997.00', rate: '2997.00', fee: { amount: '0.001', currency: 'ETH' } }],
      ['buying exactly 1 ETH pays the ask', { source_currency: 'USDC', destination_currency: 'ETH', destination_amount: '1' },
        { source_amount: '3003.00', destination_amount: '1.00', rate: '0.000333000333000', fee: { amount: '3.003', currency: 'USDC' } }],
      ['1000 USDC buy 1000 / 3003 ETH, rounded down to wei', { source_currency: 'USDC', destination_currency: 'ETH', source_amount: '1000' },
        { source_amount: '1000.00', destination_amount: '0.333000333000333', rate: '0.000333000333000', fee: { amount: '1.00', currency: 'USDC' } }],
      ['a fee that is not a whole base unit rounds up', { source_currency: 'USDC', destination_currency: 'ETH', source_amount: '0.000001' },
        { source_amount: '0.000001', destination_amount: '0.000000000333000333', fee: { amount: '0.000001', currency: 'USDC' } }],
    ]
    it.each(cases)('%s', async (_name, body, expected) => {
      sb = await startTestSandbox()
      await pin('ETH/USD', '3000', 20)
      await pin('USDC/USD', '1', 0)
      expect(await created(body)).toMatchObject(expected)
    })

    it('converts to fiat through the USD legs (ETH → EUR at the ETH/EUR bid, fiat amounts with 2 decimals)', async () => {
      sb = await startTestSandbox()
      await pin('ETH/USD', '3000', 0)
      await pin('EUR/USD', '1.25', 0)
      expect(await created({ source_currency: 'ETH', destination_currency: 'EUR', source_amount: '0.333333' })).toMatchObject({
        rate: '2400.00', destination_amount: '799.99', fee: { amount: '0.000333333', currency: 'ETH' },
      })
      await pin('USDC/USD', '1', 0)
      expect(await created({ source_currency: 'USDC', destination_currency: 'EUR', destination_amount: '100' })).toMatchObject({
        source_amount: '125.00', destination_amount: '100.00', rate: '0.800000', fee: { amount: '0.125', currency: 'USDC' },
      })
    })
  })

  const bad: Array<[string, Body, string, string]> = [
    ['both amounts', { source_currency: 'USDC', destination_currency: 'ETH', source_amount: '1', destination_amount: '1' }, 'parameter_invalid', 'destination_amount'],
    ['neither amount', { source_currency: 'USDC', destination_currency: 'ETH' }, 'parameter_missing', 'source_amount'],
    ['no source_currency', { destination_currency: 'ETH', source_amount: '1' }, 'parameter_missing', 'source_currency'],
    ['an unknown currency', { source_currency: 'USDC', destination_currency: 'DOGE', source_amount: '1' }, 'parameter_invalid', 'destination_currency'],
    ['a lower-case currency', { source_currency: 'usdc', destination_currency: 'ETH', source_amount: '1' }, 'parameter_invalid', 'source_currency'],
    ['a fiat source (fiat is a destination only)', { source_currency: 'USD', destination_currency: 'USDC', source_amount: '1' }, 'parameter_invalid', 'source_currency'],
    ['the same currency twice', { source_currency: 'ETH', destination_currency: 'ETH', source_amount: '1' }, 'parameter_invalid', 'destination_currency'],
    ['a negative amount', { source_currency: 'USDC', destination_currency: 'ETH', source_amount: '-1' }, 'parameter_invalid', 'source_amount'],
    ['a zero amount', { source_currency: 'USDC', destination_currency: 'ETH', destination_amount: '0.00' }, 'parameter_invalid', 'destination_amount'],
    ['a number amount', { source_currency: 'USDC', destination_currency: 'ETH', source_amount: 10 }, 'parameter_invalid', 'source_amount'],
    ['an exponent', { source_currency: 'USDC', destination_currency: 'ETH', source_amount: '1e3' }, 'parameter_invalid', 'source_amount'],
    ['more decimals than USDC has everywhere (6)', { source_currency: 'USDC', destination_currency: 'ETH', source_amount: '1.0000001' }, 'parameter_invalid', 'source_amount'],
    ['cents of cents in fiat', { source_currency: 'USDC', destination_currency: 'EUR', destination_amount: '1.001' }, 'parameter_invalid', 'destination_amount'],
    ['an amount that converts to nothing', { source_currency: 'ETH', destination_currency: 'USD', source_amount: '0.000000000000000001' }, 'parameter_invalid', 'source_amount'],
    ['an unknown field', { source_currency: 'USDC', destination_currency: 'ETH', source_amount: '1', pair: 'ETH/USDC' }, 'parameter_invalid', 'pair'],
  ]
  it.each(bad)('refuses %s with 400 and creates nothing', async (_name, body, code, param) => {
    sb = await startTestSandbox()
    const res = await quote(body).expect(400)
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code, param })
    expect(quoteCount()).toBe(0)
  })

  it('says what to send when the amount converts to nothing', async () => {
    sb = await startTestSandbox()
    await pin('ETH/USD', '3000', 0)
    const res = await quote({ source_currency: 'ETH', destination_currency: 'USD', source_amount: '0.000000000000000001' }).expect(400)
    expect(res.body.error.message).toBe('source_amount 0.000000000000000001 ETH converts to less than the smallest USD amount at the bid 3000.00 of ETH/USD; quote at least 0.000003333333333334 ETH.')
  })

  it('replays an idempotent request instead of quoting again', async () => {
    sb = await startTestSandbox()
    const body = { source_currency: 'ETH', destination_currency: 'USDC', source_amount: '1' }
    const first = await sb.api.post('/v1/quotes').set(sb.auth()).set('Idempotency-Key', 'quote-1').send(body).expect(201)
    await advance(5000)
    const again = await sb.api.post('/v1/quotes').set(sb.auth()).set('Idempotency-Key', 'quote-1').send(body).expect(201)
    expect(again.body.data).toEqual(first.body.data)
    expect(quoteCount()).toBe(1)
    const reused = await sb.api.post('/v1/quotes').set(sb.auth()).set('Idempotency-Key', 'quote-1').send({ ...body, source_amount: '2' }).expect(422)
    expect(reused.body.error.code).toBe('idempotency_key_reused')
  })

  it('gives the same ids, rates and amounts for the same seed and requests', async () => {
    const run = async () => {
      sb = await startTestSandbox({ seed: 'quotes-determinism' })
      const bodies = [
        await created({ source_currency: 'SOL', destination_currency: 'USDC', source_amount: '3.5' }),
        await advance(1234).then(() => created({ source_currency: 'USDC', destination_currency: 'MXN', destination_amount: '1000' })),
      ]
      await sb.close()
      return bodies
    }
    const first = await run()
    const second = await run()
    expect(second).toEqual(first)
    expect(first[0].rate).not.toBe(first[1].rate)
  })
})

describe('quote status on the sandbox clock', () => {
  it('is active until expires_at and expired from that instant on', async () => {
    sb = await startTestSandbox()
    const q = await created({ source_currency: 'USDT', destination_currency: 'USDC', source_amount: '10' })
    await advance(29_999)
    expect((await sb.api.get(`/v1/quotes/${q.id}`).set(sb.auth()).expect(200)).body.data.status).toBe('active')
    await advance(1)
    expect((await sb.api.get(`/v1/quotes/${q.id}`).set(sb.auth()).expect(200)).body.data.status).toBe('expired')
  })

  it('follows --quote-ttl', async () => {
    sb = await startTestSandbox({ quoteTtl: '2m' })
    const q = await created({ source_currency: 'USDT', destination_currency: 'USDC', source_amount: '10' })
    expect(q.expires_at).toBe('2026-01-01T00:02:00.000Z')
  })
})

describe('quotes between accounts and keys', () => {
  it('answers another account’s quote as an unknown one', async () => {
    sb = await startTestSandbox()
    const q = await created({ source_currency: 'ETH', destination_currency: 'USDC', source_amount: '1' })
    const foreign = await sb.api.get(`/v1/quotes/${q.id}`).set(sb.auth(OTHER_KEY)).expect(404)
    const unknown = await sb.api.get('/v1/quotes/quo_000000000000000000000000').set(sb.auth(OTHER_KEY)).expect(404)
    expect(foreign.body.error).toMatchObject({ code: 'resource_missing', message: `No such quote: '${q.id}'.` })
    expect(unknown.body.error.code).toBe('resource_missing')
  })

  it('needs orders:write to quote and orders:read to read; pairs need only a key', async () => {
    sb = await startTestSandbox()
    const keyWith = async (scopes: string[]) => (await sb.api.post('/_sandbox/keys').send({ type: 'restricted', scopes }).expect(201)).body.data.key as string
    const reader = await keyWith(['orders:read'])
    const writer = await keyWith(['orders:write'])
    const other = await keyWith(['payments:write'])
    const body = { source_currency: 'ETH', destination_currency: 'USDC', source_amount: '1' }
    const denied = await quote(body, reader).expect(403)
    expect(denied.body.error).toMatchObject({ code: 'insufficient_permissions', message: expect.stringContaining('orders:write') })
    const q = await created(body, writer)
    // The reader's key is of another account: a 404 shows that the scope check passed.
    await sb.api.get(`/v1/quotes/${q.id}`).set(sb.auth(writer)).expect(200)
    await sb.api.get(`/v1/quotes/${q.id}`).set(sb.auth(reader)).expect(404)
    expect((await sb.api.get(`/v1/quotes/${q.id}`).set(sb.auth(other)).expect(403)).body.error.message).toContain('orders:read')
    await sb.api.get('/v1/pairs').set(sb.auth(other)).expect(200)
  })

  it('accepts the settlements scopes on restricted keys', async () => {
    sb = await startTestSandbox()
    const res = await sb.api.post('/_sandbox/keys').send({ type: 'restricted', scopes: ['settlements:read', 'settlements:write', 'orders:read', 'orders:write'] }).expect(201)
    expect(res.body.data.scopes).toEqual(['settlements:read', 'settlements:write', 'orders:read', 'orders:write'])
  })
})

describe('GET /v1/pairs', () => {
  it('lists the feed pairs whose two legs are wallet assets, with their limits from the fixtures', async () => {
    sb = await startTestSandbox()
    const pairs = (await sb.api.get('/v1/pairs').set(sb.auth()).expect(200)).body.data as Array<Record<string, string>>
    expect(pairs.map((p) => p.pair)).toEqual(['ETH/USDC', 'SOL/USDC', 'MATIC/USDC', 'XLM/USDC', 'ETH/USDT', 'SOL/USDT', 'USDT/USDC', 'ETH/SOL', 'ETH/MATIC'])
    expect(pairs[0]).toEqual({ object: 'pair', pair: 'ETH/USDC', base: 'ETH', quote: 'USDC', min_amount: '0.001', liquidity_per_tick: '5' })
  })

  it('needs a key', async () => {
    sb = await startTestSandbox()
    expect((await sb.api.get('/v1/pairs').expect(401)).body.error.code).toBe('api_key_missing')
  })
})
