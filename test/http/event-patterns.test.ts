import { afterEach, describe, expect, it } from 'vitest'
import { buildOpenApiDocument } from '../../src/openapi/document.js'
import { EVENT_PATTERNS, typesOf } from '../../src/model/event-patterns.js'
import { EVENT_TYPES } from '../../src/model/events.js'
import { institutionalWallet, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js'

/** One description of an event pattern: webhook endpoints' `events` take what `GET /_sandbox/events`' `type` takes. */

let sb: TestSandbox
let receiver: WebhookReceiver | undefined
afterEach(async () => {
  await receiver?.close()
  receiver = undefined
  await sb?.close()
})

const PAYMENT_TYPES = EVENT_TYPES.filter((type) => type.startsWith('payment.'))

describe('event patterns', () => {
  it('are types, resource.* and *', () => {
    expect(EVENT_PATTERNS).toEqual(expect.arrayContaining(['*', 'payment.*', 'payout.*', 'order.*', 'settlement.*', ...EVENT_TYPES]))
    expect(typesOf(['payout.failed', 'payment.*', 'payment.failed'])).toEqual(['payout.failed', ...PAYMENT_TYPES])
    expect(typesOf(['order.filled', '*'])).toEqual([...EVENT_TYPES])
  })

  it.each([...EVENT_PATTERNS])('%s: a webhook endpoint takes it, as the events route does', async (pattern) => {
    sb = await startTestSandbox()
    const created = await sb.api.post('/v1/webhooks').set(sb.auth()).send({ url: 'https://example.com/hooks', events: [pattern] }).expect(201)
    expect(created.body.data.events).toEqual(typesOf([pattern]))
    const updated = await sb.api.put(`/v1/webhooks/${created.body.data.id}`).set(sb.auth()).send({ events: [pattern, 'payout.failed'] }).expect(200)
    expect(updated.body.data.events).toEqual(typesOf([pattern, 'payout.failed']))
    await sb.api.get('/_sandbox/events').query({ type: pattern }).expect(200)
  })

  it.each(['payment.', 'payment.**', 'pay*', 'refund.*', '.*', 'payment.exploded'])('%s: both refuse it, saying what a pattern is', async (pattern) => {
    sb = await startTestSandbox()
    const endpoint = await sb.api.post('/v1/webhooks').set(sb.auth()).send({ url: 'https://example.com/hooks', events: [pattern] }).expect(400)
    expect(endpoint.body.error).toMatchObject({ code: 'parameter_invalid', param: 'events' })
    expect(endpoint.body.error.message).toContain('resource.* (payment.*,')
    const route = await sb.api.get('/_sandbox/events').query({ type: pattern }).expect(400)
    expect(route.body.error).toMatchObject({ code: 'parameter_invalid', param: 'type' })
    expect(route.body.error.message).toContain('resource.* (payment.*,')
  })

  it('an endpoint for payment.* receives the payment events and no other', async () => {
    sb = await startTestSandbox()
    receiver = await startWebhookReceiver()
    const endpoint = await sb.api.post('/v1/webhooks').set(sb.auth()).send({ url: receiver.url, events: ['payment.*'] }).expect(201)
    receiver.secret = endpoint.body.data.secret
    const wallet = await institutionalWallet(sb, 'polygon', 'USDC')
    const payment = await sb.api.post('/v1/payments').set(sb.auth()).send({ amount: '1.00', currency: 'USDC', source_wallet: wallet.id, recipient: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' }).expect(201)
    await sb.api.post(`/_sandbox/payments/${payment.body.data.id}/fail`).send({}).expect(200)
    await sb.sandbox.webhooks.idle()
    expect(receiver.received.map((delivery) => JSON.parse(delivery.body).type)).toEqual(['payment.created', 'payment.failed'])
  })

  it('the OpenAPI document lists the same patterns for both', async () => {
    sb = await startTestSandbox()
    const document = buildOpenApiDocument((await sb.sandbox.loadRoutes()), { version: 'test' }) as unknown as {
      components: { requestBodies: Record<string, { content: Record<string, { schema: { properties: { events: { items: { enum: string[]; description: string } } } } }> }> }
      paths: Record<string, { get?: { parameters?: Array<{ name: string; description?: string }> } }>
    }
    const events = document.components.requestBodies.CreateWebhookEndpointRequest!.content['application/json']!.schema.properties.events.items
    expect(events.enum).toEqual([...EVENT_PATTERNS])
    expect(events.description).toContain('`payment.*`')
    const type = document.paths['/_sandbox/events']!.get!.parameters!.find((parameter) => parameter.name === 'type')!
    expect(type.description).toContain('`payment.*`')
  })
})
