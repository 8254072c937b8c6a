import { afterEach, describe, expect, it } from 'vitest'
import { institutionalWallet, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js'

const EXTERNAL = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'

let sb: TestSandbox
let receiver: WebhookReceiver | undefined
afterEach(async () => {
  await receiver?.close()
  receiver = undefined
  await sb?.close()
})

async function pay(key?: string, amount = '1.00') {
  const wallet = await institutionalWallet(sb, 'polygon', 'USDC', key)
  const res = await sb.api.post('/v1/payments').set(sb.auth(key)).send({ amount, currency: 'USDC', source_wallet: wallet.id, recipient: EXTERNAL }).expect(201)
  return res.body.data as { id: string }
}
const events = async (query: Record<string, string | number>, status = 200) => (await sb.api.get('/_sandbox/events').query(query).expect(status)).body
const types = (body: { data: Array<{ type: string }> }) => body.data.map((event) => event.type)

describe('GET /_sandbox/events', () => {
  it('answers an account’s events oldest first, each exactly as its webhook delivery carries it', async () => {
    sb = await startTestSandbox()
    receiver = await startWebhookReceiver()
    const endpoint = await sb.api.post('/v1/webhooks').set(sb.auth()).send({ url: receiver.url, events: ['*'] }).expect(201)
    receiver.secret = endpoint.body.data.secret
    const payment = await pay()
    await sb.api.post(`/_sandbox/payments/${payment.id}/fail`).send({}).expect(200)
    await sb.sandbox.webhooks.idle()

    const body = await events({ api_key: 'sk_test_sandbox_default_key' })
    expect(types(body)).toEqual(['payment.created', 'payment.failed'])
    expect(body).toMatchObject({ has_more: false, dropped: 0, request_id: expect.stringMatching(/^req_/) })
    expect(body.pagination).toBeUndefined()
    // The same bytes as the deliveries: the same object, serialised the same way.
    expect(body.data.map((event: unknown) => JSON.stringify(event))).toEqual(receiver.received.map((delivery) => delivery.body))
  })

  it('keeps the events of an account that has no webhook endpoint', async () => {
    sb = await startTestSandbox()
    const payment = await pay()
    const body = await events({ api_key: 'sk_test_sandbox_default_key' })
    expect(body.data).toEqual([expect.objectContaining({ object: 'event', type: 'payment.created', api_version: 'v1', data: { object: expect.objectContaining({ id: payment.id, status: 'pending' }) } })])
  })

  it('filters by type (a comma list, resource.* and *), by object_id, and reads on after a cursor', async () => {
    sb = await startTestSandbox()
    const first = await pay()
    const second = await pay()
    await sb.api.post(`/_sandbox/payments/${first.id}/complete`).expect(200)
    const all = await events({ account_id: 'acct_sandboxDefaultAccount000' })
    expect(types(all)).toEqual(['payment.created', 'payment.created', 'payment.processing', 'payment.succeeded'])
    expect(types(await events({ account_id: 'acct_sandboxDefaultAccount000', type: 'payment.succeeded,payment.processing' }))).toEqual(['payment.processing', 'payment.succeeded'])
    expect(types(await events({ account_id: 'acct_sandboxDefaultAccount000', type: 'payment.*' }))).toHaveLength(4)
    expect(types(await events({ account_id: 'acct_sandboxDefaultAccount000', type: '*' }))).toHaveLength(4)
    expect(types(await events({ account_id: 'acct_sandboxDefaultAccount000', type: 'order.*' }))).toEqual([])
    expect((await events({ account_id: 'acct_sandboxDefaultAccount000', object_id: second.id })).data.map((event: { data: { object: { id: string } } }) => event.data.object.id)).toEqual([second.id])

    const page = await events({ account_id: 'acct_sandboxDefaultAccount000', limit: 3 })
    expect(page).toMatchObject({ has_more: true })
    expect(page.data).toEqual(all.data.slice(0, 3))
    const rest = await events({ account_id: 'acct_sandboxDefaultAccount000', limit: 3, after: page.data[2].id })
    expect(rest).toMatchObject({ has_more: false, data: all.data.slice(3) })
  })

  it('without an account, answers every account’s events in the order they happened', async () => {
    sb = await startTestSandbox()
    const other = 'sk_test_events_other_account'
    await pay()
    await pay(other)
    await pay()
    const body = await events({})
    expect(body.data.map((event: { account_id: string }) => event.account_id)).toEqual(['acct_sandboxDefaultAccount000', expect.not.stringMatching(/Default/), 'acct_sandboxDefaultAccount000'])
  })

  it('waits for the next matching event, also under a manual clock, and answers as soon as it exists', async () => {
    sb = await startTestSandbox({ clock: 'manual', settle: 'auto' })
    const payment = await pay()
    // Far longer than the test may take: only the event can end this wait.
    const waiting = sb.api.get('/_sandbox/events').query({ api_key: 'sk_test_sandbox_default_key', type: 'payment.succeeded', object_id: payment.id, wait: 30_000 }).then((res) => res.body)
    await sb.api.post('/_sandbox/clock/advance').send({ ms: 60_000 }).expect(200)
    const body = await waiting
    expect(types(body)).toEqual(['payment.succeeded'])
  })

  it('answers an empty list once the wait is over and nothing matched', async () => {
    sb = await startTestSandbox()
    await pay()
    const body = await events({ api_key: 'sk_test_sandbox_default_key', type: 'payment.failed', wait: 20 })
    expect(body).toMatchObject({ data: [], has_more: false, dropped: 0 })
  })

  it('keeps the newest --event-log-limit events per account and counts those it let go', async () => {
    sb = await startTestSandbox({ eventLogLimit: 3 })
    const payments = [await pay(), await pay(), await pay(), await pay(), await pay()]
    const body = await events({ api_key: 'sk_test_sandbox_default_key' })
    expect(body.data.map((event: { data: { object: { id: string } } }) => event.data.object.id)).toEqual(payments.slice(2).map((payment) => payment.id))
    expect(body.dropped).toBe(2)
  })

  it('starts again empty when the account is reset', async () => {
    sb = await startTestSandbox()
    const before = await pay()
    const cursor = (await events({ api_key: 'sk_test_sandbox_default_key' })).data[0].id
    await sb.api.post('/_sandbox/reset').send({ api_key: 'sk_test_sandbox_default_key' }).expect(200)
    expect((await events({ api_key: 'sk_test_sandbox_default_key' })).data).toEqual([])
    const error = await events({ api_key: 'sk_test_sandbox_default_key', after: cursor }, 400)
    expect(error.error).toMatchObject({ code: 'parameter_invalid', param: 'after' })
    expect(before.id).toMatch(/^pay_/)
  })

  it('counts the resets of the account, after which its ids begin again (an after id may name another event)', async () => {
    sb = await startTestSandbox()
    const key = 'sk_test_sandbox_default_key'
    const first = await pay()
    const page = await events({ api_key: key })
    expect(page.resets).toBe(0)
    await sb.api.post('/_sandbox/reset').send({ api_key: key }).expect(200)
    const again = await pay()
    // The same seed makes the same ids again: only `resets` tells the two events apart.
    expect(again.id).toBe(first.id)
    const after = await events({ api_key: key })
    expect(after.data[0].id).toBe(page.data[0].id)
    expect(after.resets).toBe(1)
    // Open auth: a new key is an account of its own, never reset.
    const other = 'sk_test_events_other_account'
    await sb.api.get('/v1/wallets').set(sb.auth(other)).expect(200)
    expect((await events({ api_key: other })).resets).toBe(0)
    expect((await events({})).resets).toBe(1)
  })

  it.each([
    [{ type: 'payment.done' }, 'type', 'type takes event types'],
    [{ type: 'payment.created,refund.*' }, 'type', '"refund.*"'],
    [{ limit: '0' }, 'limit', 'limit must be from 1 to 100'],
    [{ limit: '101' }, 'limit', 'limit must be from 1 to 100'],
    [{ wait: '30001' }, 'wait', 'wait must be from 0 to 30000'],
    [{ wait: 'soon' }, 'wait', 'wait must be a whole number'],
    [{ after: 'evt_nothing' }, 'after', 'the event log holds no event'],
    [{ api_key: 'sk_test_sandbox_default_key', account_id: 'the other account' }, 'account_id', 'api_key belongs to account acct_sandboxDefaultAccount000'],
    [{ page: '2' }, undefined, undefined],
  ] as Array<[Record<string, string>, string | undefined, string | undefined]>)('refuses %j with 400 naming the filter', async (query, param, message) => {
    sb = await startTestSandbox()
    await pay()
    if (query.account_id) {
      await pay('sk_test_events_other_account')
      query.account_id = (await sb.api.get('/_sandbox/accounts').query({ api_key: 'sk_test_events_other_account' }).expect(200)).body.data[0].id
    }
    const body = await events(query, 400)
    expect(body.error.code).toBe('parameter_invalid')
    if (param) expect(body.error.param).toBe(param)
    if (message) expect(body.error.message).toContain(message)
  })

  it('answers 404 for an account or a key it does not know', async () => {
    sb = await startTestSandbox()
    expect((await events({ account_id: 'acct_nobody' }, 404)).error).toMatchObject({ code: 'resource_missing', param: 'account_id' })
    expect((await events({ api_key: 'sk_test_never_used_key' }, 404)).error).toMatchObject({ code: 'resource_missing', param: 'api_key' })
  })

  it('needs the control token when one is set', async () => {
    sb = await startTestSandbox({ controlToken: 'tok' })
    expect((await events({}, 401)).error.code).toBe('control_token_invalid')
    expect((await sb.api.get('/_sandbox/events').set('Authorization', 'Bearer tok').expect(200)).body.data).toEqual([])
  })
})
