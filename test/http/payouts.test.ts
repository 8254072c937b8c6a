import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { institutionalWallet, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

const EVM = '0x52908400098527886E0F7030069857D2E4169EE7'
const EVM_2 = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'
const SOLANA = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'
const PAYOUT_FIELDS = ['id', 'object', 'status', 'source', 'currency', 'total_amount', 'item_count', 'payment_ids', 'metadata', 'created_at', 'updated_at']

let sb: TestSandbox
afterEach(() => sb?.close())

type Body = Record<string, unknown>
interface Payout {
  id: string
  status: string
  payment_ids: string[]
  updated_at: string
}

const post = (body: Body, key?: string) => sb.api.post('/v1/payouts').set(sb.auth(key)).send(body)
const item = (extra: Body = {}) => ({ amount: '1.00', recipient: EVM, ...extra })

async function created(body: Body): Promise<Payout> {
  const res = await post(body)
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body.data
}
const getPayout = async (id: string) => (await sb.api.get(`/v1/payouts/${id}`).set(sb.auth()).expect(200)).body.data
const getPayment = async (id: string) => (await sb.api.get(`/v1/payments/${id}`).set(sb.auth()).expect(200)).body.data
const totals = async () => ({
  payouts: (await sb.api.get('/v1/payouts?limit=1').set(sb.auth()).expect(200)).body.pagination.total,
  payments: (await sb.api.get('/v1/payments?limit=1').set(sb.auth()).expect(200)).body.pagination.total,
})
const balance = async (id: string) => (await sb.api.get(`/v1/wallets/${id}/balance`).set(sb.auth()).expect(200)).body.data
const newWallet = async (body: Body) => (await sb.api.post('/v1/wallets').set(sb.auth()).send({ name: 'w', ...body }).expect(201)).body.data as { id: string }
const polygonUsdc = () => institutionalWallet(sb, 'polygon', 'USDC')

describe('POST /v1/payouts', () => {
  it('creates a pending payout with one pending payment per item, in the order of the items', async () => {
    sb = await startTestSandbox()
    const source = await polygonUsdc()
    const own = await newWallet({ network: 'polygon', currency: 'USDC' })
    const res = await post({
      source_wallet: source.id,
      currency: 'USDC',
      metadata: { batch: 'march' },
      items: [item({ amount: '10', description: 'Alice' }), item({ amount: '0.5', recipient: own.id, metadata: { invoice: 'inv_2' } }), item({ amount: '2.25', recipient: EVM_2 })],
    }).expect(201)
    const payout = res.body.data
    expect(Object.keys(payout).sort()).toEqual([...PAYOUT_FIELDS].sort())
    expect(payout).toEqual({
      id: expect.stringMatching(/^po_[0-9A-Za-z]{24}$/),
      object: 'payout',
      status: 'pending',
      source: source.id,
      currency: 'USDC',
      total_amount: '12.75',
      item_count: 3,
      payment_ids: [expect.stringMatching(/^pay_/), expect.stringMatching(/^pay_/), expect.stringMatching(/^pay_/)],
      metadata: { batch: 'march' },
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
    })
    const payments = await Promise.all(payout.payment_ids.map(getPayment))
    expect(payments.map((p) => [p.amount, p.destination, p.description, p.metadata, p.status, p.payout_id, p.source])).toEqual([
      ['10.00', EVM, 'Alice', {}, 'pending', payout.id, source.id],
      ['0.50', own.id, null, { invoice: 'inv_2' }, 'pending', payout.id, source.id],
      ['2.25', EVM_2, null, {}, 'pending', payout.id, source.id],
    ])
    expect(await balance(source.id)).toMatchObject({ available_balance: '999987.25', locked_balance: '12.75' })
  })

  it('takes exactly 500 items', async () => {
    sb = await startTestSandbox()
    const source = await institutionalWallet(sb, 'solana', 'SOL')
    const payout = await created({ source_wallet: source.id, currency: 'SOL', items: Array.from({ length: 500 }, () => ({ amount: '0.001', recipient: SOLANA })) })
    expect(payout).toMatchObject({ item_count: 500, total_amount: '0.50' })
    expect(new Set(payout.payment_ids).size).toBe(500)
  })

  it('spends the whole available balance when the items add up to it exactly', async () => {
    sb = await startTestSandbox()
    const user = (await sb.api.get('/v1/wallets?type=user&network=polygon&currency=USDC').set(sb.auth()).expect(200)).body.data[0]
    await created({ source_wallet: user.id, currency: 'USDC', items: [item({ amount: '200' }), item({ amount: '50' })] })
    expect(await balance(user.id)).toMatchObject({ available_balance: '0.00', locked_balance: '250.00' })
  })
})

describe('POST /v1/payouts refuses bad input and creates nothing', () => {
  interface Setup {
    usdc: { id: string }
    user: { id: string }
    frozen: { id: string }
    solana: { id: string }
  }
  const base = (s: Setup, extra: Body = {}): Body => ({ source_wallet: s.usdc.id, currency: 'USDC', items: [item(), item()], ...extra })
  const cases: Array<[string, (s: Setup) => Body, number, string, string]> = [
    ['no items', (s) => ({ source_wallet: s.usdc.id, currency: 'USDC' }), 400, 'parameter_missing', 'items'],
    ['items that are not an array', (s) => base(s, { items: { amount: '1' } }), 400, 'parameter_invalid', 'items'],
    ['an empty items array', (s) => base(s, { items: [] }), 400, 'parameter_invalid', 'items'],
    ['501 items', (s) => base(s, { items: Array.from({ length: 501 }, () => item()) }), 400, 'parameter_invalid', 'items'],
    ['no source_wallet', () => ({ currency: 'USDC', items: [item()] }), 400, 'parameter_missing', 'source_wallet'],
    ['an unknown currency', (s) => base(s, { currency: 'DOGE' }), 400, 'parameter_invalid', 'currency'],
    ['an unknown field', (s) => base(s, { priority: 'high' }), 400, 'parameter_invalid', 'priority'],
    ['an item that is not an object', (s) => base(s, { items: [item(), 'pay bob'] }), 400, 'parameter_invalid', 'items[1]'],
    ['an item without a recipient', (s) => base(s, { items: [item(), item(), { amount: '1' }] }), 400, 'parameter_missing', 'items[2].recipient'],
    ['an item amount that is not a decimal string', (s) => base(s, { items: [item(), item({ amount: '1e3' })] }), 400, 'parameter_invalid', 'items[1].amount'],
    ['an item amount of zero', (s) => base(s, { items: [item({ amount: '0' })] }), 400, 'parameter_invalid', 'items[0].amount'],
    ['an unknown item field', (s) => base(s, { items: [item(), item({ currency: 'USDC' })] }), 400, 'parameter_invalid', 'items[1].currency'],
    ['an unknown sandbox_outcome in an item', (s) => base(s, { items: [item({ metadata: { sandbox_outcome: 'maybe' } })] }), 400, 'parameter_invalid', 'items[0].metadata.sandbox_outcome'],
    ['an unknown source wallet', () => ({ source_wallet: 'wal_unknown', currency: 'USDC', items: [item()] }), 404, 'resource_missing', 'source_wallet'],
    ['a currency that is not the source’s', (s) => base(s, { currency: 'USDT' }), 400, 'parameter_invalid', 'currency'],
    ['an item amount with too many decimals', (s) => base(s, { items: [item(), item(), item({ amount: '1.1234567' })] }), 400, 'parameter_invalid', 'items[2].amount'],
    ['an item address of another network', (s) => base(s, { items: [item(), item(), item(), item({ recipient: SOLANA })] }), 400, 'parameter_invalid', 'items[3].recipient'],
    ['an item to an unknown wallet', (s) => base(s, { items: [item(), item({ recipient: 'wal_unknown' })] }), 404, 'resource_missing', 'items[1].recipient'],
    ['an item to a wallet on another network', (s) => base(s, { items: [item({ recipient: s.solana.id })] }), 400, 'parameter_invalid', 'items[0].recipient'],
    ['an item to the source itself', (s) => base(s, { items: [item(), item({ recipient: s.usdc.id })] }), 400, 'parameter_invalid', 'items[1].recipient'],
    ['an inactive source', (s) => base(s, { source_wallet: s.frozen.id }), 422, 'wallet_inactive', 'source_wallet'],
    ['an item to an inactive wallet', (s) => base(s, { items: [item(), item({ recipient: s.frozen.id })] }), 422, 'wallet_inactive', 'items[1].recipient'],
    ['one item larger than the available balance', (s) => base(s, { source_wallet: s.user.id, items: [item(), item({ amount: '250.01' })] }), 422, 'insufficient_funds', 'items[1].amount'],
    ['items that together exceed the available balance', (s) => base(s, { source_wallet: s.user.id, items: [item({ amount: '200' }), item({ amount: '50.01' })] }), 422, 'insufficient_funds', 'items'],
  ]

  it.each(cases)('%s', async (_name, body, status, code, param) => {
    sb = await startTestSandbox()
    const setup: Setup = {
      usdc: await polygonUsdc(),
      user: (await sb.api.get('/v1/wallets?type=user&network=polygon&currency=USDC').set(sb.auth()).expect(200)).body.data[0],
      frozen: await newWallet({ network: 'polygon', currency: 'USDC' }),
      solana: await institutionalWallet(sb, 'solana', 'USDC'),
    }
    await sb.api.put(`/v1/wallets/${setup.frozen.id}`).set(sb.auth()).send({ status: 'frozen' }).expect(200)
    const before = [await balance(setup.usdc.id), await balance(setup.user.id)]
    const res = await post(body(setup))
    expect(res.status, JSON.stringify(res.body)).toBe(status)
    expect(res.body.error).toMatchObject({ code, param })
    expect(await totals()).toEqual({ payouts: 0, payments: 0 })
    expect([await balance(setup.usdc.id), await balance(setup.user.id)]).toEqual(before)
  })

  it('names the item in the message of an item error', async () => {
    sb = await startTestSandbox()
    const source = await polygonUsdc()
    const res = await post({ source_wallet: source.id, currency: 'USDC', items: [item(), item(), item(), item({ recipient: SOLANA })] }).expect(400)
    expect(res.body.error.message).toMatch(/^items\[3\]: recipient must be a wal_ wallet id or/)
    const shape = await post({ source_wallet: source.id, currency: 'USDC', items: [item(), item({ amount: 5 })] }).expect(400)
    expect(shape.body.error.message).toMatch(/^items\[1\]: amount must be a decimal string/)
  })

  it('explains insufficient funds with the available balance and the total', async () => {
    sb = await startTestSandbox()
    const user = (await sb.api.get('/v1/wallets?type=user&network=polygon&currency=USDC').set(sb.auth()).expect(200)).body.data[0]
    const res = await post({ source_wallet: user.id, currency: 'USDC', items: [item({ amount: '200' }), item({ amount: '50.01' })] }).expect(422)
    expect(res.body.error.message).toBe(`Wallet ${user.id} has 250.00 USDC available; the 2 items of the payout total 250.01.`)
  })

  it('refuses an external item that is not whitelisted when the whitelist is enforced', async () => {
    sb = await startTestSandbox({ whitelistEnforced: true })
    const source = await polygonUsdc()
    await sb.api.post('/v1/whitelisted_addresses').set(sb.auth()).send({ address: EVM, network: 'polygon' }).expect(201)
    const res = await post({ source_wallet: source.id, currency: 'USDC', items: [item(), item({ recipient: EVM_2 })] }).expect(422)
    expect(res.body.error).toMatchObject({ code: 'recipient_not_whitelisted', param: 'items[1].recipient' })
    expect(await totals()).toEqual({ payouts: 0, payments: 0 })
    await created({ source_wallet: source.id, currency: 'USDC', items: [item(), item()] })
  })
})

describe('GET /v1/payouts and /v1/payouts/{id}', () => {
  it('lists newest first with pagination, and retrieves one', async () => {
    sb = await startTestSandbox()
    const source = await polygonUsdc()
    const ids: string[] = []
    for (let i = 0; i < 3; i++) ids.push((await created({ source_wallet: source.id, currency: 'USDC', items: [item()] })).id)
    const page = (await sb.api.get('/v1/payouts?limit=2&offset=1').set(sb.auth()).expect(200)).body
    expect(page.data.map((p: Payout) => p.id)).toEqual([ids[1], ids[0]])
    expect(page.pagination).toEqual({ limit: 2, offset: 1, total: 3, has_more: false })
    expect((await sb.api.get('/v1/payouts').set(sb.auth()).expect(200)).body.data.map((p: Payout) => p.id)).toEqual([...ids].reverse())
    expect(await getPayout(ids[2]!)).toMatchObject({ id: ids[2], object: 'payout', item_count: 1 })
  })

  it.each(['limit=0', 'limit=101', 'offset=-1', 'limit=abc', 'status=pending'])('refuses ?%s with 400 parameter_invalid', async (query) => {
    sb = await startTestSandbox()
    const res = await sb.api.get(`/v1/payouts?${query}`).set(sb.auth()).expect(400)
    expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param: query.split('=')[0] })
  })

  it('answers 404 resource_missing for an unknown payout and for another account’s', async () => {
    sb = await startTestSandbox()
    const source = await polygonUsdc()
    const payout = await created({ source_wallet: source.id, currency: 'USDC', items: [item()] })
    const unknown = await sb.api.get('/v1/payouts/po_unknown').set(sb.auth()).expect(404)
    expect(unknown.body.error).toMatchObject({ code: 'resource_missing', message: "No such payout: 'po_unknown'." })
    const foreign = await sb.api.get(`/v1/payouts/${payout.id}`).set(sb.auth('sk_test_another_account')).expect(404)
    expect(foreign.body.error).toMatchObject({ code: 'resource_missing', message: `No such payout: '${payout.id}'.` })
    expect((await sb.api.get('/v1/payouts').set(sb.auth('sk_test_another_account')).expect(200)).body.pagination.total).toBe(0)
  })
})

describe('keys, idempotency and persistence', () => {
  it('needs payments:write to create and payments:read to read', async () => {
    sb = await startTestSandbox()
    const source = await polygonUsdc()
    const body = { source_wallet: source.id, currency: 'USDC', items: [item()] }
    const denied = await post(body, 'rk_test_sandbox_read_only').expect(403)
    expect(denied.body.error).toMatchObject({ code: 'insufficient_permissions' })
    expect(denied.body.error.message).toContain('payments:write')
    const payout = (await post(body, 'rk_test_sandbox_payments_loopback').expect(201)).body.data
    await sb.api.get(`/v1/payouts/${payout.id}`).set(sb.auth('rk_test_sandbox_read_only')).expect(200)
    const walletsOnly = (await sb.api.post('/_sandbox/keys').send({ account_id: 'acct_sandboxDefaultAccount000', type: 'restricted', scopes: ['wallets:write'] }).expect(201)).body.data.key
    const list = await sb.api.get('/v1/payouts').set(sb.auth(walletsOnly)).expect(403)
    expect(list.body.error.message).toContain('payments:read')
  })

  it('replays a retry with the same Idempotency-Key and creates the payout once', async () => {
    sb = await startTestSandbox()
    const source = await polygonUsdc()
    const body = { source_wallet: source.id, currency: 'USDC', items: [item(), item({ amount: '2' })] }
    const first = await post(body).set('Idempotency-Key', 'batch-1').expect(201)
    const again = await post(body).set('Idempotency-Key', 'batch-1').expect(201)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.text).toBe(first.text)
    expect(await totals()).toEqual({ payouts: 1, payments: 2 })
    const reused = await post({ ...body, items: [item()] }).set('Idempotency-Key', 'batch-1').expect(422)
    expect(reused.body.error.code).toBe('idempotency_key_reused')
  })

  it('keeps payouts in the data file across a restart', async () => {
    const dataFile = join(mkdtempSync(join(tmpdir(), 'ws-payouts-')), 'ledger.json')
    sb = await startTestSandbox({ dataFile })
    const source = await polygonUsdc()
    const payout = await created({ source_wallet: source.id, currency: 'USDC', metadata: { batch: 'b1' }, items: [item(), item()] })
    await sb.api.post(`/_sandbox/payments/${payout.payment_ids[0]}/complete`).expect(200)
    const before = await getPayout(payout.id)
    expect(before.status).toBe('processing')
    await sb.close()

    sb = await startTestSandbox({ dataFile })
    expect(await getPayout(payout.id)).toEqual(before)
    // Still followed after the restart.
    await sb.api.post(`/_sandbox/payments/${payout.payment_ids[1]}/fail`).expect(200)
    expect((await getPayout(payout.id)).status).toBe('partially_failed')
  })

  it('a reset of the account removes its payouts', async () => {
    sb = await startTestSandbox()
    const source = await polygonUsdc()
    const payout = await created({ source_wallet: source.id, currency: 'USDC', items: [item()] })
    await sb.api.post('/_sandbox/reset').send({ api_key: 'sk_test_sandbox_default_key' }).expect(200)
    await sb.api.get(`/v1/payouts/${payout.id}`).set(sb.auth()).expect(404)
    expect(await totals()).toEqual({ payouts: 0, payments: 0 })
  })
})
