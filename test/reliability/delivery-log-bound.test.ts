import { afterEach, describe, expect, it } from 'vitest'
import { createDeliveryLog, type DeliveryRecord, type NewDeliveryRecord } from '../../src/events/delivery-log.js'
import { institutionalWallet, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'
import { refusedUrl, startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js'

/** The delivery log's bound (`--delivery-log-limit`): documented, counted in the list's `dropped`, never dropping a scheduled delivery. */

const RECIPIENT = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'

let sb: TestSandbox | undefined
const receivers: WebhookReceiver[] = []
afterEach(async () => {
  await sb?.close()
  sb = undefined
  await Promise.all(receivers.splice(0).map((r) => r.close()))
})

function record(n: number, status: DeliveryRecord['status'], endpoint = 'whk_a'): NewDeliveryRecord {
  return {
    id: `dlv_${n}`, event_id: `evt_${n}`, event_type: 'payment.created', endpoint_id: endpoint, url: 'http://127.0.0.1:1/hooks', status,
    attempts: [], next_attempt_at: null, account_id: 'acct_1', body: '{}', retries_done: 0, timer: undefined, dropped: false,
  }
}

describe('the delivery log (unit)', () => {
  it('keeps the newest finished deliveries up to its limit and counts the dropped ones per endpoint and status', () => {
    const log = createDeliveryLog(3)
    for (let n = 1; n <= 6; n++) log.add(record(n, n % 2 === 0 ? 'succeeded' : 'failed', n <= 4 ? 'whk_a' : 'whk_b'))
    expect(log.list({}).map((d) => d.id)).toEqual(['dlv_6', 'dlv_5', 'dlv_4'])
    expect(log.droppedCount({})).toBe(3)
    expect(log.droppedCount({ account_id: 'acct_1', endpoint_id: 'whk_a' })).toBe(3)
    expect(log.droppedCount({ endpoint_id: 'whk_b' })).toBe(0)
    expect(log.droppedCount({ status: 'succeeded' })).toBe(1)
    expect(log.droppedCount({ status: 'failed' })).toBe(2)
    expect(log.droppedCount({ status: 'pending' })).toBe(0)
    expect(log.droppedCount({ account_id: 'acct_other' })).toBe(0)
    expect(log.get('dlv_1')).toBeUndefined()
  })

  it('never drops a pending delivery: it holds more than the limit while they wait, and shrinks back as they finish', () => {
    const log = createDeliveryLog(2)
    const waiting = [1, 2, 3, 4].map((n) => log.add(record(n, 'pending')))
    log.add(record(5, 'succeeded'))
    // Over the limit, the one finished delivery goes, however new; the pending ones all stay.
    expect(log.list({}).map((d) => d.id)).toEqual(['dlv_4', 'dlv_3', 'dlv_2', 'dlv_1'])
    expect(log.droppedCount({})).toBe(1)

    waiting[2]!.status = 'succeeded'
    log.finished(waiting[2]!)
    expect(log.list({}).map((d) => d.id)).toEqual(['dlv_4', 'dlv_2', 'dlv_1'])
    for (const d of waiting) d.status = 'failed'
    log.finished(waiting[0]!)
    expect(log.list({}).map((d) => d.id)).toEqual(['dlv_4', 'dlv_2'])
    expect(log.droppedCount({})).toBe(3)
    expect(log.droppedCount({ status: 'failed' })).toBe(1)
  })

  it('drops the oldest finished by creation, whatever order they finished in', () => {
    const log = createDeliveryLog(3)
    const [d1, d2, d3] = [1, 2, 3].map((n) => log.add(record(n, 'pending')))
    for (const d of [d3!, d2!]) {
      d.status = 'succeeded'
      log.finished(d)
    }
    log.add(record(4, 'pending'))
    expect(log.list({}).map((d) => d.id)).toEqual(['dlv_4', 'dlv_3', 'dlv_1'])
    expect(d1!.status).toBe('pending')
  })

  it('keeps a finished delivery that is on its way again (its queued first attempt failed), and drops it once it finishes again', () => {
    const log = createDeliveryLog(2)
    const [d1] = [1, 2].map((n) => log.add(record(n, 'pending')))
    d1!.status = 'succeeded'
    log.finished(d1!)
    d1!.status = 'pending'
    log.add(record(3, 'pending'))
    expect(log.list({}).map((d) => d.id)).toEqual(['dlv_3', 'dlv_2', 'dlv_1'])
    d1!.status = 'failed'
    log.finished(d1!)
    expect(log.list({}).map((d) => d.id)).toEqual(['dlv_3', 'dlv_2'])
    expect(log.droppedCount({ status: 'failed' })).toBe(1)
  })

  it('forgets an account, and its dropped count, on reset', () => {
    const log = createDeliveryLog(1)
    log.add(record(1, 'succeeded'))
    log.add(record(2, 'succeeded'))
    expect(log.droppedCount({ account_id: 'acct_1' })).toBe(1)
    expect(log.dropAccount('acct_1').map((d) => d.id)).toEqual(['dlv_2'])
    expect(log.droppedCount({ account_id: 'acct_1' })).toBe(0)
    expect(log.list({})).toEqual([])
  })
})

describe('GET /_sandbox/webhooks/deliveries with a bounded log', () => {
  const list = async (query = '') => (await sb!.api.get(`/_sandbox/webhooks/deliveries${query}`).expect(200)).body

  async function register(url: string) {
    return (await sb!.api.post('/v1/webhooks').set(sb!.auth()).send({ url }).expect(201)).body.data as { id: string }
  }

  async function pay(count: number) {
    const wallet = await institutionalWallet(sb!, 'solana', 'SOL')
    for (let i = 0; i < count; i++) {
      await sb!.api.post('/v1/payments').set(sb!.auth()).send({ amount: '0.01', currency: 'SOL', source_wallet: wallet.id, recipient: RECIPIENT }).expect(201)
    }
    await sb!.sandbox.webhooks.idle()
  }

  it('5 endpoints and 20 payments (300 deliveries, limit 100): each endpoint’s listed plus dropped is what it received', async () => {
    sb = await startTestSandbox({ settle: 'instant', deliveryLogLimit: 100 })
    const receiver = await startWebhookReceiver()
    receivers.push(receiver)
    const endpoints = []
    for (let i = 0; i < 5; i++) endpoints.push(await register(`${receiver.url}?endpoint=${i}`))
    await pay(20)
    await sb.sandbox.webhooks.idle()
    expect(receiver.received).toHaveLength(300)

    const all = await list('?limit=1')
    expect(all.pagination.total).toBe(100)
    expect(all.dropped).toBe(200)
    // Every endpoint subscribes to everything, so each received every event once.
    const received = new Set(receiver.received.map((r) => r.event.id)).size
    expect(received).toBe(60)
    for (const endpoint of endpoints) {
      const page = await list(`?endpoint_id=${endpoint.id}&status=succeeded&limit=1`)
      expect(page.pagination.total + page.dropped).toBe(received)
    }
    expect((await list('?status=pending')).dropped).toBe(0)
  })

  it('never drops a delivery whose retry is scheduled, and drops it once it has failed for good', async () => {
    sb = await startTestSandbox({ deliveryLogLimit: 4, webhookRetries: '1s' })
    const receiver = await startWebhookReceiver()
    receivers.push(receiver)
    const up = await register(receiver.url)
    const down = await register(await refusedUrl())
    await pay(5)

    // 10 deliveries: the 5 that succeeded went; the 5 waiting for their retry all stay, over the limit.
    const page = await list('?limit=100')
    expect(page.data.map((d: { endpoint_id: string; status: string }) => `${d.endpoint_id === down.id ? 'down' : 'up'} ${d.status}`)).toEqual(Array(5).fill('down pending'))
    expect(page.dropped).toBe(5)
    expect((await list(`?endpoint_id=${up.id}`)).dropped).toBe(5)
    expect((await list(`?endpoint_id=${down.id}`)).dropped).toBe(0)

    // The retry fails too: the deliveries are final, and the log is back to its limit.
    await sb.api.post('/_sandbox/clock/advance').send({ ms: 1000 }).expect(200)
    const after = await list('?limit=100')
    expect(after.data).toHaveLength(4)
    expect(after.data.every((d: { status: string; attempts: unknown[] }) => d.status === 'failed' && d.attempts.length === 2)).toBe(true)
    expect(after.dropped).toBe(6)
    expect((await list(`?endpoint_id=${down.id}&status=failed`)).dropped).toBe(1)
  })

  it('says dropped: 0 while nothing was dropped, and the OpenAPI document describes the field', async () => {
    sb = await startTestSandbox()
    expect(await list()).toMatchObject({ data: [], pagination: { total: 0 }, dropped: 0 })
    const document = (await sb.api.get('/v1/openapi.json').expect(200)).body
    const schema = document.paths['/_sandbox/webhooks/deliveries'].get.responses['200'].content['application/json'].schema
    expect(schema.required).toContain('dropped')
    expect(schema.properties.dropped).toMatchObject({ type: 'integer', minimum: 0 })
    expect(schema.properties.dropped.description).toMatch(/--delivery-log-limit/)
  })
})
