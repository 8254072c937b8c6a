import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createControlClient } from '../../../src/client/control-client.js'
import { findLedgerViolations } from '../../../src/ledger/ledger-check.js'
import { startTestSandbox, type TestSandbox } from '../../helpers/start-test-sandbox.js'
import { balanceOf, ledgerViolations, tradingWallets } from '../../helpers/orders.js'

/** Orders against pinned prices (spread 0: bid = ask = the pin), so that every amount is exact and written out. */
let sb: TestSandbox
beforeEach(async () => {
  sb = await startTestSandbox()
  await pin('USDC/USD', '1')
  await pin('ETH/USD', '3000')
})
afterEach(async () => {
  expect(ledgerViolations(sb, findLedgerViolations)).toEqual([])
  await sb.close()
})

const pin = (pair: string, price: string) => sb.api.post('/_sandbox/prices').send({ pair, price, spread_bp: 0 }).expect(201)
const advance = (ms: number) => sb.api.post('/_sandbox/clock/advance').send({ ms }).expect(200)
const place = (body: Record<string, unknown>) => sb.api.post('/v1/orders').set(sb.auth()).send(body)
const read = async (id: string) => (await sb.api.get(`/v1/orders/${id}`).set(sb.auth()).expect(200)).body.data

describe('orders against pinned prices', () => {
  it('fills 12 ETH over three ticks at 5 per tick, releasing what each price below the limit saves', async () => {
    const { eth, usdc } = await tradingWallets(sb, { USDC: '50000' })
    const order = (await place({ pair: 'ETH/USDC', side: 'buy', type: 'limit', amount: '12', limit_price: '3100', base_wallet: eth, quote_wallet: usdc }).expect(201)).body.data
    // Locked 12 × 3100 + 37.20 fee = 37237.20; filled 5 at 3000 (15000 + 15 fee); 7 × 3100 + fee on the total still locked.
    expect(order).toMatchObject({ status: 'partially_filled', filled_amount: '5.00', quote_amount: '15000.00', fee: '15.00' })
    expect(await balanceOf(sb, usdc)).toEqual({ available: '13263.30', locked: '21721.70' })

    await pin('ETH/USD', '2990') // not a tick: nothing fills until the next one
    expect((await read(order.id)).filled_amount).toBe('5.00')
    await advance(1000)
    expect(await read(order.id)).toMatchObject({ status: 'partially_filled', filled_amount: '10.00', quote_amount: '29950.00', fee: '29.95' })
    expect(await balanceOf(sb, usdc)).toEqual({ available: '13813.85', locked: '6206.20' })

    await pin('ETH/USD', '2980')
    await advance(1000)
    const filled = await read(order.id)
    expect(filled).toMatchObject({ status: 'filled', filled_amount: '12.00', quote_amount: '35910.00', fee: '35.91', average_price: '2992.50' })
    expect(filled.fills.map((f: Record<string, string>) => [f.amount, f.price, f.fee])).toEqual([
      ['5.00', '3000.00', '15.00'],
      ['5.00', '2990.00', '14.95'],
      ['2.00', '2980.00', '5.96'],
    ])
    expect(await balanceOf(sb, usdc)).toEqual({ available: '14054.09', locked: '0.00' })
    expect(await balanceOf(sb, eth)).toEqual({ available: '12.00', locked: '0.00' })
  })

  it('fills a sell when the bid reaches its limit, at the bid, with the fee out of the proceeds', async () => {
    const { eth, usdc } = await tradingWallets(sb, { ETH: '1' })
    const order = (await place({ pair: 'ETH/USDC', side: 'sell', type: 'limit', amount: '0.333333', limit_price: '3010', base_wallet: eth, quote_wallet: usdc }).expect(201)).body.data
    expect(order.status).toBe('open')
    await pin('ETH/USD', '3012.34')
    await advance(1000)
    // 0.333333 × 3012.34 = 1004.112329... → 1004.112329 received (down), fee 1.004112329... → 1.004113 (up).
    expect(await read(order.id)).toMatchObject({ status: 'filled', quote_amount: '1004.112329', fee: '1.004113' })
    expect(await balanceOf(sb, usdc)).toEqual({ available: '1003.108216', locked: '0.00' })
    expect(await balanceOf(sb, eth)).toEqual({ available: '0.666667', locked: '0.00' })
  })

  it('fills an order from a quote at the quote’s price, once; an expired or used quote creates nothing', async () => {
    const { eth, usdc } = await tradingWallets(sb, { USDC: '10000' })
    const quote = (await sb.api.post('/v1/quotes').set(sb.auth()).send({ source_currency: 'USDC', destination_currency: 'ETH', destination_amount: '2' }).expect(201)).body.data
    await pin('ETH/USD', '3100') // the quote keeps its price
    const order = (await place({ pair: 'ETH/USDC', side: 'buy', quote_id: quote.id, base_wallet: eth, quote_wallet: usdc }).expect(201)).body.data
    expect(order).toMatchObject({ type: 'market', status: 'filled', amount: '2.00', quote_id: quote.id, quote_amount: '6000.00', fee: '6.00', average_price: '3000.00' })
    expect((await sb.api.get(`/v1/quotes/${quote.id}`).set(sb.auth()).expect(200)).body.data.status).toBe('used')

    const twice = await place({ pair: 'ETH/USDC', side: 'buy', quote_id: quote.id, base_wallet: eth, quote_wallet: usdc }).expect(422)
    expect(twice.body.error).toMatchObject({ code: 'quote_already_used', param: 'quote_id' })
    const stale = (await sb.api.post('/v1/quotes').set(sb.auth()).send({ source_currency: 'USDC', destination_currency: 'ETH', destination_amount: '1' }).expect(201)).body.data
    await advance(30_000)
    const expired = await place({ pair: 'ETH/USDC', side: 'buy', quote_id: stale.id, base_wallet: eth, quote_wallet: usdc }).expect(422)
    expect(expired.body.error).toMatchObject({ code: 'quote_expired', param: 'quote_id' })
    const wrongSide = await place({ pair: 'ETH/USDC', side: 'sell', quote_id: stale.id, base_wallet: eth, quote_wallet: usdc }).expect(400)
    expect(wrongSide.body.error).toMatchObject({ code: 'parameter_invalid', param: 'side' })
    const unknown = await place({ pair: 'ETH/USDC', side: 'buy', quote_id: 'quo_unknown', base_wallet: eth, quote_wallet: usdc }).expect(404)
    expect(unknown.body.error).toMatchObject({ code: 'resource_missing', param: 'quote_id' })
    expect((await sb.api.get('/v1/orders').set(sb.auth()).expect(200)).body.pagination.total).toBe(1)
    expect(await balanceOf(sb, usdc)).toEqual({ available: '3994.00', locked: '0.00' })
  })

  it('charges the fee --trading-fee-bps sets, rounded up', async () => {
    await sb.close()
    sb = await startTestSandbox({ tradingFeeBps: 25 })
    await pin('USDC/USD', '1')
    await pin('ETH/USD', '3000.01')
    const { eth, usdc } = await tradingWallets(sb, { USDC: '10000' })
    // 0.123457 × 3000.01 = 370.372234... → 370.372235 paid (up); 0.25 % of it = 0.925930... → 0.925931 (up).
    const order = (await place({ pair: 'ETH/USDC', side: 'buy', type: 'market', amount: '0.123457', base_wallet: eth, quote_wallet: usdc }).expect(201)).body.data
    expect(order).toMatchObject({ status: 'filled', quote_amount: '370.372235', fee: '0.925931' })
    expect(await balanceOf(sb, usdc)).toEqual({ available: '9628.701834', locked: '0.00' })
  })

  it('fills and rejects through the control client', async () => {
    const control = createControlClient({ baseUrl: sb.url })
    const { eth, usdc } = await tradingWallets(sb, { USDC: '10000' })
    const limit = { pair: 'ETH/USDC', side: 'buy', type: 'limit', amount: '1', limit_price: '2000', base_wallet: eth, quote_wallet: usdc }
    const first = (await place(limit).expect(201)).body.data
    expect(await control.fillOrder(first.id, { amount: '0.25', price: '1999.99' })).toMatchObject({ status: 'partially_filled', filled_amount: '0.25', quote_amount: '499.9975' })
    const second = (await place(limit).expect(201)).body.data
    expect(await control.rejectOrder(second.id, 'venue halted')).toMatchObject({ status: 'rejected', reject_reason: 'venue halted' })
    await expect(control.fillOrder(second.id)).rejects.toMatchObject({ status: 409, code: 'invalid_state_transition' })
  })
})
