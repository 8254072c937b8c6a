import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { institutionalWallet, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

/**
 * Control calls name a payment by id alone: the sandbox finds its account (from the payment's latest
 * events, else by asking every account), and a hint that no longer holds (the account was reset)
 * must not find a payment that is gone.
 */

const KEYS = ['sk_test_find_payment_one', 'sk_test_find_payment_two', 'sk_test_find_payment_three']
const EVM = '0x52908400098527886e0f7030069857d2e4169ee7'

let sb: TestSandbox
beforeEach(async () => {
  sb = await startTestSandbox()
})
afterEach(() => sb.close())

async function pay(key: string): Promise<string> {
  const treasury = await institutionalWallet(sb, 'polygon', 'USDC', key)
  return (await sb.api.post('/v1/payments').set(sb.auth(key)).send({ amount: '1', currency: 'USDC', source_wallet: treasury.id, recipient: EVM }).expect(201)).body.data.id
}

describe('a control call on a payment', () => {
  it('moves the payment of whichever account holds it, and only that one', async () => {
    const ids: string[] = []
    for (const key of KEYS) ids.push(await pay(key))
    const completed = (await sb.api.post(`/_sandbox/payments/${ids[1]}/complete`).expect(200)).body.data
    const failed = (await sb.api.post(`/_sandbox/payments/${ids[0]}/fail`).send({}).expect(200)).body.data
    const payments = await Promise.all(KEYS.map(async (key, i) => (await sb.api.get(`/v1/payments/${ids[i]}`).set(sb.auth(key)).expect(200)).body.data))
    expect(payments.map((payment) => payment.status)).toEqual(['failed', 'completed', 'pending'])
    // The answer is the payment as it now is, every key in the API's order (it is the text its last event carried).
    expect(JSON.stringify(completed)).toBe(JSON.stringify(payments[1]))
    expect(JSON.stringify(failed)).toBe(JSON.stringify(payments[0]))
  })

  it('answers resource_missing for a payment whose account was reset since', async () => {
    const id = await pay(KEYS[0]!)
    await pay(KEYS[1]!)
    await sb.api.post('/_sandbox/reset').send({ api_key: KEYS[0] }).expect(200)
    const answer = await sb.api.post(`/_sandbox/payments/${id}/complete`).expect(404)
    expect(answer.body.error).toMatchObject({ type: 'invalid_request_error', code: 'resource_missing' })
  })
})
