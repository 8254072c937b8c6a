import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { findLedgerViolations } from '../../../src/ledger/ledger-check.js'
import { startTestSandbox, type TestSandbox } from '../../helpers/start-test-sandbox.js'
import { startWebhookReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver.js'
import { balanceOf, ledgerViolations, tradingWallets } from '../../helpers/orders.js'

let sb: TestSandbox
let receiver: WebhookReceiver
beforeEach(async () => {
  sb = await startTestSandbox()
  receiver = await startWebhookReceiver()
  await sb.api.post('/v1/webhooks').set(sb.auth()).send({ url: receiver.url, events: ['order.created', 'order.partially_filled', 'order.filled', 'order.cancelled', 'order.expired', 'order.rejected'] }).expect(201)
})
afterEach(async () => {
  expect(ledgerViolations(sb, findLedgerViolations)).toEqual([])
  await sb.close()
  await receiver.close()
})

const place = (body: Record<string, unknown>) => sb.api.post('/v1/orders').set(sb.auth()).send(body).expect(201)
const advance = (ms: number) => sb.api.post('/_sandbox/clock/advance').send({ ms }).expect(200)
const ask = async () => (await sb.api.get('/v1/prices?pairs=ETH/USDC').set(sb.auth()).expect(200)).body.data[0].ask as string
async function eventTypes(orderId: string) {
  await sb.sandbox.webhooks.idle()
  return receiver.received.filter((hook) => hook.event.data.object.id === orderId).map((hook) => [hook.event.type, hook.event.data.object.status])
}

/**
 * What a buy's fills cost in USDC base units (6 decimals), worked out here independently of the
 * sandbox: Σ amount × price rounded up, and the 10 bps fee on the exact value rounded up.
 */
function buyCost(fills: Array<{ amount: string; price: string }>): { paid: bigint; fee: bigint } {
  const exact = fills.reduce((sum, fill) => sum + scaled(fill.amount) * scaled(fill.price), 0n) // 10^-36 USDC
  const ceil = (value: bigint, unit: bigint) => (value + unit - 1n) / unit
  return { paid: ceil(exact, 10n ** 30n), fee: ceil(exact * 10n, 10n ** 30n * 10_000n) }
}
const scaled = (value: string) => {
  const [whole, fraction = ''] = value.split('.')
  return BigInt(whole! + fraction.padEnd(18, '0'))
}
const usdc = (units: bigint) => {
  const text = units.toString().padStart(7, '0')
  const fraction = text.slice(-6).replace(/0+$/, '').padEnd(2, '0')
  return `${text.slice(0, -6)}.${fraction}`
}

describe('limit orders fill on the ticks of the sandbox clock', () => {
  it('fills at most the liquidity per tick: at creation, then on the next two ticks, at each tick’s ask', async () => {
    const { eth, usdc: quote } = await tradingWallets(sb, { USDC: '50000' })
    const asks = [await ask()]
    const order = (await place({ pair: 'ETH/USDC', side: 'buy', type: 'limit', amount: '12', limit_price: '4000', base_wallet: eth, quote_wallet: quote })).body.data
    expect(order).toMatchObject({ status: 'partially_filled', filled_amount: '5.00', remaining_amount: '7.00' })
    await advance(1000)
    asks.push(await ask())
    expect((await sb.api.get(`/v1/orders/${order.id}`).set(sb.auth()).expect(200)).body.data).toMatchObject({ status: 'partially_filled', filled_amount: '10.00' })
    await advance(1000)
    asks.push(await ask())
    const done = (await sb.api.get(`/v1/orders/${order.id}`).set(sb.auth()).expect(200)).body.data
    expect(done).toMatchObject({ status: 'filled', filled_amount: '12.00', remaining_amount: '0.00', completed_at: '2026-01-01T00:00:02.000Z' })
    expect(done.fills.map((fill: { amount: string; price: string; timestamp: string }) => [fill.amount, fill.price, fill.timestamp])).toEqual([
      ['5.00', asks[0], '2026-01-01T00:00:00.000Z'],
      ['5.00', asks[1], '2026-01-01T00:00:01.000Z'],
      ['2.00', asks[2], '2026-01-01T00:00:02.000Z'],
    ])
    const { paid, fee } = buyCost(done.fills)
    expect(done).toMatchObject({ quote_amount: usdc(paid), fee: usdc(fee) })
    // The lock was 12 × 4000 + 48 fee; what prices below the limit saved was released: nothing stays locked.
    expect(await balanceOf(sb, quote)).toEqual({ available: usdc(50_000_000_000n - paid - fee), locked: '0.00' })
    expect(await balanceOf(sb, eth)).toEqual({ available: '12.00', locked: '0.00' })
    expect(await eventTypes(order.id)).toEqual([
      ['order.created', 'open'],
      ['order.partially_filled', 'partially_filled'],
      ['order.partially_filled', 'partially_filled'],
      ['order.filled', 'filled'],
    ])
  })

  it('rests while the price does not reach the limit', async () => {
    const { eth, usdc: quote } = await tradingWallets(sb, { USDC: '1000' })
    const order = (await place({ pair: 'ETH/USDC', side: 'buy', type: 'limit', amount: '0.5', limit_price: '100', base_wallet: eth, quote_wallet: quote })).body.data
    await advance(10_000)
    expect((await sb.api.get(`/v1/orders/${order.id}`).set(sb.auth()).expect(200)).body.data).toMatchObject({ status: 'open', filled_amount: '0.00' })
    expect(await balanceOf(sb, quote)).toEqual({ available: '949.95', locked: '50.05' })
  })

  it('ioc fills what one tick’s liquidity allows at creation and cancels the rest, releasing it', async () => {
    const { eth, usdc: quote } = await tradingWallets(sb, { USDC: '40000' })
    const order = (await place({ pair: 'ETH/USDC', side: 'buy', type: 'limit', time_in_force: 'ioc', amount: '7', limit_price: '4000', base_wallet: eth, quote_wallet: quote })).body.data
    expect(order).toMatchObject({ status: 'cancelled', filled_amount: '5.00', remaining_amount: '2.00' })
    const { paid, fee } = buyCost(order.fills)
    expect(order).toMatchObject({ quote_amount: usdc(paid), fee: usdc(fee) })
    expect(await balanceOf(sb, quote)).toEqual({ available: usdc(40_000_000_000n - paid - fee), locked: '0.00' })
    expect(await eventTypes(order.id)).toEqual([
      ['order.created', 'open'],
      ['order.partially_filled', 'partially_filled'],
      ['order.cancelled', 'cancelled'],
    ])
  })

  it('gtd expires at the first instant the clock reaches expires_at, and releases its lock', async () => {
    const { eth, usdc: quote } = await tradingWallets(sb, { USDC: '1000' })
    const order = (await place({ pair: 'ETH/USDC', side: 'buy', type: 'limit', time_in_force: 'gtd', expires_at: '2026-01-01T00:00:02.500Z', amount: '1', limit_price: '100', base_wallet: eth, quote_wallet: quote })).body.data
    await advance(2499)
    expect((await sb.api.get(`/v1/orders/${order.id}`).set(sb.auth()).expect(200)).body.data.status).toBe('open')
    await advance(1)
    const expired = (await sb.api.get(`/v1/orders/${order.id}`).set(sb.auth()).expect(200)).body.data
    expect(expired).toMatchObject({ status: 'expired', updated_at: '2026-01-01T00:00:02.500Z' })
    expect(await balanceOf(sb, quote)).toEqual({ available: '1000.00', locked: '0.00' })
    expect(await eventTypes(order.id)).toEqual([
      ['order.created', 'open'],
      ['order.expired', 'expired'],
    ])
  })

  it('fills a market order completely at once, whatever its size, at the ask', async () => {
    const { eth, usdc: quote } = await tradingWallets(sb, { USDC: '100000' })
    const now = await ask()
    const order = (await place({ pair: 'ETH/USDC', side: 'buy', type: 'market', amount: '20', base_wallet: eth, quote_wallet: quote })).body.data
    expect(order).toMatchObject({ status: 'filled', filled_amount: '20.00', average_price: now, limit_price: null })
    expect(order.fills).toHaveLength(1)
    expect(await balanceOf(sb, eth)).toEqual({ available: '20.00', locked: '0.00' })
    expect((await balanceOf(sb, quote)).locked).toBe('0.00')
  })
})
