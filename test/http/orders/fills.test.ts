import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { findLedgerViolations } from '../../../src/ledger/ledger-check.js'
import { startTestSandbox, type TestSandbox } from '../../helpers/start-test-sandbox.js'
import { balanceOf, ledgerViolations, tradingWallets } from '../../helpers/orders.js'

let sb: TestSandbox
beforeEach(async () => {
  sb = await startTestSandbox()
})
afterEach(async () => {
  expect(ledgerViolations(sb, findLedgerViolations)).toEqual([])
  await sb.close()
})

const place = (body: Record<string, unknown>) => sb.api.post('/v1/orders').set(sb.auth()).send(body)

describe('order fills and locks, with exact amounts', () => {
  it('locks amount × limit plus the most the fee can be, releases a better price, and a cancel releases exactly the remainder', async () => {
    const { eth, usdc } = await tradingWallets(sb, { USDC: '10000' })
    const order = (await place({ pair: 'ETH/USDC', side: 'buy', type: 'limit', amount: '2', limit_price: '3000', base_wallet: eth, quote_wallet: usdc }).expect(201)).body.data
    expect(await balanceOf(sb, usdc)).toEqual({ available: '3994.00', locked: '6006.00' })

    // 0.5 ETH at 2469.135782: 1234.567891 USDC, fee 1.234567891 rounded up to 1.234568.
    const filled = (await sb.api.post(`/_sandbox/orders/${order.id}/fill`).send({ amount: '0.5', price: '2469.135782' }).expect(200)).body.data
    expect(filled).toMatchObject({ status: 'partially_filled', filled_amount: '0.50', remaining_amount: '1.50', quote_amount: '1234.567891', fee: '1.234568', average_price: '2469.135782' })
    expect(filled.fills).toEqual([{ price: '2469.135782', amount: '0.50', fee: '1.234568', timestamp: '2026-01-01T00:00:00.000Z' }])
    // What the remaining 1.5 ETH can still cost at the limit stays locked: 4500 + 4.50 fee; the better price's saving is released.
    expect(await balanceOf(sb, usdc)).toEqual({ available: '4259.697541', locked: '4504.50' })
    expect(await balanceOf(sb, eth)).toEqual({ available: '0.50', locked: '0.00' })

    const cancelled = (await sb.api.post(`/v1/orders/${order.id}/cancel`).set(sb.auth()).expect(200)).body.data
    expect(cancelled).toMatchObject({ status: 'cancelled', filled_amount: '0.50', remaining_amount: '1.50' })
    expect(await balanceOf(sb, usdc)).toEqual({ available: '8764.197541', locked: '0.00' })

    const again = await sb.api.post(`/v1/orders/${order.id}/cancel`).set(sb.auth()).expect(409)
    expect(again.body.error.code).toBe('invalid_state_transition')
  })

  it('rounds a sell’s proceeds down and its fee up', async () => {
    const { eth, usdc } = await tradingWallets(sb, { ETH: '1' })
    const order = (await place({ pair: 'ETH/USDC', side: 'sell', type: 'limit', amount: '1', limit_price: '5000', base_wallet: eth, quote_wallet: usdc }).expect(201)).body.data
    expect(await balanceOf(sb, eth)).toEqual({ available: '0.00', locked: '1.00' })
    // 1 ETH at 5000.0000009: 5000.000000 received (rounded down), fee 5.0000000009 → 5.000001 (rounded up).
    const filled = (await sb.api.post(`/_sandbox/orders/${order.id}/fill`).send({ price: '5000.0000009' }).expect(200)).body.data
    expect(filled).toMatchObject({ status: 'filled', quote_amount: '5000.00', fee: '5.000001', completed_at: '2026-01-01T00:00:00.000Z' })
    expect(await balanceOf(sb, usdc)).toEqual({ available: '4994.999999', locked: '0.00' })
    expect(await balanceOf(sb, eth)).toEqual({ available: '0.00', locked: '0.00' })
  })

  it('never lets a control fill cost a buy more than its limit', async () => {
    const { eth, usdc } = await tradingWallets(sb, { USDC: '10000' })
    const order = (await place({ pair: 'ETH/USDC', side: 'buy', type: 'limit', amount: '1', limit_price: '3000', base_wallet: eth, quote_wallet: usdc }).expect(201)).body.data
    const res = await sb.api.post(`/_sandbox/orders/${order.id}/fill`).send({ price: '3000.01' }).expect(400)
    expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param: 'price' })
    const tooMuch = await sb.api.post(`/_sandbox/orders/${order.id}/fill`).send({ amount: '1.5' }).expect(400)
    expect(tooMuch.body.error).toMatchObject({ code: 'parameter_invalid', param: 'amount' })
    expect(await balanceOf(sb, usdc)).toEqual({ available: '6997.00', locked: '3003.00' })
  })

  it('rejects by metadata and by control call, releasing the lock; not once an order has fills', async () => {
    const { eth, usdc } = await tradingWallets(sb, { USDC: '10000' })
    const rejected = (await place({ pair: 'ETH/USDC', side: 'buy', type: 'limit', amount: '1', limit_price: '3000', base_wallet: eth, quote_wallet: usdc, metadata: { sandbox_outcome: 'rejected', sandbox_reject_reason: 'risk limits' } }).expect(201)).body.data
    expect(rejected).toMatchObject({ status: 'rejected', reject_reason: 'risk limits' })
    expect(await balanceOf(sb, usdc)).toEqual({ available: '10000.00', locked: '0.00' })

    const open = (await place({ pair: 'ETH/USDC', side: 'buy', type: 'limit', amount: '1', limit_price: '3000', base_wallet: eth, quote_wallet: usdc }).expect(201)).body.data
    await sb.api.post(`/_sandbox/orders/${open.id}/fill`).send({ amount: '0.1', price: '3000' }).expect(200)
    expect((await sb.api.post(`/_sandbox/orders/${open.id}/reject`).send({}).expect(409)).body.error.code).toBe('invalid_state_transition')

    const other = (await place({ pair: 'ETH/USDC', side: 'buy', type: 'limit', amount: '1', limit_price: '3000', base_wallet: eth, quote_wallet: usdc }).expect(201)).body.data
    const byControl = (await sb.api.post(`/_sandbox/orders/${other.id}/reject`).send({ reason: 'venue closed' }).expect(200)).body.data
    expect(byControl).toMatchObject({ status: 'rejected', reject_reason: 'venue closed' })
    expect((await sb.api.post(`/_sandbox/orders/${other.id}/fill`).send({}).expect(409)).body.error.code).toBe('invalid_state_transition')
    expect((await sb.api.post('/_sandbox/orders/ord_unknown/fill').send({}).expect(404)).body.error.code).toBe('resource_missing')
  })
})
