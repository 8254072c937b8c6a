import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../../helpers/start-test-sandbox.js'
import { balanceOf, tradingWallets } from '../../helpers/orders.js'

let sb: TestSandbox
beforeEach(async () => {
  sb = await startTestSandbox()
})
afterEach(() => sb.close())

const OTHER = 'sk_test_orders_other_account'
const order = (eth: string, usdc: string) => ({ pair: 'ETH/USDC', side: 'buy', type: 'limit', amount: '0.1', limit_price: '100', base_wallet: eth, quote_wallet: usdc })

describe('orders are per account, behind the orders scopes, and idempotent', () => {
  it('answers another account’s order and wallets like unknown ones', async () => {
    const { eth, usdc } = await tradingWallets(sb, { USDC: '100' })
    const mine = (await sb.api.post('/v1/orders').set(sb.auth()).send(order(eth, usdc)).expect(201)).body.data
    const theirs = await tradingWallets(sb, { USDC: '100' }, OTHER)
    expect((await sb.api.get(`/v1/orders/${mine.id}`).set(sb.auth(OTHER)).expect(404)).body.error.code).toBe('resource_missing')
    expect((await sb.api.post(`/v1/orders/${mine.id}/cancel`).set(sb.auth(OTHER)).expect(404)).body.error.code).toBe('resource_missing')
    expect((await sb.api.get('/v1/orders').set(sb.auth(OTHER)).expect(200)).body.pagination.total).toBe(0)
    const foreign = await sb.api.post('/v1/orders').set(sb.auth(OTHER)).send(order(theirs.eth, usdc)).expect(404)
    expect(foreign.body.error).toMatchObject({ code: 'resource_missing', param: 'quote_wallet' })
    expect(await balanceOf(sb, usdc)).toEqual({ available: '89.99', locked: '10.01' })
  })

  it('needs orders:write to place or cancel and orders:read to read', async () => {
    const { eth, usdc } = await tradingWallets(sb, { USDC: '100' })
    const key = async (scopes: string[]) => (await sb.api.post('/_sandbox/keys').send({ account_id: 'acct_sandboxDefaultAccount000', type: 'restricted', scopes }).expect(201)).body.data.key as string
    const reader = await key(['orders:read'])
    const writer = await key(['orders:write'])
    const denied = await sb.api.post('/v1/orders').set(sb.auth(reader)).send(order(eth, usdc)).expect(403)
    expect(denied.body.error).toMatchObject({ code: 'insufficient_permissions' })
    expect(denied.body.error.message).toContain('orders:write')
    const placed = (await sb.api.post('/v1/orders').set(sb.auth(writer)).send(order(eth, usdc)).expect(201)).body.data
    // A :write scope includes its :read.
    await sb.api.get(`/v1/orders/${placed.id}`).set(sb.auth(writer)).expect(200)
    await sb.api.get('/v1/orders').set(sb.auth(reader)).expect(200)
    expect((await sb.api.post(`/v1/orders/${placed.id}/cancel`).set(sb.auth(reader)).expect(403)).body.error.code).toBe('insufficient_permissions')
    const walletsOnly = await key(['wallets:read'])
    expect((await sb.api.get('/v1/orders').set(sb.auth(walletsOnly)).expect(403)).body.error.message).toContain('orders:read')
  })

  it('replays a create with the same Idempotency-Key without placing a second order', async () => {
    const { eth, usdc } = await tradingWallets(sb, { USDC: '100' })
    const first = await sb.api.post('/v1/orders').set(sb.auth()).set('Idempotency-Key', 'order-1').send(order(eth, usdc)).expect(201)
    const again = await sb.api.post('/v1/orders').set(sb.auth()).set('Idempotency-Key', 'order-1').send(order(eth, usdc)).expect(201)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.text).toBe(first.text)
    expect((await sb.api.get('/v1/orders').set(sb.auth()).expect(200)).body.pagination.total).toBe(1)
    expect(await balanceOf(sb, usdc)).toEqual({ available: '89.99', locked: '10.01' })
    const cancel = () => sb.api.post(`/v1/orders/${first.body.data.id}/cancel`).set(sb.auth()).set('Idempotency-Key', 'cancel-1')
    const cancelled = await cancel().expect(200)
    const replayed = await cancel().expect(200)
    expect(replayed.text).toBe(cancelled.text)
    const changed = await sb.api.post('/v1/orders').set(sb.auth()).set('Idempotency-Key', 'order-1').send({ ...order(eth, usdc), amount: '0.2' }).expect(422)
    expect(changed.body.error.code).toBe('idempotency_key_reused')
  })

  it('lists newest first with filters and pages', async () => {
    const { eth, usdc } = await tradingWallets(sb, { USDC: '100', ETH: '1' })
    const a = (await sb.api.post('/v1/orders').set(sb.auth()).send(order(eth, usdc)).expect(201)).body.data
    const b = (await sb.api.post('/v1/orders').set(sb.auth()).send({ ...order(eth, usdc), side: 'sell', limit_price: '100000' }).expect(201)).body.data
    const c = (await sb.api.post('/v1/orders').set(sb.auth()).send(order(eth, usdc)).expect(201)).body.data
    await sb.api.post(`/v1/orders/${c.id}/cancel`).set(sb.auth()).expect(200)
    const ids = async (query: string) => (await sb.api.get(`/v1/orders${query}`).set(sb.auth()).expect(200)).body.data.map((o: { id: string }) => o.id)
    expect(await ids('')).toEqual([c.id, b.id, a.id])
    expect(await ids('?status=open')).toEqual([b.id, a.id])
    expect(await ids('?side=buy')).toEqual([c.id, a.id])
    expect(await ids('?side=buy&status=open')).toEqual([a.id])
    expect(await ids('?pair=SOL/USDC')).toEqual([])
    expect(await ids('?limit=1&offset=1')).toEqual([b.id])
  })
})

describe('wallets of open orders', () => {
  it('cannot be closed until the order is final', async () => {
    const { eth, usdc } = await tradingWallets(sb, { USDC: '100' })
    const placed = (await sb.api.post('/v1/orders').set(sb.auth()).send(order(eth, usdc)).expect(201)).body.data
    const refused = await sb.api.delete(`/v1/wallets/${eth}`).set(sb.auth()).expect(409)
    expect(refused.body.error.code).toBe('wallet_not_empty')
    await sb.api.post(`/v1/orders/${placed.id}/cancel`).set(sb.auth()).expect(200)
    await sb.api.delete(`/v1/wallets/${eth}`).set(sb.auth()).expect(200)
  })
})
