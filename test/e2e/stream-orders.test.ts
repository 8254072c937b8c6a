import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_KEY, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'
import { connectStream, streamUrl, type StreamClient, type StreamMessage } from '../helpers/stream-client.js'
import { tradingWallets } from '../helpers/orders.js'

const open: Array<{ close(): unknown }> = []
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close()
})

async function sandbox(): Promise<TestSandbox> {
  const sb = await startTestSandbox()
  open.push(sb)
  return sb
}
async function client(sb: TestSandbox, key = DEFAULT_KEY): Promise<StreamClient> {
  const c = await connectStream(streamUrl(sb.url), { headers: { Authorization: `Bearer ${key}` } })
  open.push(c)
  return c
}
async function subscribe(c: StreamClient, pairs?: string[]) {
  c.send({ action: 'subscribe', channel: 'orders', ...(pairs ? { pairs } : {}) })
  const [ack, snapshot] = await c.take(2)
  return { ack: ack!, snapshot: snapshot! }
}
const orderEvents = (messages: StreamMessage[]) => messages.filter((m) => m.type === 'order').map((m) => [m.event, m.sequence, (m.data as { status: string }).status])

describe('the orders channel', () => {
  it('sends a snapshot with sequence 0 before any event, then every order event numbered from 1', async () => {
    const sb = await sandbox()
    const { eth, usdc } = await tradingWallets(sb, { USDC: '100000' })
    const c = await client(sb)
    const { ack, snapshot } = await subscribe(c)
    expect(ack).toEqual({ type: 'subscribed', channel: 'orders', pairs: null })
    expect(snapshot).toMatchObject({ type: 'orders_snapshot', channel: 'orders', sequence: 0, data: [] })
    const order = (await sb.api.post('/v1/orders').set(sb.auth()).send({ pair: 'ETH/USDC', side: 'buy', type: 'limit', amount: '7', limit_price: '4000', base_wallet: eth, quote_wallet: usdc }).expect(201)).body.data
    await sb.api.post('/_sandbox/clock/advance').send({ ms: 1000 }).expect(200)
    const messages = await c.drain()
    expect(orderEvents(messages)).toEqual([
      ['order.created', 1, 'open'],
      ['order.partially_filled', 2, 'partially_filled'],
      ['order.filled', 3, 'filled'],
    ])
    const last = messages.filter((m) => m.type === 'order').at(-1)!
    expect(last).toMatchObject({ channel: 'orders', timestamp: '2026-01-01T00:00:01.000Z', data: { id: order.id, filled_amount: '7.00' } })
  })

  it('lets a client that reconnects use the snapshot’s sequence to see that it missed nothing', async () => {
    const sb = await sandbox()
    const { eth, usdc } = await tradingWallets(sb, { USDC: '100000' })
    const place = (limit: string) => sb.api.post('/v1/orders').set(sb.auth()).send({ pair: 'ETH/USDC', side: 'buy', type: 'limit', amount: '1', limit_price: limit, base_wallet: eth, quote_wallet: usdc }).expect(201)
    const first = await client(sb)
    await subscribe(first)
    const resting = (await place('100')).body.data
    await place('4000') // fills at once: created + filled
    const seen = orderEvents(await first.drain())
    expect(seen.map(([, sequence]) => sequence)).toEqual([1, 2, 3])
    const lastSeen = seen.at(-1)![1] as number
    first.close()

    // While disconnected: the resting order is cancelled (event 4) and another placed (event 5).
    await sb.api.post(`/v1/orders/${resting.id}/cancel`).set(sb.auth()).expect(200)
    const newer = (await place('200')).body.data

    const second = await client(sb)
    const { snapshot } = await subscribe(second)
    expect(snapshot.sequence).toBe(5)
    expect(snapshot.sequence as number > lastSeen).toBe(true) // a gap: the client re-reads state from the snapshot
    expect((snapshot.data as Array<{ id: string; status: string }>).map((o) => [o.id, o.status])).toEqual([[newer.id, 'open']])
    await sb.api.post(`/v1/orders/${newer.id}/cancel`).set(sb.auth()).expect(200)
    expect(orderEvents(await second.drain())).toEqual([['order.cancelled', 6, 'cancelled']])
  })

  it('filters by pair, keeps accounts apart, and needs a key with orders:read', async () => {
    const sb = await sandbox()
    const { eth, usdc } = await tradingWallets(sb, { USDC: '1000' })
    const solOnly = await client(sb)
    await subscribe(solOnly, ['SOL/USDC'])
    const other = await client(sb, 'sk_test_orders_stream_other')
    await subscribe(other)
    await sb.api.post('/v1/orders').set(sb.auth()).send({ pair: 'ETH/USDC', side: 'buy', type: 'limit', amount: '1', limit_price: '100', base_wallet: eth, quote_wallet: usdc }).expect(201)
    expect(orderEvents(await solOnly.drain())).toEqual([])
    expect(orderEvents(await other.drain())).toEqual([])

    solOnly.send({ action: 'subscribe', channel: 'orders', pairs: ['DOGE/USDC'] })
    expect(await solOnly.next()).toMatchObject({ type: 'error', code: 'parameter_invalid' })
    const anonymous = await connectStream(streamUrl(sb.url))
    open.push(anonymous)
    anonymous.send({ action: 'subscribe', channel: 'orders' })
    expect(await anonymous.next()).toMatchObject({ type: 'error', code: 'api_key_missing' })
    const key = (await sb.api.post('/_sandbox/keys').send({ account_id: 'acct_sandboxDefaultAccount000', type: 'restricted', scopes: ['wallets:read'] }).expect(201)).body.data.key
    const restricted = await client(sb, key)
    restricted.send({ action: 'subscribe', channel: 'orders' })
    expect(await restricted.next()).toMatchObject({ type: 'error', code: 'insufficient_permissions' })
  })
})
