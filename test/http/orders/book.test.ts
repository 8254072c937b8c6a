import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { findLedgerViolations } from '../../../src/ledger/ledger-check.js'
import { startTestSandbox, type TestSandbox } from '../../helpers/start-test-sandbox.js'
import { ledgerViolations } from '../../helpers/orders.js'

/**
 * A tick looks only at the orders its price reaches (store/resting-book.ts), on every pair and both
 * sides; what it does with them must be what a look at every open order did: the orders reached,
 * and those expired, in creation order across pairs.
 */
let sb: TestSandbox
let events: Array<[string, string]>
beforeEach(async () => {
  sb = await startTestSandbox()
  await pin('USDC/USD', '1')
  await pin('ETH/USD', '3000')
  await pin('SOL/USD', '100')
  events = []
  sb.sandbox.bus.on('order', (notification) => events.push([(notification.data as { id: string }).id, notification.event]))
})
afterEach(async () => {
  expect(ledgerViolations(sb, findLedgerViolations)).toEqual([])
  await sb.close()
})

const pin = (pair: string, price: string) => sb.api.post('/_sandbox/prices').send({ pair, price, spread_bp: 0 }).expect(201)
const advance = (ms: number) => sb.api.post('/_sandbox/clock/advance').send({ ms }).expect(200)
const read = async (id: string) => (await sb.api.get(`/v1/orders/${id}`).set(sb.auth()).expect(200)).body.data

async function wallet(currency: string, network: string, amount: string): Promise<string> {
  const created = await sb.api.post('/v1/wallets').set(sb.auth()).send({ name: `${currency} book`, currency, network }).expect(201)
  await sb.api.post(`/_sandbox/wallets/${created.body.data.id}/deposit`).send({ amount }).expect(200)
  return created.body.data.id as string
}

describe('the orders a tick reaches', () => {
  it('fills those whose limit the new prices cross and expires those due, oldest first across pairs, and leaves the rest alone', async () => {
    const eth = await wallet('ETH', 'ethereum', '10')
    const sol = await wallet('SOL', 'solana', '100')
    const usdc = await wallet('USDC', 'ethereum', '100000')
    const place = async (pair: string, side: string, limit: string, extra: Record<string, unknown> = {}) => {
      const [base, quote] = pair === 'ETH/USDC' ? [eth, usdc] : [sol, usdc]
      const body = { pair, side, type: 'limit', amount: '1', limit_price: limit, base_wallet: base, quote_wallet: quote, ...extra }
      return (await sb.api.post('/v1/orders').set(sb.auth()).send(body).expect(201)).body.data.id as string
    }
    // None of them reaches its limit at ETH 3000 and SOL 100.
    const ethBuy = await place('ETH/USDC', 'buy', '2900')
    const solSell = await place('SOL/USDC', 'sell', '120')
    const ethBuyLower = await place('ETH/USDC', 'buy', '2700')
    const solBuy = await place('SOL/USDC', 'buy', '90')
    const ethSell = await place('ETH/USDC', 'sell', '3500')
    const expiring = await place('ETH/USDC', 'buy', '2850', { time_in_force: 'gtd', expires_at: '2026-01-01T00:00:01.000Z' })
    const ethBuyAtPrice = await place('ETH/USDC', 'buy', '2800')
    expect(events.every(([, event]) => event === 'order.created')).toBe(true)
    events = []

    await pin('ETH/USD', '2800')
    await pin('SOL/USD', '125')
    await advance(1000)
    // A limit equal to the price is reached; the order due to expire at the tick expires instead of filling.
    expect(events).toEqual([
      [ethBuy, 'order.filled'],
      [solSell, 'order.filled'],
      [expiring, 'order.expired'],
      [ethBuyAtPrice, 'order.filled'],
    ])
    for (const id of [ethBuyLower, solBuy, ethSell]) expect(await read(id)).toMatchObject({ status: 'open', fills: [] })

    events = []
    await advance(5000)
    expect(events).toEqual([])
    await pin('ETH/USD', '3600')
    await advance(1000)
    expect(events).toEqual([[ethSell, 'order.filled']])
  })
})
