import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../../helpers/start-test-sandbox.js'
import { balanceOf, tradingWallets } from '../../helpers/orders.js'

let sb: TestSandbox
let eth: string
let usdc: string
let sol: string
let frozen: string
beforeEach(async () => {
  sb = await startTestSandbox()
  ;({ eth, usdc } = await tradingWallets(sb, { ETH: '1', USDC: '1000' }))
  sol = (await sb.api.post('/v1/wallets').set(sb.auth()).send({ name: 'sol', currency: 'SOL', network: 'solana' }).expect(201)).body.data.id
  frozen = (await sb.api.post('/v1/wallets').set(sb.auth()).send({ name: 'frozen', currency: 'USDC', network: 'polygon' }).expect(201)).body.data.id
  await sb.api.put(`/v1/wallets/${frozen}`).set(sb.auth()).send({ status: 'frozen' }).expect(200)
})
afterEach(() => sb.close())

const base = () => ({ pair: 'ETH/USDC', side: 'buy', type: 'limit', amount: '0.1', limit_price: '3000', base_wallet: eth, quote_wallet: usdc })

type Case = [name: string, change: () => Record<string, unknown>, status: number, code: string, param?: string]

const CASES: Case[] = [
  ['limit_price on a market order', () => ({ type: 'market' }), 400, 'parameter_invalid', 'limit_price'],
  ['a limit order without limit_price', () => ({ limit_price: undefined }), 400, 'parameter_missing', 'limit_price'],
  ['no type', () => ({ type: undefined }), 400, 'parameter_missing', 'type'],
  ['an unknown side', () => ({ side: 'hold' }), 400, 'parameter_invalid', 'side'],
  ['an amount below the pair’s min_amount', () => ({ amount: '0.0001' }), 400, 'parameter_invalid', 'amount'],
  ['more decimals than the base wallet allows', () => ({ pair: 'SOL/USDC', base_wallet: sol, amount: '1.0000000001' }), 400, 'parameter_invalid', 'amount'],
  ['an amount that is not a decimal string', () => ({ amount: 1 }), 400, 'parameter_invalid', 'amount'],
  ['a negative limit_price', () => ({ limit_price: '-1' }), 400, 'parameter_invalid', 'limit_price'],
  ['an unknown pair', () => ({ pair: 'DOGE/USDC' }), 400, 'parameter_invalid', 'pair'],
  ['a base wallet of another currency', () => ({ base_wallet: usdc }), 400, 'parameter_invalid', 'base_wallet'],
  ['a quote wallet of another currency', () => ({ quote_wallet: eth }), 400, 'parameter_invalid', 'quote_wallet'],
  ['an unknown base wallet', () => ({ base_wallet: 'wal_doesnotexist000000000000' }), 404, 'resource_missing', 'base_wallet'],
  ['an unknown quote wallet', () => ({ quote_wallet: 'wal_doesnotexist000000000000' }), 404, 'resource_missing', 'quote_wallet'],
  ['a frozen quote wallet', () => ({ quote_wallet: frozen }), 422, 'wallet_inactive', 'quote_wallet'],
  ['gtd without expires_at', () => ({ time_in_force: 'gtd' }), 400, 'parameter_missing', 'expires_at'],
  ['gtd with expires_at in the past', () => ({ time_in_force: 'gtd', expires_at: '2025-12-31T23:59:59.000Z' }), 400, 'parameter_invalid', 'expires_at'],
  ['gtd with expires_at now', () => ({ time_in_force: 'gtd', expires_at: '2026-01-01T00:00:00.000Z' }), 400, 'parameter_invalid', 'expires_at'],
  ['expires_at without gtd', () => ({ expires_at: '2026-01-02T00:00:00.000Z' }), 400, 'parameter_invalid', 'expires_at'],
  ['an unknown time_in_force', () => ({ time_in_force: 'fok' }), 400, 'parameter_invalid', 'time_in_force'],
  ['an unknown field', () => ({ leverage: '10' }), 400, 'parameter_invalid', 'leverage'],
  ['an unknown sandbox_outcome', () => ({ metadata: { sandbox_outcome: 'filled' } }), 400, 'parameter_invalid', 'metadata'],
  ['a buy costing more than the quote wallet holds', () => ({ amount: '1' }), 422, 'insufficient_funds', 'quote_wallet'],
  ['a sell of more than the base wallet holds', () => ({ side: 'sell', limit_price: '100000', amount: '2' }), 422, 'insufficient_funds', 'base_wallet'],
]

describe('POST /v1/orders refuses bad input and changes nothing', () => {
  it.each(CASES)('%s', async (_name, change, status, code, param) => {
    const body: Record<string, unknown> = { ...base(), ...change() }
    const res = await sb.api.post('/v1/orders').set(sb.auth()).send(JSON.parse(JSON.stringify(body))).expect(status)
    expect(res.body.error.code).toBe(code)
    if (param) expect(res.body.error.param).toBe(param)
    const list = await sb.api.get('/v1/orders').set(sb.auth()).expect(200)
    expect(list.body.pagination.total).toBe(0)
    expect(await balanceOf(sb, usdc)).toEqual({ available: '1000.00', locked: '0.00' })
    expect(await balanceOf(sb, eth)).toEqual({ available: '1.00', locked: '0.00' })
  })

  it.each([
    ['status', 'done'],
    ['pair', 'eth/usdc'],
    ['side', 'long'],
    ['limit', '0'],
  ])('GET /v1/orders refuses %s=%s', async (param, value) => {
    const res = await sb.api.get(`/v1/orders?${param}=${value}`).set(sb.auth()).expect(400)
    expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param })
  })

  it.each([
    ['a currency the sandbox does not price', 'DOGE/USDC', 'the sandbox prices no DOGE'],
    ['two unpriced currencies', 'DOGE/SHIB', 'the sandbox prices no DOGE or SHIB'],
    ['the same currency twice', 'USDC/USDC', 'its two currencies are the same'],
  ])('GET /v1/orders refuses a pair filter no order can have: %s', async (_name, pair, reason) => {
    const res = await sb.api.get(`/v1/orders?pair=${encodeURIComponent(pair)}`).set(sb.auth()).expect(400)
    expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param: 'pair' })
    expect(res.body.error.message).toContain(reason)
  })

  it('GET /v1/orders takes a pair filter of priced currencies, traded or not', async () => {
    for (const pair of ['ETH/USDC', 'SOL/EUR']) {
      const res = await sb.api.get(`/v1/orders?pair=${encodeURIComponent(pair)}`).set(sb.auth()).expect(200)
      expect(res.body.data).toEqual([])
    }
  })
})
