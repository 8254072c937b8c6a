import { afterEach, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.js'
import type { OpenApiDocument } from '../../src/openapi/document.js'
import { EXAMPLE_IDS } from '../../src/schemas/path-params.js'
import { DEFAULT_KEY, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

/**
 * The path ids the document gives as examples work against a fresh `npx wallet-sandbox` (default
 * seed, default key): seeded ones exist from the start, the others are the ids the first resource
 * of their kind gets (src/schemas/path-params.ts). A change to seeding or to id generation fails here.
 */

const DEFAULT_SEED = loadConfig({}).seed
const EVM = '0x52908400098527886E0F7030069857D2E4169EE7'
const TREASURY_USDC_POLYGON = EXAMPLE_IDS.wallet

let sandboxes: TestSandbox[] = []
const fresh = async () => {
  const sb = await startTestSandbox({ seed: DEFAULT_SEED })
  sandboxes.push(sb)
  return sb
}
afterEach(async () => {
  await Promise.all(sandboxes.map((sb) => sb.close()))
  sandboxes = []
})

describe('path parameter examples', () => {
  it('exist for every path parameter of the document', async () => {
    const sb = await fresh()
    const doc = (await sb.api.get('/v1/openapi.json').expect(200)).body as OpenApiDocument
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const parameter of (operation.parameters ?? []) as Array<{ in?: string; name: string; example?: unknown }>) {
          // An id, or (price pins) a pair or one of its legs.
          if (parameter.in === 'path') expect(parameter.example, `${method} ${path} {${parameter.name}}`).toMatch(/^([a-z]+_\w{24,}|[A-Z]{3,5}(\/USD)?)$/)
        }
      }
    }
  })

  it('name the seeded default account and its funded treasury wallet', async () => {
    const sb = await fresh()
    const wallet = await sb.api.get(`/v1/wallets/${EXAMPLE_IDS.wallet}`).set(sb.auth()).expect(200)
    expect(wallet.body.data).toMatchObject({ type: 'institutional', network: 'polygon', currency: 'USDC', name: 'Treasury USDC on Polygon' })
    const accounts = await sb.api.get(`/_sandbox/accounts?api_key=${DEFAULT_KEY}`).expect(200)
    expect(accounts.body.data[0].id).toBe(EXAMPLE_IDS.account)
  })

  it('are the ids of the first payment and the first fault rule of a fresh sandbox', async () => {
    const sb = await fresh()
    const payment = await sb.api.post('/v1/payments').set(sb.auth()).send({ source_wallet: TREASURY_USDC_POLYGON, recipient: EVM, amount: '1.00', currency: 'USDC' }).expect(201)
    expect(payment.body.data.id).toBe(EXAMPLE_IDS.payment)
    const fault = await sb.api.post('/_sandbox/faults').send({ fault: 'latency', latency_ms: 1, match: { path: '/v1/nothing' } }).expect(201)
    expect(fault.body.data.id).toBe(EXAMPLE_IDS.fault)
  })

  it('is the id of the first settlement of a fresh sandbox', async () => {
    const sb = await fresh()
    const destination = { type: 'address', network: 'polygon', currency: 'USDC', address: EVM }
    const settlement = await sb.api.post('/v1/settlements').set(sb.auth()).send({ source_wallet: TREASURY_USDC_POLYGON, amount: '1.00', destination }).expect(201)
    expect(settlement.body.data.id).toBe(EXAMPLE_IDS.settlement)
    await sb.api.post(`/_sandbox/settlements/${EXAMPLE_IDS.settlement}/advance`).expect(200)
  })

  it('are the ids of the first payout and the first outcome rule of a fresh sandbox', async () => {
    const sb = await fresh()
    const payout = await sb.api.post('/v1/payouts').set(sb.auth()).send({ source_wallet: TREASURY_USDC_POLYGON, currency: 'USDC', items: [{ amount: '1.00', recipient: EVM }] }).expect(201)
    expect(payout.body.data.id).toBe(EXAMPLE_IDS.payout)
    const rule = await sb.api.post('/_sandbox/outcomes').send({ match: { recipient: EVM }, outcome: 'failed' }).expect(201)
    expect(rule.body.data.id).toBe(EXAMPLE_IDS.outcomeRule)
  })

  it('are the id of the first quote of a fresh sandbox, and a pair that can be pinned and unpinned', async () => {
    const sb = await fresh()
    const quote = await sb.api.post('/v1/quotes').set(sb.auth()).send({ source_currency: 'USDC', destination_currency: 'ETH', source_amount: '100' }).expect(201)
    expect(quote.body.data.id).toBe(EXAMPLE_IDS.quote)
    await sb.api.post('/_sandbox/prices').send({ pair: 'ETH/USD', price: '3000' }).expect(201)
    await sb.api.delete(`/_sandbox/prices/${encodeURIComponent('ETH/USD')}`).expect(200)
    await sb.api.post('/_sandbox/prices').send({ pair: 'ETH/USD', price: '3000' }).expect(201)
    await sb.api.delete('/_sandbox/prices/ETH/USD').expect(200)
  })

  it('are the ids of the first whitelisted address of a fresh sandbox', async () => {
    const sb = await fresh()
    const entry = await sb.api.post('/v1/whitelisted_addresses').set(sb.auth()).send({ address: EVM, network: 'polygon' }).expect(201)
    expect(entry.body.data.id).toBe(EXAMPLE_IDS.whitelistedAddress)
  })

  it('are the ids of the first webhook endpoint and its first delivery of a fresh sandbox', async () => {
    const sb = await fresh()
    const endpoint = await sb.api.post('/v1/webhooks').set(sb.auth()).send({ url: 'http://127.0.0.1:9/hooks' }).expect(201)
    expect(endpoint.body.data.id).toBe(EXAMPLE_IDS.webhookEndpoint)
    await sb.api.post('/v1/payments').set(sb.auth()).send({ source_wallet: TREASURY_USDC_POLYGON, recipient: EVM, amount: '1.00', currency: 'USDC' }).expect(201)
    const deliveries = await sb.api.get('/_sandbox/webhooks/deliveries').expect(200)
    expect(deliveries.body.data.map((delivery: { id: string }) => delivery.id)).toEqual([EXAMPLE_IDS.delivery])
  })
})

describe('request body examples', () => {
  it('exist for every request body and are valid against its schema', async () => {
    const sb = await fresh()
    const doc = (await sb.api.get('/v1/openapi.json').expect(200)).body as OpenApiDocument
    for (const route of (await sb.sandbox.loadRoutes()).filter((r) => r.request?.body)) {
      const operation = doc.paths[route.path]![route.method]!
      let body = operation.requestBody as { $ref?: string; content?: Record<string, { schema: { example?: unknown } }> }
      if (body.$ref) body = doc.components.requestBodies![body.$ref.split('/').pop()!] as typeof body
      const example = body.content!['application/json']!.schema.example
      expect(example, `${route.method} ${route.path} has no request body example`).toBeDefined()
      const parsed = route.request!.body!.safeParse(example)
      expect(parsed.success ? [] : parsed.error.issues, `${route.method} ${route.path}`).toEqual([])
    }
  })

  it('name the empty seeded wallet that closing a wallet closes', async () => {
    const sb = await fresh()
    const wallet = await sb.api.get(`/v1/wallets/${EXAMPLE_IDS.emptyWallet}/balance`).set(sb.auth()).expect(200)
    expect(wallet.body.data).toMatchObject({ total_balance: '0.00' })
    expect((await sb.api.delete(`/v1/wallets/${EXAMPLE_IDS.emptyWallet}`).set(sb.auth()).expect(200)).body.data.status).toBe('closed')
  })

  it('of a payment and a payout succeed on a fresh sandbox with the default key', async () => {
    const sb = await fresh()
    const doc = (await sb.api.get('/v1/openapi.json').expect(200)).body as OpenApiDocument
    const example = (name: string) => (doc.components.requestBodies![name] as { content: Record<string, { schema: { example: object } }> }).content['application/json']!.schema.example
    await sb.api.post('/v1/payments').set(sb.auth()).send(example('CreatePaymentRequest')).expect(201)
    await sb.api.post('/v1/payouts').set(sb.auth()).send(example('CreatePayoutRequest')).expect(201)
    await sb.api.post('/v1/whitelisted_addresses').set(sb.auth()).send(example('CreateWhitelistedAddressRequest')).expect(201)
  })

  it('of quotes, orders, price pins and settlements, and their control calls, succeed on a fresh sandbox with the default key', async () => {
    const sb = await fresh()
    const doc = (await sb.api.get('/v1/openapi.json').expect(200)).body as OpenApiDocument
    const example = (path: string, method = 'post') => {
      let body = doc.paths[path]![method]!.requestBody as { $ref?: string; content?: Record<string, { schema: { example?: object } }> }
      if (body.$ref) body = doc.components.requestBodies![body.$ref.split('/').pop()!] as typeof body
      return body.content!['application/json']!.schema.example!
    }
    // Ids come from the account's one generator: the order example's id is that of the account's first resource.
    const order = async () => (await sb.api.post('/v1/orders').set(sb.auth()).send(example('/v1/orders')).expect(201)).body.data as { id: string; status: string }
    const first = await order()
    expect(first).toMatchObject({ id: EXAMPLE_IDS.order, status: 'open' })
    expect((await sb.api.post(`/_sandbox/orders/${first.id}/fill`).send(example('/_sandbox/orders/{id}/fill')).expect(200)).body.data.status).toBe('partially_filled')
    expect((await sb.api.post(`/_sandbox/orders/${(await order()).id}/reject`).send(example('/_sandbox/orders/{id}/reject')).expect(200)).body.data.status).toBe('rejected')
    expect((await sb.api.post(`/v1/orders/${(await order()).id}/cancel`).set(sb.auth()).expect(200)).body.data.status).toBe('cancelled')
    await sb.api.post('/v1/quotes').set(sb.auth()).send(example('/v1/quotes')).expect(201)
    await sb.api.post('/_sandbox/prices').send(example('/_sandbox/prices')).expect(201)
    const settlement = async () => (await sb.api.post('/v1/settlements').set(sb.auth()).send(example('/v1/settlements')).expect(201)).body.data as { id: string }
    expect((await sb.api.post(`/_sandbox/settlements/${(await settlement()).id}/advance`).expect(200)).body.data.status).toBe('completed')
    expect((await sb.api.post(`/_sandbox/settlements/${(await settlement()).id}/fail`).send(example('/_sandbox/settlements/{id}/fail')).expect(200)).body.data.status).toBe('failed')
  })
})
