import { afterEach, describe, expect, it } from 'vitest'
import { configuredWebhookSecret } from '../../src/sandbox.js'
import { VERSION } from '../../src/version.js'
import { DEFAULT_KEY, institutionalWallet, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'
import { refusedUrl, startWebhookReceiver, type Responder, type WebhookReceiver } from '../helpers/webhook-receiver.js'

const RECIPIENT = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'
const ALL_TYPES = [
  'payment.created', 'payment.processing', 'payment.succeeded', 'payment.failed', 'payout.created', 'payout.completed', 'payout.failed', 'payout.partially_failed',
  'settlement.created', 'settlement.processing', 'settlement.step_completed', 'settlement.completed', 'settlement.failed', 'settlement.refunded',
]

let sb: TestSandbox | undefined
const receivers: WebhookReceiver[] = []
afterEach(async () => {
  await sb?.close()
  sb = undefined
  await Promise.all(receivers.splice(0).map((r) => r.close()))
})

async function receiver(respond?: Responder) {
  const r = await startWebhookReceiver({ respond })
  receivers.push(r)
  return r
}

const api = () => sb!.api

async function register(url: string, extra: Record<string, unknown> = {}, key = DEFAULT_KEY) {
  const res = await api().post('/v1/webhooks').set(sb!.auth(key)).send({ url, ...extra }).expect(201)
  return res.body.data as { id: string; secret: string; status: string; events: string[]; url: string }
}

/** A sandbox with one endpoint pointing at a fresh receiver that verifies with its secret. */
async function setup(overrides: Parameters<typeof startTestSandbox>[0] = {}, respond?: Responder) {
  sb = await startTestSandbox(overrides)
  const r = await receiver(respond)
  const endpoint = await register(r.url)
  r.secret = endpoint.secret
  return { receiver: r, endpoint }
}

async function pay(key = DEFAULT_KEY, amount = '0.01') {
  const wallet = await institutionalWallet(sb!, 'solana', 'SOL', key)
  const res = await api().post('/v1/payments').set(sb!.auth(key)).send({ amount, currency: 'SOL', source_wallet: wallet.id, recipient: RECIPIENT }).expect(201)
  return res.body.data as { id: string }
}

const advance = (ms: number) => api().post('/_sandbox/clock/advance').send({ ms }).expect(200)
const deliveries = async (query = '') => (await api().get(`/_sandbox/webhooks/deliveries${query}`).expect(200)).body.data as Delivery[]
const idle = () => sb!.sandbox.webhooks.idle()

interface Delivery {
  id: string
  event_id: string
  event_type: string
  endpoint_id: string
  url: string
  status: string
  attempts: Array<{ at: string; response_status: number | null; duration_ms: number; error: string | null; response_excerpt: string | null }>
  next_attempt_at: string | null
}

function expectAllVerified(r: WebhookReceiver) {
  expect(r.received.map((w) => w.verifyError)).toEqual(r.received.map(() => null))
}

describe('a delivery', () => {
  it('is a signed POST that standardwebhooks verifies, with the event as its body', async () => {
    const { receiver: r } = await setup()
    const payment = await pay()
    const [hook] = await r.waitFor(1)
    expectAllVerified(r)
    expect(hook!.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': `wallet-sandbox/${VERSION}`,
      'webhook-id': hook!.event.id,
      'webhook-signature': expect.stringMatching(/^v1,[A-Za-z0-9+/]+=*$/),
    })
    // The timestamp is real wall-clock time even though the sandbox clock is frozen in 2026.
    expect(Math.abs(Number(hook!.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60)
    expect(hook!.event).toMatchObject({
      id: expect.stringMatching(/^evt_[0-9A-Za-z]{24}$/),
      object: 'event',
      type: 'payment.created',
      created_at: '2026-01-01T00:00:00.000Z',
      api_version: 'v1',
      account_id: 'acct_sandboxDefaultAccount000',
      data: { object: { id: payment.id, object: 'payment', status: 'pending' } },
    })
  })

  it('reaches the endpoints of the event’s account only', async () => {
    const { receiver: mine } = await setup()
    const theirs = await receiver()
    const other = 'sk_test_webhooks_isolation'
    theirs.secret = (await register(theirs.url, {}, other)).secret
    await pay(other)
    await theirs.waitFor(1)
    await idle()
    expect(mine.received).toHaveLength(0)
    expect(theirs.received[0]!.event.account_id).not.toBe('acct_sandboxDefaultAccount000')
    expectAllVerified(theirs)
  })

  it('goes only to endpoints subscribed to the event type', async () => {
    sb = await startTestSandbox()
    const all = await receiver()
    const finalOnly = await receiver()
    all.secret = (await register(all.url)).secret
    finalOnly.secret = (await register(finalOnly.url, { events: ['payment.succeeded', 'payment.failed'] })).secret
    const payment = await pay()
    await api().post(`/_sandbox/payments/${payment.id}/complete`).expect(200)
    await all.waitFor(3)
    await finalOnly.waitFor(1)
    await idle()
    expect(all.received.map((w) => w.event.type)).toEqual(['payment.created', 'payment.processing', 'payment.succeeded'])
    expect(finalOnly.received.map((w) => w.event.type)).toEqual(['payment.succeeded'])
    expectAllVerified(all)
    expectAllVerified(finalOnly)
  })

  it('delivers the payout events of a bulk payout to the endpoints subscribed to them', async () => {
    sb = await startTestSandbox()
    const payouts = await receiver()
    payouts.secret = (await register(payouts.url, { events: ['payout.created', 'payout.completed', 'payout.failed', 'payout.partially_failed'] })).secret
    const wallet = await institutionalWallet(sb, 'solana', 'SOL')
    const items = [{ amount: '0.01', recipient: RECIPIENT }, { amount: '0.02', recipient: RECIPIENT }]
    const payout = (await api().post('/v1/payouts').set(sb.auth()).send({ source_wallet: wallet.id, currency: 'SOL', items }).expect(201)).body.data
    await api().post(`/_sandbox/payments/${payout.payment_ids[0]}/complete`).expect(200)
    await api().post(`/_sandbox/payments/${payout.payment_ids[1]}/fail`).expect(200)
    await payouts.waitFor(2)
    await idle()
    expect(payouts.received.map((w) => [w.event.type, w.event.data.object.id, w.event.data.object.status])).toEqual([
      ['payout.created', payout.id, 'pending'],
      ['payout.partially_failed', payout.id, 'partially_failed'],
    ])
    expectAllVerified(payouts)
  })
})

describe('event order', () => {
  it.each([
    ['complete', {}, ['payment.created', 'payment.processing', 'payment.succeeded'], 'completed'],
    ['fail', { failure_code: 'recipient_rejected' }, ['payment.created', 'payment.failed'], 'failed'],
  ])('a payment moved by %s is delivered created first, then each state change in order', async (action, body, types, finalStatus) => {
    const { receiver: r } = await setup()
    const payments = [await pay(), await pay()]
    for (const payment of payments) await api().post(`/_sandbox/payments/${payment.id}/${action}`).send(body).expect(200)
    await r.waitFor(types.length * 2)
    await idle()
    for (const payment of payments) {
      const mine = r.received.filter((w) => w.event.data.object.id === payment.id)
      expect(mine.map((w) => w.event.type)).toEqual(types)
      expect(mine.at(-1)!.event.data.object.status).toBe(finalStatus)
    }
    expect(r.received).toHaveLength(types.length * 2)
    expectAllVerified(r)
  })

  it('the body holds the payment as it was when the event happened', async () => {
    const { receiver: r } = await setup()
    const payment = await pay()
    await api().post(`/_sandbox/payments/${payment.id}/complete`).expect(200)
    await r.waitFor(3)
    expect(r.received.map((w) => w.event.data.object.status)).toEqual(['pending', 'processing', 'completed'])
  })
})

describe('retries', () => {
  it('a receiver answering 500 then 200 gets the event again once the clock passes the 5 s backoff, not before', async () => {
    const { receiver: r } = await setup({}, (n) => (n === 0 ? 500 : 200))
    await pay()
    await r.waitFor(1)
    await idle()
    let [delivery] = await deliveries()
    expect(delivery).toMatchObject({ status: 'pending', next_attempt_at: '2026-01-01T00:00:05.000Z' })
    expect(delivery!.attempts).toEqual([
      { at: '2026-01-01T00:00:00.000Z', response_status: 500, duration_ms: expect.any(Number), error: expect.stringContaining('500'), response_excerpt: 'status 500' },
    ])

    await advance(4_999)
    await idle()
    expect(r.received).toHaveLength(1)

    await advance(1)
    await r.waitFor(2)
    await idle()
    expect(r.received[1]!.body).toBe(r.received[0]!.body)
    expect(r.received[1]!.headers['webhook-id']).toBe(r.received[0]!.headers['webhook-id'])
    expectAllVerified(r)
    ;[delivery] = await deliveries()
    expect(delivery).toMatchObject({ status: 'succeeded', next_attempt_at: null })
    expect(delivery!.attempts.map((a) => [a.at, a.response_status, a.error])).toEqual([
      ['2026-01-01T00:00:00.000Z', 500, expect.any(String)],
      ['2026-01-01T00:00:05.000Z', 200, null],
    ])
  })

  it('follows --webhook-retries and marks the delivery failed after the last attempt', async () => {
    const { receiver: r } = await setup({ webhookRetries: '1s,2s' }, () => 503)
    await pay()
    await r.waitFor(1)
    await idle()
    await advance(1_000)
    await r.waitFor(2)
    await idle()
    await advance(1_999)
    await idle()
    expect(r.received).toHaveLength(2)
    await advance(1)
    await r.waitFor(3)
    await idle()
    await advance(3_600_000)
    await idle()
    expect(r.received).toHaveLength(3)
    const [delivery] = await deliveries()
    expect(delivery).toMatchObject({ status: 'failed', next_attempt_at: null })
    expect(delivery!.attempts.map((a) => a.at)).toEqual(['2026-01-01T00:00:00.000Z', '2026-01-01T00:00:01.000Z', '2026-01-01T00:00:03.000Z'])
  })

  it('one advance makes every retry that falls due inside it, each at its own time, before it answers', async () => {
    const { receiver: r } = await setup({ webhookRetries: '1s,2s,4s' }, () => 500)
    await pay()
    // No waiting for the first attempt: the advance itself waits for what is in flight.
    await advance(10_000)
    // Read straight after the answer, without idle(): everything was done before it.
    expect(r.received).toHaveLength(4)
    const [delivery] = await deliveries()
    expect(delivery!.attempts.map((a) => [a.at, a.response_status])).toEqual([
      ['2026-01-01T00:00:00.000Z', 500],
      ['2026-01-01T00:00:01.000Z', 500],
      ['2026-01-01T00:00:03.000Z', 500],
      ['2026-01-01T00:00:07.000Z', 500],
    ])
    expect(delivery).toMatchObject({ status: 'failed', next_attempt_at: null })
  })

  it('with --webhook-retries none makes one attempt only', async () => {
    const { receiver: r } = await setup({ webhookRetries: 'none' }, () => 500)
    await pay()
    await r.waitFor(1)
    await idle()
    await advance(24 * 3_600_000)
    await idle()
    expect(r.received).toHaveLength(1)
    const [delivery] = await deliveries()
    expect(delivery).toMatchObject({ status: 'failed', next_attempt_at: null })
    expect(delivery!.attempts).toHaveLength(1)
  })

  it('retries a refused connection and records why it failed', async () => {
    sb = await startTestSandbox()
    await register(await refusedUrl())
    await pay()
    await idle()
    let [delivery] = await deliveries()
    expect(delivery).toMatchObject({ status: 'pending', next_attempt_at: '2026-01-01T00:00:05.000Z' })
    expect(delivery!.attempts[0]).toMatchObject({ response_status: null, response_excerpt: null, error: expect.stringContaining('ECONNREFUSED') })
    await advance(5_000)
    await idle()
    ;[delivery] = await deliveries()
    expect(delivery!.attempts).toHaveLength(2)
    expect(delivery!.next_attempt_at).toBe('2026-01-01T00:00:35.000Z')
  })

  it('keeps the response excerpt bounded', async () => {
    const { receiver: r } = await setup({}, () => ({ status: 500, body: 'x'.repeat(100_000) }))
    await pay()
    await r.waitFor(1)
    await idle()
    const [delivery] = await deliveries()
    expect(delivery!.attempts[0]!.response_excerpt).toBe('x'.repeat(500))
  })
})

describe('a hanging receiver', () => {
  it('times out without slowing API requests made meanwhile, and is retried', async () => {
    const { receiver: r } = await setup({ webhookTimeout: 500 }, (n) => (n === 0 ? 'hang' : 200))
    await pay()
    await r.waitFor(1)
    // The receiver holds the first request open; the API answers regardless.
    const started = performance.now()
    await api().get('/v1/wallets').set(sb!.auth()).expect(200)
    const second = await pay()
    await api().get(`/v1/payments/${second.id}`).set(sb!.auth()).expect(200)
    expect(performance.now() - started).toBeLessThan(500)
    expect((await deliveries()).map((d) => d.attempts.length)).toEqual([0, 0])

    await idle()
    const [first] = (await deliveries()).reverse()
    expect(first).toMatchObject({ status: 'pending', next_attempt_at: '2026-01-01T00:00:05.000Z' })
    expect(first!.attempts[0]).toMatchObject({ response_status: null, error: expect.stringContaining('timed out after 500 ms') })
    expect(first!.attempts[0]!.duration_ms).toBeGreaterThanOrEqual(450)
    // The second event waited for the first's attempt: first attempts keep event order.
    expect(r.received.map((w) => w.event.data.object.id)).toHaveLength(2)

    await advance(5_000)
    await r.waitFor(3)
    await idle()
    expect((await deliveries('?status=succeeded')).map((d) => d.id)).toContain(first!.id)
    expectAllVerified(r)
  })
})

describe('410 Gone', () => {
  it('disables the endpoint: GET shows it disabled and later events are not delivered until PUT re-enables it', async () => {
    const { receiver: r, endpoint } = await setup({}, (n) => (n === 0 ? 410 : 200))
    await pay()
    await r.waitFor(1)
    await idle()
    const [delivery] = await deliveries()
    expect(delivery).toMatchObject({ status: 'failed', next_attempt_at: null })
    expect(delivery!.attempts[0]).toMatchObject({ response_status: 410, error: expect.stringContaining('disabled') })
    expect((await api().get(`/v1/webhooks/${endpoint.id}`).set(sb!.auth()).expect(200)).body.data.status).toBe('disabled')

    await pay()
    await advance(3_600_000)
    await idle()
    expect(r.received).toHaveLength(1)
    expect(await deliveries()).toHaveLength(1)

    const enabled = await api().put(`/v1/webhooks/${endpoint.id}`).set(sb!.auth()).send({ status: 'enabled' }).expect(200)
    expect(enabled.body.data.status).toBe('enabled')
    await pay()
    await r.waitFor(2)
    expectAllVerified(r)
  })

  it('stops the retries already scheduled for that endpoint', async () => {
    const { receiver: r } = await setup({}, (n) => (n === 0 ? 500 : 410))
    await pay()
    await r.waitFor(1)
    await idle()
    await pay() // its first attempt answers 410
    await r.waitFor(2)
    await idle()
    await advance(5_000)
    await idle()
    expect(r.received).toHaveLength(2)
    const statuses = (await deliveries()).map((d) => [d.status, d.attempts.at(-1)!.error])
    expect(statuses).toEqual([
      ['failed', expect.stringContaining('410')],
      ['failed', expect.stringContaining('not sent: the endpoint')],
    ])
  })
})

describe('the deliveries log', () => {
  it('has one entry per event and endpoint, newest first, filtered by event_id, endpoint_id and status', async () => {
    sb = await startTestSandbox()
    const ok = await receiver(() => 200)
    const broken = await receiver(() => 500)
    const okEndpoint = await register(ok.url)
    const brokenEndpoint = await register(broken.url)
    const payment = await pay()
    await api().post(`/_sandbox/payments/${payment.id}/complete`).expect(200)
    await ok.waitFor(3)
    await idle()

    const all = await deliveries()
    expect(all).toHaveLength(6)
    expect(all.map((d) => d.event_type)).toEqual(['payment.succeeded', 'payment.succeeded', 'payment.processing', 'payment.processing', 'payment.created', 'payment.created'])
    for (const d of all) expect(d.id).toMatch(/^dlv_[0-9A-Za-z]{24}$/)

    const created = all.at(-1)!
    expect((await deliveries(`?event_id=${created.event_id}`)).map((d) => d.endpoint_id).sort()).toEqual([okEndpoint.id, brokenEndpoint.id].sort())
    expect(await deliveries(`?endpoint_id=${okEndpoint.id}`)).toHaveLength(3)
    expect((await deliveries('?status=pending')).every((d) => d.endpoint_id === brokenEndpoint.id)).toBe(true)
    expect(await deliveries('?status=succeeded')).toHaveLength(3)
    expect(await deliveries(`?endpoint_id=${brokenEndpoint.id}&status=succeeded`)).toHaveLength(0)

    const page = await api().get('/_sandbox/webhooks/deliveries?limit=2&offset=1').expect(200)
    expect(page.body.pagination).toEqual({ limit: 2, offset: 1, total: 6, has_more: true })
    expect(page.body.data.map((d: Delivery) => d.id)).toEqual(all.slice(1, 3).map((d) => d.id))
  })

  it.each([
    ['?status=done', 'status'],
    ['?limit=0', 'limit'],
    ['?colour=red', 'colour'],
  ])('answers 400 for %s', async (query, param) => {
    sb = await startTestSandbox()
    const res = await api().get(`/_sandbox/webhooks/deliveries${query}`).expect(400)
    expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param })
  })

  it('retry makes one more attempt now and answers the updated delivery', async () => {
    const { receiver: r } = await setup({ webhookRetries: 'none' }, (n) => (n === 0 ? 500 : 200))
    await pay()
    await r.waitFor(1)
    await idle()
    const [failed] = await deliveries()
    expect(failed!.status).toBe('failed')

    const res = await api().post(`/_sandbox/webhooks/deliveries/${failed!.id}/retry`).expect(200)
    expect(res.body.data).toMatchObject({ id: failed!.id, status: 'succeeded', next_attempt_at: null })
    expect(res.body.data.attempts.map((a: { response_status: number }) => a.response_status)).toEqual([500, 200])
    expect(r.received).toHaveLength(2)
    expect(r.received[1]!.body).toBe(r.received[0]!.body)
    expectAllVerified(r)
  })

  it('retry of a succeeded delivery redelivers it', async () => {
    const { receiver: r } = await setup()
    await pay()
    await r.waitFor(1)
    await idle()
    const [delivery] = await deliveries()
    const res = await api().post(`/_sandbox/webhooks/deliveries/${delivery!.id}/retry`).expect(200)
    expect(res.body.data.attempts).toHaveLength(2)
    expect(r.received.map((w) => w.event.id)).toEqual([r.received[0]!.event.id, r.received[0]!.event.id])
  })

  it('retry of an unknown delivery is 404 resource_missing', async () => {
    sb = await startTestSandbox()
    const res = await api().post('/_sandbox/webhooks/deliveries/dlv_nope/retry').expect(404)
    expect(res.body.error.code).toBe('resource_missing')
  })

  it('needs the control token when one is set', async () => {
    sb = await startTestSandbox({ controlToken: 'letmein' })
    await api().get('/_sandbox/webhooks/deliveries').expect(401)
    await api().get('/_sandbox/webhooks/deliveries').set('Authorization', 'Bearer letmein').expect(200)
  })

  it('forgets an account’s deliveries and pending retries when the account is reset', async () => {
    const { receiver: r } = await setup({}, () => 500)
    await pay()
    await r.waitFor(1)
    await idle()
    expect(await deliveries()).toHaveLength(1)
    await api().post('/_sandbox/reset').send({ api_key: DEFAULT_KEY }).expect(200)
    expect(await deliveries()).toHaveLength(0)
    await advance(5_000)
    await idle()
    expect(r.received).toHaveLength(1)
  })
})

describe('webhook endpoints', () => {
  it('show the secret in the creation answer only', async () => {
    sb = await startTestSandbox()
    const created = await api().post('/v1/webhooks').set(sb.auth()).send({ url: 'https://example.com/hooks', description: 'orders' }).expect(201)
    expect(created.body.data).toEqual({
      id: expect.stringMatching(/^whk_[0-9A-Za-z]{24}$/),
      object: 'webhook_endpoint',
      url: 'https://example.com/hooks',
      events: ALL_TYPES,
      description: 'orders',
      status: 'enabled',
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      created_at: '2026-01-01T00:00:00.000Z',
    })
    const id = created.body.data.id
    const reads = [
      (await api().get(`/v1/webhooks/${id}`).set(sb.auth()).expect(200)).body.data,
      (await api().get('/v1/webhooks').set(sb.auth()).expect(200)).body.data[0],
      (await api().put(`/v1/webhooks/${id}`).set(sb.auth()).send({ description: 'x' }).expect(200)).body.data,
    ]
    for (const read of reads) expect(read).not.toHaveProperty('secret')
    expect(JSON.stringify(reads)).not.toContain(created.body.data.secret)
  })

  it('can be listed, read, updated and deleted', async () => {
    sb = await startTestSandbox()
    const a = await register('https://example.com/a')
    const b = await register('https://example.com/b', { events: ['payment.failed'] })
    const list = await api().get('/v1/webhooks').set(sb.auth()).expect(200)
    expect(list.body.data.map((e: { id: string }) => e.id)).toEqual([b.id, a.id])
    expect(list.body.pagination).toEqual({ limit: 20, offset: 0, total: 2, has_more: false })

    const updated = await api().put(`/v1/webhooks/${b.id}`).set(sb.auth()).send({ url: 'https://example.com/b2', events: ['payment.succeeded', 'payment.succeeded'], status: 'disabled' }).expect(200)
    expect(updated.body.data).toMatchObject({ url: 'https://example.com/b2', events: ['payment.succeeded'], status: 'disabled', description: null })
    const cleared = await api().put(`/v1/webhooks/${b.id}`).set(sb.auth()).send({ events: ['*'] }).expect(200)
    expect(cleared.body.data).toMatchObject({ url: 'https://example.com/b2', events: ALL_TYPES, status: 'disabled' })

    const deleted = await api().delete(`/v1/webhooks/${a.id}`).set(sb.auth()).expect(200)
    expect(deleted.body.data).toEqual({ id: a.id, object: 'webhook_endpoint', deleted: true })
    await api().get(`/v1/webhooks/${a.id}`).set(sb.auth()).expect(404)
    await api().delete(`/v1/webhooks/${a.id}`).set(sb.auth()).expect(404)
  })

  it('of another account answer exactly like unknown ids', async () => {
    sb = await startTestSandbox()
    const mine = await register('https://example.com/mine')
    const other = sb.auth('sk_test_someone_else')
    expect((await api().get('/v1/webhooks').set(other).expect(200)).body.data).toEqual([])
    for (const req of [
      api().get(`/v1/webhooks/${mine.id}`),
      api().put(`/v1/webhooks/${mine.id}`).send({ description: 'x' }),
      api().delete(`/v1/webhooks/${mine.id}`),
    ]) {
      const res = await req.set(other).expect(404)
      expect(res.body.error).toEqual({ type: 'invalid_request_error', code: 'resource_missing', message: `No such webhook endpoint: '${mine.id}'.` })
    }
    await api().get(`/v1/webhooks/${mine.id}`).set(sb.auth()).expect(200)
  })

  it.each([
    ['no url', {}, 'parameter_missing', 'url'],
    ['a url that is not a URL', { url: 'not a url' }, 'parameter_invalid', 'url'],
    ['an ftp url', { url: 'ftp://example.com/x' }, 'parameter_invalid', 'url'],
    ['a url that is a number', { url: 42 }, 'parameter_invalid', 'url'],
    ['an unknown event type', { url: 'https://example.com', events: ['payment.exploded'] }, 'parameter_invalid', 'events'],
    ['an empty event list', { url: 'https://example.com', events: [] }, 'parameter_invalid', 'events'],
    ['events that are not a list', { url: 'https://example.com', events: 'payment.created' }, 'parameter_invalid', 'events'],
    ['a description that is too long', { url: 'https://example.com', description: 'x'.repeat(1001) }, 'parameter_invalid', 'description'],
    ['an unknown field', { url: 'https://example.com', secret: 'whsec_abc' }, 'parameter_invalid', 'secret'],
  ])('refuses a creation with %s', async (_name, body, code, param) => {
    sb = await startTestSandbox()
    const res = await api().post('/v1/webhooks').set(sb.auth()).send(body).expect(400)
    expect(res.body.error).toMatchObject({ code, param })
    expect((await api().get('/v1/webhooks').set(sb.auth()).expect(200)).body.data).toEqual([])
  })

  it('names the valid event types when one is wrong', async () => {
    sb = await startTestSandbox()
    const res = await api().post('/v1/webhooks').set(sb.auth()).send({ url: 'https://example.com', events: ['payment.exploded'] }).expect(400)
    expect(res.body.error.message).toContain("'payment.exploded' is not an event type")
    expect(res.body.error.message).toContain('payment.succeeded')
  })

  it.each([
    ['status', { status: 'paused' }],
    ['url', { url: 'mailto:x@example.com' }],
    ['events', { events: ['nope'] }],
  ])('refuses an update with a bad %s and leaves the endpoint as it was', async (param, body) => {
    sb = await startTestSandbox()
    const endpoint = await register('https://example.com/a')
    const res = await api().put(`/v1/webhooks/${endpoint.id}`).set(sb.auth()).send(body).expect(400)
    expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param })
    const after = (await api().get(`/v1/webhooks/${endpoint.id}`).set(sb.auth()).expect(200)).body.data
    expect(after).toMatchObject({ url: 'https://example.com/a', status: 'enabled', events: ALL_TYPES })
  })

  it('need webhooks:read to read and webhooks:write to change', async () => {
    sb = await startTestSandbox()
    const readOnly = sb.auth('rk_test_sandbox_read_only')
    await api().get('/v1/webhooks').set(readOnly).expect(200)
    const res = await api().post('/v1/webhooks').set(readOnly).send({ url: 'https://example.com' }).expect(403)
    expect(res.body.error).toMatchObject({ code: 'insufficient_permissions', message: expect.stringContaining('webhooks:write') })
    const noWebhooks = sb.auth('rk_test_sandbox_payments_loopback')
    await api().get('/v1/webhooks').set(noWebhooks).expect(403)
  })
})

describe('--webhook-url', () => {
  it('gives every account an endpoint for all events, signed with the secret the banner prints', async () => {
    const r = await receiver()
    sb = await startTestSandbox({ webhookUrl: r.url })
    r.secret = configuredWebhookSecret(sb.sandbox.config)
    const newcomer = 'sk_test_webhook_url_newcomer'
    for (const key of [DEFAULT_KEY, newcomer]) {
      const list = (await api().get('/v1/webhooks').set(sb.auth(key)).expect(200)).body.data
      expect(list).toEqual([expect.objectContaining({ url: r.url, events: ALL_TYPES, status: 'enabled' })])
    }
    await pay()
    await pay(newcomer)
    await r.waitFor(2)
    expectAllVerified(r)
    expect(new Set(r.received.map((w) => w.event.account_id)).size).toBe(2)
  })

  it('uses --webhook-secret when given, and keeps the endpoint across a reset', async () => {
    const r = await receiver()
    const secret = `whsec_${Buffer.alloc(32, 9).toString('base64')}`
    sb = await startTestSandbox({ webhookUrl: r.url, webhookSecret: secret })
    expect(configuredWebhookSecret(sb.sandbox.config)).toBe(secret)
    r.secret = secret
    await api().post('/_sandbox/reset').send({}).expect(200)
    await pay()
    await r.waitFor(1)
    expectAllVerified(r)
  })
})

describe('determinism', () => {
  it('the same seed, manual clock and requests give byte-identical webhook bodies', async () => {
    const run = async () => {
      const { receiver: r } = await setup({ seed: 'webhook-determinism' })
      const a = await pay()
      const b = await pay()
      await api().post(`/_sandbox/payments/${a.id}/complete`).expect(200)
      await advance(1_000)
      await api().post(`/_sandbox/payments/${b.id}/fail`).send({}).expect(200)
      await r.waitFor(5)
      await idle()
      const bodies = r.received.map((w) => w.body)
      await sb!.close()
      sb = undefined
      return bodies
    }
    const first = await run()
    const second = await run()
    expect(first).toHaveLength(5)
    expect(second).toEqual(first)
  })
})

describe('the payment lifecycle', () => {
  it('under settle instant, each of 200 payments gets exactly created, processing, succeeded', async () => {
    const { receiver: r } = await setup({ settle: 'instant' })
    const wallet = await institutionalWallet(sb!, 'solana', 'SOL')
    const ids: string[] = []
    for (let i = 0; i < 200; i++) {
      const res = await api().post('/v1/payments').set(sb!.auth()).send({ amount: '0.01', currency: 'SOL', source_wallet: wallet.id, recipient: RECIPIENT }).expect(201)
      ids.push(res.body.data.id)
    }
    await r.waitFor(600)
    await idle()
    expect(r.received).toHaveLength(600)
    expectAllVerified(r)
    const byPayment = new Map<string, string[]>()
    for (const hook of r.received) {
      const id = hook.event.data.object.id
      byPayment.set(id, [...(byPayment.get(id) ?? []), hook.event.type])
    }
    expect([...byPayment.keys()].sort()).toEqual([...ids].sort())
    for (const types of byPayment.values()) expect(types).toEqual(['payment.created', 'payment.processing', 'payment.succeeded'])
    expect(new Set(r.received.map((w) => w.event.id)).size).toBe(600)
  })
})
