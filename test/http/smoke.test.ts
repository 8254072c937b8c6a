import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { institutionalWallet, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

let sb: TestSandbox
beforeEach(async () => {
  sb = await startTestSandbox()
})
afterEach(() => sb.close())

describe('a payment from a seeded wallet', () => {
  it('locks the amount and leaves the total unchanged', async () => {
    const wallet = await institutionalWallet(sb, 'solana', 'USDC')
    const payment = await sb.api
      .post('/v1/payments')
      .set(sb.auth())
      .send({ amount: '12.5', currency: 'USDC', source_wallet: wallet.id, recipient: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA' })
      .expect(201)
    expect(payment.body.data).toMatchObject({ amount: '12.50', status: 'pending', destination_type: 'address' })
    const balance = await sb.api.get(`/v1/wallets/${wallet.id}/balance`).set(sb.auth()).expect(200)
    expect(balance.body.data).toMatchObject({ available_balance: '999987.50', locked_balance: '12.50', total_balance: '1000000.00' })
  })
})
