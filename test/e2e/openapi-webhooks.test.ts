import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EVENT_TYPES } from '../../src/model/events.js'
import { checkerFor } from '../helpers/conformance.js'
import { institutionalWallet, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js'

/** Every event type the sandbox delivers, as received over HTTP, matches the document's `webhooks` section. */

const EVM = '0x52908400098527886E0F7030069857D2E4169EE7'
const EVM_2 = '0xde709f2102306220921060314715629080e2fb77'

let sb: TestSandbox
let receiver: WebhookReceiver
beforeAll(async () => {
  sb = await startTestSandbox()
  receiver = await startWebhookReceiver()
})
afterAll(async () => {
  await sb.close()
  await receiver.close()
})

describe('webhook payloads', () => {
  it('of every event type conform to the webhooks section of the document', async () => {
    const endpoint = await sb.api.post('/v1/webhooks').set(sb.auth()).send({ url: receiver.url }).expect(201)
    receiver.secret = endpoint.body.data.secret
    const source = (await institutionalWallet(sb, 'polygon', 'USDC')).id
    const pay = async (recipient: string) => (await sb.api.post('/v1/payments').set(sb.auth()).send({ source_wallet: source, recipient, amount: '1.00', currency: 'USDC' }).expect(201)).body.data.id as string
    const payout = async () =>
      (await sb.api.post('/v1/payouts').set(sb.auth()).send({ source_wallet: source, currency: 'USDC', items: [{ amount: '1.00', recipient: EVM }, { amount: '2.00', recipient: EVM_2 }] }).expect(201)).body.data.payment_ids as string[]
    const settle = (id: string, how: 'complete' | 'fail') => sb.api.post(`/_sandbox/payments/${id}/${how}`).send({}).expect(200)

    await settle(await pay(EVM), 'complete')
    await settle(await pay(EVM), 'fail')
    for (const outcomes of [['complete', 'complete'], ['fail', 'fail'], ['complete', 'fail']] as const) {
      const items = await payout()
      for (const [index, how] of outcomes.entries()) await settle(items[index]!, how)
    }
    const eth = (await institutionalWallet(sb, 'ethereum', 'ETH')).id
    const usdc = (await institutionalWallet(sb, 'ethereum', 'USDC')).id
    const order = async (body: Record<string, unknown>) =>
      (await sb.api.post('/v1/orders').set(sb.auth()).send({ pair: 'ETH/USDC', side: 'buy', type: 'limit', amount: '0.01', limit_price: '1', base_wallet: eth, quote_wallet: usdc, ...body }).expect(201)).body.data.id as string
    const resting = await order({})
    await sb.api.post(`/_sandbox/orders/${resting}/fill`).send({ amount: '0.005', price: '1' }).expect(200)
    await sb.api.post(`/_sandbox/orders/${resting}/fill`).send({ price: '0.99' }).expect(200)
    await sb.api.post(`/v1/orders/${await order({})}/cancel`).set(sb.auth()).expect(200)
    await sb.api.post(`/_sandbox/orders/${await order({})}/reject`).send({}).expect(200)
    await order({ time_in_force: 'gtd', expires_at: '2026-01-01T00:00:01.000Z' })
    await sb.api.post('/_sandbox/clock/advance').send({ ms: 1000 }).expect(200)
    const settlement = async (destination: Record<string, unknown>) =>
      (await sb.api.post('/v1/settlements').set(sb.auth()).send({ source_wallet: source, amount: '5.00', destination }).expect(201)).body.data.id as string
    await sb.api.post(`/_sandbox/settlements/${await settlement({ type: 'address', network: 'polygon', currency: 'USDC', address: EVM })}/advance`).expect(200)
    await sb.api.post(`/_sandbox/settlements/${await settlement({ type: 'address', network: 'polygon', currency: 'USDC', address: EVM })}/fail`).send({}).expect(200)
    // A magic bank account (docs/settlements.md): its payout fails after value left, so it is refunded 5 s later.
    const refunded = await settlement({ type: 'bank_account', currency: 'USD', beneficiary: { name: 'Ada Lovelace', country: 'US', routing_number: '021000021', account_number: '4000000001' } })
    for (let step = 0; step < 5 && (await sb.api.post(`/_sandbox/settlements/${refunded}/advance`)).status === 200; step++);
    await sb.api.post('/_sandbox/clock/advance').send({ ms: 5000 }).expect(200)
    expect((await sb.api.get(`/v1/settlements/${refunded}`).set(sb.auth()).expect(200)).body.data.status).toBe('refunded')

    const deliveries = (await sb.api.get('/_sandbox/webhooks/deliveries?limit=100').expect(200)).body.data as unknown[]
    const received = await receiver.waitFor(deliveries.length)
    const checker = checkerFor((await sb.sandbox.loadRoutes()))
    expect(received.flatMap((webhook) => checker.eventProblems(webhook.body))).toEqual([])
    expect(received.every((webhook) => webhook.verifyError === null)).toBe(true)
    expect(new Set(received.map((webhook) => webhook.event.type))).toEqual(new Set(EVENT_TYPES))
  })

  it('are checked: a payload that breaks its schema is reported', async () => {
    const checker = checkerFor((await sb.sandbox.loadRoutes()))
    expect(checker.eventProblems({ type: 'payment.succeeded', id: 'evt_x', object: 'event' }).join('\n')).toMatch(/payment\.succeeded: .*must have required property 'created_at'/)
    expect(checker.eventProblems({ type: 'wallet.exploded' })).toEqual([`the event type "wallet.exploded" is not in the document's webhooks`])
  })
})
