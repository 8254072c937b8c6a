import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_KEY, institutionalWallet, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

const EVM = '0x52908400098527886E0F7030069857D2E4169EE7'
const SOLANA = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'
const STELLAR = 'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7'
const PAYMENT_FIELDS = [
  'id', 'object', 'amount', 'currency', 'network', 'status', 'source', 'destination', 'destination_type', 'description',
  'metadata', 'tx_hash', 'failure_code', 'failure_message', 'payout_id', 'created_at', 'updated_at', 'completed_at',
]

let sb: TestSandbox
afterEach(() => sb?.close())

type Body = Record<string, unknown>

const post = (body: Body | string, key?: string) => {
  const req = sb.api.post('/v1/payments').set(sb.auth(key))
  return typeof body === 'string' ? req.set('Content-Type', 'application/json').send(body) : req.send(body)
}

async function created(body: Body) {
  const res = await post(body)
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body.data
}

async function balance(id: string) {
  const { available_balance, locked_balance, total_balance } = (await sb.api.get(`/v1/wallets/${id}/balance`).set(sb.auth()).expect(200)).body.data
  return { available_balance, locked_balance, total_balance }
}

async function allBalances() {
  const wallets = (await sb.api.get('/v1/wallets?limit=100').set(sb.auth()).expect(200)).body.data as Array<{ id: string }>
  return Object.fromEntries(await Promise.all(wallets.map(async (w) => [w.id, await balance(w.id)] as const)))
}

async function paymentTotal(): Promise<number> {
  return (await sb.api.get('/v1/payments?limit=1').set(sb.auth()).expect(200)).body.pagination.total
}

async function newWallet(body: Body) {
  return (await sb.api.post('/v1/wallets').set(sb.auth()).send({ name: 'w', ...body }).expect(201)).body.data as { id: string; address: string }
}

function account() {
  return sb.sandbox.store.accounts.get(sb.sandbox.store.keys.get(DEFAULT_KEY)!.account_id)!
}
const completePayment = (id: string) => sb.sandbox.services.payments.complete(account(), account().payments.get(id)!)
const failPayment = (id: string) => sb.sandbox.services.payments.fail(account(), account().payments.get(id)!, 'network_congestion')
const processPayment = (id: string) => sb.sandbox.services.payments.process(account(), account().payments.get(id)!)

describe('POST /v1/payments to an external address', () => {
  it('creates a pending payment with the full shape and nulls for absent values', async () => {
    sb = await startTestSandbox()
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    const payment = await created({ amount: '12.5', currency: 'USDC', source_wallet: source.id, recipient: EVM })
    expect(Object.keys(payment).sort()).toEqual([...PAYMENT_FIELDS].sort())
    expect(payment).toEqual({
      id: expect.stringMatching(/^pay_[0-9A-Za-z]{24}$/),
      object: 'payment',
      amount: '12.50',
      currency: 'USDC',
      network: 'polygon',
      status: 'pending',
      source: source.id,
      destination: EVM,
      destination_type: 'address',
      description: null,
      metadata: {},
      tx_hash: null,
      failure_code: null,
      failure_message: null,
      payout_id: null,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
      completed_at: null,
    })
  })

  it('moves the amount from available to locked, payment after payment', async () => {
    sb = await startTestSandbox()
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    await created({ amount: '100', currency: 'USDC', source_wallet: source.id, recipient: EVM })
    expect(await balance(source.id)).toEqual({ available_balance: '999900.00', locked_balance: '100.00', total_balance: '1000000.00' })
    await created({ amount: '0.000001', currency: 'USDC', source_wallet: source.id, recipient: EVM })
    expect(await balance(source.id)).toEqual({ available_balance: '999899.999999', locked_balance: '100.000001', total_balance: '1000000.00' })
  })

  it('keeps the description and metadata', async () => {
    sb = await startTestSandbox()
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    const payment = await created({ amount: '1', currency: 'USDC', source_wallet: source.id, recipient: EVM, description: 'Invoice 7', metadata: { order_id: 'ord_7' } })
    expect(payment).toMatchObject({ description: 'Invoice 7', metadata: { order_id: 'ord_7' } })
  })

  it.each([
    ['polygon', 'USDC', EVM],
    ['polygon', 'MATIC', EVM.toLowerCase()],
    ['ethereum', 'ETH', EVM],
    ['ethereum', 'USDT', EVM.toUpperCase().replace('0X', '0x')],
    ['stellar', 'XLM', STELLAR],
    ['stellar', 'USDC', STELLAR],
    ['solana', 'SOL', SOLANA],
    ['solana', 'USDC', SOLANA],
  ])('pays a %s %s wallet out to the valid address %s', async (network, currency, recipient) => {
    sb = await startTestSandbox()
    const source = await institutionalWallet(sb, network, currency)
    const payment = await created({ amount: '1', currency, source_wallet: source.id, recipient })
    expect(payment).toMatchObject({ network, currency, destination: recipient, destination_type: 'address', amount: '1.00' })
  })

  it.each([
    ['polygon', 'MATIC', '0.000000000000000001'],
    ['ethereum', 'ETH', '0.000000000000000001'],
    ['stellar', 'XLM', '0.0000001'],
    ['solana', 'SOL', '0.000000001'],
    ['solana', 'USDC', '0.000001'],
  ])('accepts the smallest unit of %s %s (%s)', async (network, currency, amount) => {
    sb = await startTestSandbox()
    const source = await institutionalWallet(sb, network, currency)
    const recipient = network === 'stellar' ? STELLAR : network === 'solana' ? SOLANA : EVM
    expect((await created({ amount, currency, source_wallet: source.id, recipient })).amount).toBe(amount)
  })
})

describe('POST /v1/payments to a wallet of the account', () => {
  it('records the wallet as destination and locks the amount on the source only', async () => {
    sb = await startTestSandbox()
    const source = await institutionalWallet(sb, 'solana', 'USDC')
    const recipient = await newWallet({ network: 'solana', currency: 'USDC' })
    const payment = await created({ amount: '5.25', currency: 'USDC', source_wallet: source.id, recipient: recipient.id })
    expect(payment).toMatchObject({ destination: recipient.id, destination_type: 'wallet', status: 'pending' })
    expect(await balance(source.id)).toEqual({ available_balance: '999994.75', locked_balance: '5.25', total_balance: '1000000.00' })
    expect(await balance(recipient.id)).toEqual({ available_balance: '0.00', locked_balance: '0.00', total_balance: '0.00' })
  })

  it('lands in the recipient once completed', async () => {
    sb = await startTestSandbox()
    const source = await institutionalWallet(sb, 'solana', 'USDC')
    const recipient = await newWallet({ network: 'solana', currency: 'USDC' })
    const payment = await created({ amount: '5.25', currency: 'USDC', source_wallet: source.id, recipient: recipient.id })
    completePayment(payment.id)
    expect(await balance(source.id)).toEqual({ available_balance: '999994.75', locked_balance: '0.00', total_balance: '999994.75' })
    expect(await balance(recipient.id)).toEqual({ available_balance: '5.25', locked_balance: '0.00', total_balance: '5.25' })
  })
})

describe('the order of checks (CONTRACT.md sections 5 and 13)', () => {
  // Every case is wrong in more than one way; the earliest check must answer.
  interface Setup {
    usdc: { id: string }
    usdt: { id: string }
    ethUsdc: { id: string }
    user: { id: string }
    frozen: { id: string }
  }
  const cases: Array<[string, (s: Setup) => Body, number, string, string]> = [
    ['a missing field beats an unknown source', () => ({ amount: '1', currency: 'USDC', source_wallet: 'wal_unknown' }), 400, 'parameter_missing', 'recipient'],
    ['amount grammar beats unknown currency and unknown source', () => ({ amount: '1e3', currency: 'DOGE', source_wallet: 'wal_unknown', recipient: 'x' }), 400, 'parameter_invalid', 'amount'],
    ['a zero amount beats an unknown source', () => ({ amount: '0.00', currency: 'USDC', source_wallet: 'wal_unknown', recipient: 'x' }), 400, 'parameter_invalid', 'amount'],
    ['an unknown currency beats an unknown source', () => ({ amount: '1', currency: 'DOGE', source_wallet: 'wal_unknown', recipient: 'x' }), 400, 'parameter_invalid', 'currency'],
    ['an unknown source beats a currency mismatch and a bad recipient', () => ({ amount: '1', currency: 'USDT', source_wallet: 'wal_unknown', recipient: 'x' }), 404, 'resource_missing', 'source_wallet'],
    ['a currency that is not the source’s beats too many decimals', (s) => ({ amount: '1.1234567', currency: 'USDT', source_wallet: s.usdc.id, recipient: 'x' }), 400, 'parameter_invalid', 'currency'],
    ['too many decimals beats a bad recipient', (s) => ({ amount: '1.1234567', currency: 'USDC', source_wallet: s.usdc.id, recipient: 'wal_unknown' }), 400, 'parameter_invalid', 'amount'],
    ['an unknown recipient wallet beats an inactive source', (s) => ({ amount: '1', currency: 'USDC', source_wallet: s.frozen.id, recipient: 'wal_unknown' }), 404, 'resource_missing', 'recipient'],
    ['a recipient wallet on another network beats an inactive source', (s) => ({ amount: '1', currency: 'USDC', source_wallet: s.frozen.id, recipient: s.ethUsdc.id }), 400, 'parameter_invalid', 'recipient'],
    ['a recipient wallet of another currency beats an inactive source', (s) => ({ amount: '1', currency: 'USDC', source_wallet: s.frozen.id, recipient: s.usdt.id }), 400, 'parameter_invalid', 'recipient'],
    ['an invalid address beats an inactive source', (s) => ({ amount: '1', currency: 'USDC', source_wallet: s.frozen.id, recipient: 'not-an-address' }), 400, 'parameter_invalid', 'recipient'],
    ['an address of another network beats an inactive source', (s) => ({ amount: '1', currency: 'USDC', source_wallet: s.frozen.id, recipient: SOLANA }), 400, 'parameter_invalid', 'recipient'],
    ['the source paying itself is a bad recipient', (s) => ({ amount: '1', currency: 'USDC', source_wallet: s.usdc.id, recipient: s.usdc.id }), 400, 'parameter_invalid', 'recipient'],
    ['an inactive source beats insufficient funds', (s) => ({ amount: '1000', currency: 'USDC', source_wallet: s.frozen.id, recipient: EVM }), 422, 'wallet_inactive', 'source_wallet'],
    ['an inactive recipient wallet beats insufficient funds', (s) => ({ amount: '5000000', currency: 'USDC', source_wallet: s.usdc.id, recipient: s.frozen.id }), 422, 'wallet_inactive', 'recipient'],
    ['insufficient funds come last', (s) => ({ amount: '250.01', currency: 'USDC', source_wallet: s.user.id, recipient: EVM }), 422, 'insufficient_funds', 'amount'],
  ]

  it.each(cases)('%s', async (_name, body, status, code, param) => {
    sb = await startTestSandbox()
    const setup: Setup = {
      usdc: await institutionalWallet(sb, 'polygon', 'USDC'),
      usdt: await institutionalWallet(sb, 'polygon', 'USDT'),
      ethUsdc: await institutionalWallet(sb, 'ethereum', 'USDC'),
      user: (await sb.api.get('/v1/wallets?type=user&network=polygon&currency=USDC').set(sb.auth()).expect(200)).body.data[0],
      frozen: await newWallet({ network: 'polygon', currency: 'USDC' }),
    }
    await sb.api.put(`/v1/wallets/${setup.frozen.id}`).set(sb.auth()).send({ status: 'frozen' }).expect(200)
    const before = await allBalances()
    const res = await post(body(setup))
    expect(res.status).toBe(status)
    expect(res.body.error).toMatchObject({ code, param })
    expect(await allBalances()).toEqual(before)
    expect(await paymentTotal()).toBe(0)
  })

  it('explains insufficient funds with the available amount', async () => {
    sb = await startTestSandbox()
    const user = (await sb.api.get('/v1/wallets?type=user&network=polygon&currency=USDC').set(sb.auth()).expect(200)).body.data[0]
    const res = await post({ amount: '250.01', currency: 'USDC', source_wallet: user.id, recipient: EVM }).expect(422)
    expect(res.body.error.message).toContain('250.00')
    expect(res.body.error.message).toContain('250.01')
  })

  it('a payment of exactly the available balance passes', async () => {
    sb = await startTestSandbox()
    const user = (await sb.api.get('/v1/wallets?type=user&network=polygon&currency=USDC').set(sb.auth()).expect(200)).body.data[0]
    await created({ amount: '250', currency: 'USDC', source_wallet: user.id, recipient: EVM })
    expect(await balance(user.id)).toEqual({ available_balance: '0.00', locked_balance: '250.00', total_balance: '250.00' })
    expect((await post({ amount: '0.000001', currency: 'USDC', source_wallet: user.id, recipient: EVM }).expect(422)).body.error.code).toBe('insufficient_funds')
  })
})

describe('GET /v1/payments/{id}', () => {
  it('returns the payment as created, then as it moves', async () => {
    sb = await startTestSandbox()
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    const payment = await created({ amount: '3', currency: 'USDC', source_wallet: source.id, recipient: EVM })
    expect((await sb.api.get(`/v1/payments/${payment.id}`).set(sb.auth()).expect(200)).body.data).toEqual(payment)
    await sb.sandbox.clock.advance(2_000)
    completePayment(payment.id)
    const done = (await sb.api.get(`/v1/payments/${payment.id}`).set(sb.auth()).expect(200)).body.data
    expect(done).toMatchObject({ status: 'completed', completed_at: '2026-01-01T00:00:02.000Z', updated_at: '2026-01-01T00:00:02.000Z' })
    expect(done.tx_hash).toMatch(/^0x[0-9a-f]{64}$/)
  })

  it('answers an unknown id with 404 resource_missing', async () => {
    sb = await startTestSandbox()
    const res = await sb.api.get('/v1/payments/pay_000000000000000000000000').set(sb.auth()).expect(404)
    expect(res.body.error).toMatchObject({ code: 'resource_missing' })
    expect(res.body.error.message).toContain('pay_000000000000000000000000')
  })
})

describe('GET /v1/payments', () => {
  async function seedPayments() {
    const usdc = await institutionalWallet(sb, 'polygon', 'USDC')
    const usdt = await institutionalWallet(sb, 'polygon', 'USDT')
    const inner = await newWallet({ network: 'polygon', currency: 'USDC' })
    const made: Array<{ id: string }> = []
    made.push(await created({ amount: '1', currency: 'USDC', source_wallet: usdc.id, recipient: EVM }))
    made.push(await created({ amount: '2', currency: 'USDT', source_wallet: usdt.id, recipient: EVM }))
    made.push(await created({ amount: '3', currency: 'USDC', source_wallet: usdc.id, recipient: inner.id }))
    made.push(await created({ amount: '4', currency: 'USDC', source_wallet: usdc.id, recipient: EVM.toLowerCase() }))
    made.push(await created({ amount: '5', currency: 'USDT', source_wallet: usdt.id, recipient: EVM }))
    made.push(await created({ amount: '6', currency: 'USDC', source_wallet: usdc.id, recipient: inner.id }))
    completePayment(made[0]!.id)
    failPayment(made[1]!.id)
    processPayment(made[2]!.id)
    completePayment(made[4]!.id)
    const ids = (...indexes: number[]) => indexes.map((i) => made[i]!.id)
    return { usdc, usdt, inner, made, ids }
  }

  const list = async (query: string) => {
    const res = await sb.api.get(`/v1/payments?${query}`).set(sb.auth()).expect(200)
    return { ids: res.body.data.map((p: { id: string }) => p.id) as string[], pagination: res.body.pagination }
  }

  it('lists newest first with pagination', async () => {
    sb = await startTestSandbox()
    const { ids } = await seedPayments()
    expect(await list('')).toEqual({ ids: ids(5, 4, 3, 2, 1, 0), pagination: { limit: 20, offset: 0, total: 6, has_more: false } })
    expect(await list('limit=2')).toEqual({ ids: ids(5, 4), pagination: { limit: 2, offset: 0, total: 6, has_more: true } })
    expect(await list('limit=2&offset=2')).toEqual({ ids: ids(3, 2), pagination: { limit: 2, offset: 2, total: 6, has_more: true } })
    expect(await list('limit=2&offset=4')).toEqual({ ids: ids(1, 0), pagination: { limit: 2, offset: 4, total: 6, has_more: false } })
    expect(await list('offset=6')).toEqual({ ids: [], pagination: { limit: 20, offset: 6, total: 6, has_more: false } })
  })

  it('filters by status, currency, recipient_id and source_wallet, alone and together', async () => {
    sb = await startTestSandbox()
    const { usdc, usdt, inner, ids } = await seedPayments()
    const cases: Array<[string, string[]]> = [
      ['status=pending', ids(5, 3)],
      ['status=processing', ids(2)],
      ['status=completed', ids(4, 0)],
      ['status=failed', ids(1)],
      ['currency=USDT', ids(4, 1)],
      ['currency=USDC', ids(5, 3, 2, 0)],
      ['currency=SOL', []],
      [`recipient_id=${inner.id}`, ids(5, 2)],
      [`recipient_id=${EVM}`, ids(4, 3, 1, 0)],
      [`recipient_id=${EVM.toLowerCase()}`, ids(4, 3, 1, 0)],
      [`source_wallet=${usdt.id}`, ids(4, 1)],
      [`source_wallet=${usdc.id}`, ids(5, 3, 2, 0)],
      ['source_wallet=wal_unknown', []],
      [`source_wallet=${usdc.id}&status=pending`, ids(5, 3)],
      [`currency=USDC&recipient_id=${EVM}&status=completed`, ids(0)],
      [`source_wallet=${usdc.id}&currency=USDT`, []],
    ]
    for (const [query, expected] of cases) {
      const page = await list(`${query}&limit=100`)
      expect(page.ids, query).toEqual(expected)
      expect(page.pagination.total, query).toBe(expected.length)
    }
    const paged = await list(`source_wallet=${usdc.id}&limit=1&offset=1`)
    expect(paged).toEqual({ ids: ids(3), pagination: { limit: 1, offset: 1, total: 4, has_more: true } })
  })

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=-5', 'limit'],
    ['limit=ten', 'limit'],
    ['offset=-1', 'offset'],
    ['offset=1e2', 'offset'],
    ['status=done', 'status'],
    ['status=PENDING', 'status'],
    ['currency=usdc', 'currency'],
    ['currency=DOGE', 'currency'],
    ['source_wallet=', 'source_wallet'],
    ['sort=asc', 'sort'],
  ])('refuses %s with 400 parameter_invalid', async (query, param) => {
    sb = await startTestSandbox()
    const res = await sb.api.get(`/v1/payments?${query}`).set(sb.auth()).expect(400)
    expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param })
  })
})

describe('lenient variants', () => {
  const variants: Array<[string, (source: string) => Body, string, Body]> = [
    ['a JSON number amount', (source) => ({ amount: 12.5, currency: 'USDC', source_wallet: source, recipient: EVM }), 'amount', { amount: '12.50' }],
    ['a lower-case currency', (source) => ({ amount: '12.5', currency: 'usdc', source_wallet: source, recipient: EVM }), 'currency', { currency: 'USDC' }],
    ['destination instead of recipient', (source) => ({ amount: '12.5', currency: 'USDC', source_wallet: source, destination: EVM }), 'destination', { destination: EVM }],
  ]

  it.each(variants)('with --lenient, accepts %s', async (_name, body, _param, expected) => {
    sb = await startTestSandbox({ lenient: true })
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    expect(await created(body(source.id))).toMatchObject({ ...expected, status: 'pending', destination: EVM })
  })

  it.each(variants)('without --lenient, refuses %s with a message naming --lenient', async (_name, body, param) => {
    sb = await startTestSandbox()
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    const res = await post(body(source.id)).expect(400)
    expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param })
    expect(res.body.error.message).toContain('--lenient')
    expect(await balance(source.id)).toEqual({ available_balance: '1000000.00', locked_balance: '0.00', total_balance: '1000000.00' })
    expect(await paymentTotal()).toBe(0)
  })

  it('with --lenient, accepts all three variants at once', async () => {
    sb = await startTestSandbox({ lenient: true })
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    expect(await created({ amount: 7, currency: 'usdc', source_wallet: source.id, destination: EVM })).toMatchObject({ amount: '7.00', currency: 'USDC', destination: EVM })
  })

  it('with --lenient, accepts a form-encoded body, metadata[key] included', async () => {
    sb = await startTestSandbox({ lenient: true })
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    const res = await sb.api
      .post('/v1/payments')
      .set(sb.auth())
      .type('form')
      .send(`amount=12.5&currency=usdc&source_wallet=${source.id}&destination=${EVM}&description=Rent&metadata[order]=42`)
      .expect(201)
    expect(res.body.data).toMatchObject({ amount: '12.50', currency: 'USDC', destination: EVM, description: 'Rent', metadata: { order: '42' } })
  })

  it('without --lenient, refuses a form-encoded body with 415 naming --lenient', async () => {
    sb = await startTestSandbox()
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    const res = await sb.api.post('/v1/payments').set(sb.auth()).type('form').send(`amount=12.5&currency=USDC&source_wallet=${source.id}&recipient=${EVM}`).expect(415)
    expect(res.body.error.code).toBe('unsupported_media_type')
    expect(res.body.error.message).toContain('--lenient')
    expect(await paymentTotal()).toBe(0)
  })

  it.each([
    ['an exponent amount string', { amount: '1e3' }, 'amount'],
    ['a number too small to print without an exponent', { amount: 0.0000001 }, 'amount'],
    ['a negative number', { amount: -5 }, 'amount'],
    ['an unknown lower-case currency', { currency: 'doge' }, 'currency'],
  ])('with --lenient, still refuses %s', async (_name, change, param) => {
    sb = await startTestSandbox({ lenient: true })
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    const res = await post({ amount: '1', currency: 'USDC', source_wallet: source.id, recipient: EVM, ...change }).expect(400)
    expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param })
    expect(await paymentTotal()).toBe(0)
  })
})
