import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createWebhookReceiver, EventWaitTimeoutError, RequestExpectationError, SandboxControlError, startSandbox, type RunningSandbox } from '../../../src/public.js'
import { signPayload } from '../../../src/standard-webhooks.js'

/** The Node helpers of CONTRACT.md section 20 at their edges: timeouts that explain themselves, and a receiver that refuses forgeries. */

let sandbox: RunningSandbox
beforeAll(async () => {
  sandbox = await startSandbox({ clock: 'manual', settle: 'manual' })
})
afterAll(() => sandbox.close())

const SECRET = `whsec_${Buffer.alloc(32, 3).toString('base64')}`
const post = (url: string, body: string, headers: Record<string, string>) => fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } })
const signed = (body: string, id = 'evt_test', secret = SECRET, timestamp = Math.floor(Date.now() / 1000)) => ({
  'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signPayload({ secret, id, timestamp, body }),
})

describe('waitForEvent', () => {
  it('defaults to the default key’s account and finds an event that already happened', async () => {
    const wallets = (await (await fetch(`${sandbox.url}/wallets?currency=USDC&network=solana`, { headers: { authorization: `Bearer ${sandbox.apiKey}` } })).json()) as { data: Array<{ id: string }> }
    const res = await fetch(`${sandbox.url}/payments`, {
      method: 'POST', headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ source_wallet: wallets.data[0]!.id, amount: '1.00', currency: 'USDC', recipient: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV' }),
    })
    const payment = ((await res.json()) as { data: { id: string } }).data
    expect((await sandbox.waitForEvent({ type: 'payment.created', object_id: payment.id })).data.object).toMatchObject({ id: payment.id })
  })

  it('times out saying what it waited for and which events the account had', async () => {
    const { key } = await sandbox.control.createKey()
    const error = await sandbox.waitForEvent({ api_key: key, type: 'order.filled', object_id: 'ord_none' }, { timeoutMs: 50 }).catch((thrown: unknown) => thrown)
    expect(error).toBeInstanceOf(EventWaitTimeoutError)
    expect((error as Error).message).toBe(`No order.filled event of ord_none on the account of ${key} within 50 ms; it has had no events at all.`)
  })
})

describe('expectRequest and expectNoRequest', () => {
  const get = (path: string, key: string) => fetch(`${sandbox.url}${path}`, { headers: { authorization: `Bearer ${key}` } })

  it('answer the matched requests, newest first, on the default key’s account unless told otherwise', async () => {
    const { key } = await sandbox.control.createKey()
    await get('/wallets?limit=1', sandbox.apiKey)
    await get('/wallets?limit=2', key)
    await get('/wallets?limit=3', key)
    const matched = await sandbox.expectRequest({ api_key: key, path: '/v1/wallets', count: 2, exactly: true })
    expect(matched.map((request) => request.query)).toEqual(['limit=3', 'limit=2'])
    expect((await sandbox.expectRequest({ path: '/v1/wallets', query: { limit: '1' } })).map((request) => request.query)).toEqual(['limit=1'])
    await sandbox.expectNoRequest({ api_key: key, method: 'POST' })
  })

  it('say when the account sent nothing, and list what matched when there were too many', async () => {
    const { key } = await sandbox.control.createKey()
    const nothing = await sandbox.expectRequest({ api_key: key, method: 'POST', path: '/v1/payments' }).catch((thrown: unknown) => thrown)
    expect(nothing).toBeInstanceOf(RequestExpectationError)
    expect((nothing as Error).message).toBe(`Expected at least 1 request matching {"method":"POST","path":"/v1/payments"} from the account of sk_test_…${key.slice(-4)}; 0 matched.\nThe account has no other /v1 requests in the journal.`)
    await get('/prices', key)
    const started = performance.now()
    const sent = await sandbox.expectNoRequest({ api_key: key, path: '/v1/prices' }, { withinMs: 10_000 }).catch((thrown: RequestExpectationError) => thrown)
    // A request that came already fails it at once, not at the end of the window.
    expect(performance.now() - started).toBeLessThan(5000)
    expect(sent).toBeInstanceOf(RequestExpectationError)
    expect((sent as RequestExpectationError).message).toMatch(/^Expected no request matching \{"path":"\/v1\/prices"\} from the account of sk_test_…\w{4} within 10000 ms; 1 matched\.\nMatched:\n  GET \/v1\/prices 200 \(req_\w+, [-\d:.TZ]+\)$/)
    expect((sent as RequestExpectationError).result.matched).toHaveLength(1)
  })

  it('waits withinMs of real time for a request sent later', async () => {
    const { key } = await sandbox.control.createKey()
    const waiting = sandbox.expectRequest({ api_key: key, path: '/v1/payouts' }, { withinMs: 10_000 })
    await new Promise((resolve) => setTimeout(resolve, 200))
    await get('/payouts', key)
    expect((await waiting).map((request) => request.path)).toEqual(['/v1/payouts'])
  })

  it('on an account handle, assert on that account alone', async () => {
    const account = await sandbox.newAccount()
    await get('/wallets?limit=4', account.apiKey)
    await get('/wallets?limit=5', sandbox.apiKey)
    expect((await account.expectRequest({ path: '/v1/wallets' })).map((request) => request.query)).toEqual(['limit=4'])
    await account.expectNoRequest({ query: { limit: '5' } })
    const error = await account.expectRequest({ path: '/v1/wallets', count: 2 }).catch((thrown: unknown) => thrown)
    expect(error).toBeInstanceOf(RequestExpectationError)
    expect((error as Error).message).toContain(`from the account of sk_test_…${account.apiKey.slice(-4)}; 1 matched.`)
  })

  it('throw a SandboxControlError naming the field of a bad expectation', async () => {
    const error = await sandbox.expectRequest({ path: 'payments' }).catch((thrown: unknown) => thrown)
    expect(error).toBeInstanceOf(SandboxControlError)
    expect(error).toMatchObject({ status: 400, code: 'parameter_invalid', param: 'path' })
    await expect(sandbox.expectRequest({}, { withinMs: 30_001 })).rejects.toMatchObject({ param: 'within_ms' })
  })
})

describe('createWebhookReceiver', () => {
  it('answers 200 to a delivery signed with its secret, and 400 with the reason to one that is not, recording both', async () => {
    const receiver = await createWebhookReceiver({ secret: SECRET })
    const body = JSON.stringify({ id: 'evt_test', type: 'payment.failed', data: { object: { id: 'pay_1' } } })
    expect((await post(receiver.url, body, signed(body))).status).toBe(200)
    const forged = await post(receiver.url, body, signed(body, 'evt_test', `whsec_${Buffer.alloc(32, 9).toString('base64')}`))
    expect(forged.status).toBe(400)
    expect(await forged.text()).toBe('no v1 signature matches the body under this secret')
    const stale = await post(receiver.url, body, signed(body, 'evt_test', SECRET, Math.floor(Date.now() / 1000) - 600))
    expect(stale.status).toBe(400)
    expect(receiver.received.map((delivery) => delivery.verified)).toEqual([true, false, false])
    await receiver.close()
  })

  it('waits only for verified deliveries, and its timeout lists what arrived', async () => {
    const receiver = await createWebhookReceiver({ secret: SECRET })
    const body = JSON.stringify({ id: 'evt_x', type: 'payment.failed', data: { object: { id: 'pay_2' } } })
    await post(receiver.url, body, { 'webhook-id': 'evt_x', 'webhook-timestamp': '1', 'webhook-signature': 'v1,AAAA' })
    const error = await receiver.waitFor({ type: 'payment.failed' }, { timeoutMs: 30 }).catch((thrown: Error) => thrown)
    expect((error as Error).message).toMatch(/^Waited 30 ms for a payment.failed delivery; 1 arrived, the last: payment.failed pay_2 \(refused: webhook-timestamp 1 is more than 300 s from now/)
    await receiver.close()
  })

  it('refuses everything until it has a secret, and takes one set later', async () => {
    const receiver = await createWebhookReceiver()
    const body = '{"id":"evt_y","type":"order.filled","data":{"object":{"id":"ord_1"}}}'
    expect(await (await post(receiver.url, body, signed(body, 'evt_y'))).text()).toMatch(/no secret to verify with/)
    receiver.secret = SECRET
    const waiting = receiver.waitFor((event) => event.type === 'order.filled')
    expect((await post(receiver.url, body, signed(body, 'evt_y'))).status).toBe(200)
    expect((await waiting).id).toBe('evt_y')
    await receiver.close()
  })
})
