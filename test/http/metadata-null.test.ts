import { afterEach, describe, expect, it } from 'vitest'
import { institutionalWallet, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

const EVM = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'

let sb: TestSandbox
afterEach(() => sb?.close())

describe('metadata: null in a create or update body', () => {
  it('means {} on every body that takes metadata', async () => {
    sb = await startTestSandbox()
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    const post = (path: string, body: object) => sb.api.post(path).set(sb.auth()).send(body)

    const wallet = (await post('/v1/wallets', { name: 'a', currency: 'USDC', network: 'polygon', metadata: null }).expect(201)).body.data
    expect(wallet.metadata).toEqual({})

    await sb.api.put(`/v1/wallets/${wallet.id}`).set(sb.auth()).send({ metadata: { team: 'x' } }).expect(200)
    const cleared = (await sb.api.put(`/v1/wallets/${wallet.id}`).set(sb.auth()).send({ metadata: null }).expect(200)).body.data
    expect(cleared.metadata).toEqual({})

    const payment = (await post('/v1/payments', { amount: '1.00', currency: 'USDC', source_wallet: source.id, recipient: EVM, metadata: null }).expect(201)).body.data
    expect(payment.metadata).toEqual({})

    const payout = (await post('/v1/payouts', { source_wallet: source.id, currency: 'USDC', metadata: null, items: [{ amount: '1.00', recipient: EVM, metadata: null }] }).expect(201)).body.data
    expect(payout.metadata).toEqual({})
    const item = (await sb.api.get(`/v1/payments/${payout.payment_ids[0]}`).set(sb.auth()).expect(200)).body.data
    expect(item.metadata).toEqual({})
  })

  it('still refuses metadata of another kind', async () => {
    sb = await startTestSandbox()
    for (const metadata of [5, 'x', [], true]) {
      const res = await sb.api.post('/v1/wallets').set(sb.auth()).send({ name: 'a', currency: 'USDC', network: 'polygon', metadata }).expect(400)
      expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param: 'metadata' })
    }
  })
})
