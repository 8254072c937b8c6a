import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { institutionalWallet, startTestSandbox, type TestSandbox } from '../../helpers/start-test-sandbox.js'

let sb: TestSandbox
beforeEach(async () => {
  sb = await startTestSandbox()
})
afterEach(() => sb.close())

describe('orders smoke', () => {
  it('places a limit buy and cancels it', async () => {
    const eth = await institutionalWallet(sb, 'ethereum', 'ETH')
    const usdc = await institutionalWallet(sb, 'ethereum', 'USDC')
    const res = await sb.api.post('/v1/orders').set(sb.auth()).send({ pair: 'ETH/USDC', side: 'buy', type: 'limit', amount: '1', limit_price: '100', base_wallet: eth.id, quote_wallet: usdc.id })
    console.log(res.status, JSON.stringify(res.body, null, 1))
    const bal = await sb.api.get(`/v1/wallets/${usdc.id}/balance`).set(sb.auth())
    console.log(bal.body.data)
    const m = await sb.api.post('/v1/orders').set(sb.auth()).send({ pair: 'ETH/USDC', side: 'sell', type: 'market', amount: '0.5', base_wallet: eth.id, quote_wallet: usdc.id })
    console.log(m.status, JSON.stringify(m.body.data))
    const c = await sb.api.post(`/v1/orders/${res.body.data.id}/cancel`).set(sb.auth())
    console.log(c.status, c.body.data.status)
    const bal2 = await sb.api.get(`/v1/wallets/${usdc.id}/balance`).set(sb.auth())
    console.log(bal2.body.data)
    const p = await sb.api.get(`/_sandbox/accounts`)
    const acct = p.body.data[0].id
    const post = await sb.api.get(`/_sandbox/accounts/${acct}/postings?limit=5`)
    console.log(JSON.stringify(post.body.data.map((t: any) => [t.cause, t.postings.map((x: any) => `${x.account} ${x.amount}`)])))
    expect(res.status).toBe(201)
  })
})
