import { afterEach, describe, expect, it } from 'vitest'
import { createControlClient } from '../../src/client/control-client.js'
import { checkerFor } from '../helpers/conformance.js'
import { institutionalWallet, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

/**
 * `GET /_sandbox/accounts/{id}/wallets|balances|payments|payouts|webhooks|whitelisted_addresses`: the
 * dashboard's reads. Same objects, order and pagination as the /v1 lists, but through the control
 * API, so never rate limited and never faulted (CONTRACT.md section 7).
 */

const ACCOUNT = 'acct_sandboxDefaultAccount000'
const EVM = '0x52908400098527886E0F7030069857D2E4169EE7'
const OTHER_EVM = '0xde709f2102306220921060314715629080e2fb77'
/** The lists read the same through /v1/<list> and /_sandbox/accounts/{id}/<list>. */
const LISTS = ['wallets', 'payments', 'payouts', 'webhooks', 'whitelisted_addresses']
/** Every control read of an account, balances (which /v1 has per wallet only) included. */
const READS = [...LISTS, 'balances']

let sb: TestSandbox | undefined
afterEach(async () => {
  await sb?.close()
  sb = undefined
})

async function createPayments(count: number, amount = '1.00') {
  const source = await institutionalWallet(sb!, 'polygon', 'USDC')
  const ids: string[] = []
  for (let i = 0; i < count; i++) {
    const res = await sb!.api.post('/v1/payments').set(sb!.auth()).send({ amount, currency: 'USDC', source_wallet: source.id, recipient: EVM }).expect(201)
    ids.push(res.body.data.id)
  }
  return ids
}

/** Two bulk payouts, three webhook endpoints and two whitelisted addresses, all through /v1. */
async function createOtherRecords() {
  const source = await institutionalWallet(sb!, 'polygon', 'USDC')
  for (const amounts of [['1.00', '2.00'], ['3.00']]) {
    const items = amounts.map((amount) => ({ amount, recipient: EVM }))
    await sb!.api.post('/v1/payouts').set(sb!.auth()).send({ source_wallet: source.id, currency: 'USDC', items }).expect(201)
  }
  for (const path of ['a', 'b', 'c']) await sb!.api.post('/v1/webhooks').set(sb!.auth()).send({ url: `http://127.0.0.1:9/${path}` }).expect(201)
  for (const address of [EVM, OTHER_EVM]) await sb!.api.post('/v1/whitelisted_addresses').set(sb!.auth()).send({ address, network: 'polygon', label: 'treasury' }).expect(201)
}

/** The answer without its request id, which differs between any two requests. */
const withoutRequestId = ({ request_id: _ignored, ...rest }: Record<string, unknown>) => rest

describe('GET /_sandbox/accounts/{id}/wallets, /balances, /payments, /payouts, /webhooks and /whitelisted_addresses', () => {
  it('answer exactly what the /v1 lists answer for the same account, page for page', async () => {
    sb = await startTestSandbox()
    await createPayments(3)
    await createOtherRecords()
    const paymentId = (await createPayments(1))[0]!
    await sb.api.post(`/_sandbox/payments/${paymentId}/complete`).expect(200)
    for (const query of ['', '?limit=5', '?limit=2&offset=1', '?limit=100', '?offset=50']) {
      for (const list of LISTS) {
        const v1 = await sb.api.get(`/v1/${list}${query}`).set(sb.auth()).expect(200)
        const control = await sb.api.get(`/_sandbox/accounts/${ACCOUNT}/${list}${query}`).expect(200)
        expect(withoutRequestId(control.body), `${list}${query}`).toEqual(withoutRequestId(v1.body))
      }
    }
    const completed = await sb.api.get(`/_sandbox/accounts/${ACCOUNT}/payments?status=completed`).expect(200)
    expect(completed.body.data.map((p: { id: string }) => p.id)).toEqual([paymentId])
    const filtered = await sb.api.get(`/_sandbox/accounts/${ACCOUNT}/wallets?network=solana&currency=SOL`).expect(200)
    expect(withoutRequestId(filtered.body)).toEqual(withoutRequestId((await sb.api.get('/v1/wallets?network=solana&currency=SOL').set(sb.auth()).expect(200)).body))
    const whitelist = await sb.api.get(`/_sandbox/accounts/${ACCOUNT}/whitelisted_addresses?network=stellar`).expect(200)
    expect(whitelist.body.pagination.total).toBe(0)
  })

  it('answer, for balances, each wallet\'s GET /v1/wallets/{id}/balance in the order and pages of the wallets list', async () => {
    sb = await startTestSandbox()
    const [paymentId] = await createPayments(1, '7.25')
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    for (const query of ['', '?limit=5&offset=3', '?network=polygon&currency=USDC', '?type=user']) {
      const wallets = await sb.api.get(`/_sandbox/accounts/${ACCOUNT}/wallets${query}`).expect(200)
      const balances = await sb.api.get(`/_sandbox/accounts/${ACCOUNT}/balances${query}`).expect(200)
      expect(balances.body.pagination, query).toEqual(wallets.body.pagination)
      expect(balances.body.data.map((b: { wallet_id: string }) => b.wallet_id), query).toEqual(wallets.body.data.map((w: { id: string }) => w.id))
      for (const balance of balances.body.data) {
        expect(balance, query).toEqual((await sb.api.get(`/v1/wallets/${balance.wallet_id}/balance`).set(sb.auth()).expect(200)).body.data)
      }
    }
    // The pending payment's amount is locked: available and locked differ, and add up to the total.
    const [balance] = (await sb.api.get(`/_sandbox/accounts/${ACCOUNT}/balances?network=polygon&currency=USDC&type=institutional`).expect(200)).body.data
    expect(balance).toMatchObject({ object: 'balance', wallet_id: source.id, locked_balance: '7.25', total_balance: source.balance, currency: 'USDC' })
    await sb.api.post(`/_sandbox/payments/${paymentId}/fail`).send({}).expect(200)
    const [after] = (await sb.api.get(`/_sandbox/accounts/${ACCOUNT}/balances?network=polygon&currency=USDC&type=institutional`).expect(200)).body.data
    expect(after).toMatchObject({ locked_balance: '0.00', available_balance: source.balance, total_balance: source.balance })
  })

  it('paginate newest first, with limit, offset, total and has_more in the envelope', async () => {
    sb = await startTestSandbox()
    const ids = await createPayments(5)
    const newest = [...ids].reverse()
    const first = await sb.api.get(`/_sandbox/accounts/${ACCOUNT}/payments?limit=2`).expect(200)
    expect(first.body.data.map((p: { id: string }) => p.id)).toEqual(newest.slice(0, 2))
    expect(first.body.pagination).toEqual({ limit: 2, offset: 0, total: 5, has_more: true })
    const last = await sb.api.get(`/_sandbox/accounts/${ACCOUNT}/payments?limit=2&offset=4`).expect(200)
    expect(last.body.data.map((p: { id: string }) => p.id)).toEqual(newest.slice(4))
    expect(last.body.pagination).toEqual({ limit: 2, offset: 4, total: 5, has_more: false })
    const wallets = await sb.api.get(`/_sandbox/accounts/${ACCOUNT}/wallets`).expect(200)
    expect(wallets.body.pagination).toEqual({ limit: 20, offset: 0, total: 14, has_more: false })
    expect(wallets.body.request_id).toBe(wallets.headers['x-request-id'])
    await createOtherRecords()
    const counts = { payouts: 2, webhooks: 3, whitelisted_addresses: 2, balances: 14 }
    for (const [list, total] of Object.entries(counts)) {
      const page = await sb.api.get(`/_sandbox/accounts/${ACCOUNT}/${list}?limit=1&offset=1`).expect(200)
      expect(page.body.pagination, list).toEqual({ limit: 1, offset: 1, total, has_more: total > 2 })
      expect(page.body.data, list).toHaveLength(1)
    }
  })

  it("show only the named account's records", async () => {
    sb = await startTestSandbox()
    await createPayments(1)
    const other = await sb.api.post('/_sandbox/keys').send({}).expect(201)
    const wallets = await sb.api.get(`/_sandbox/accounts/${other.body.data.account_id}/wallets?limit=100`).expect(200)
    const own = await sb.api.get('/v1/wallets?limit=100').set(sb.auth(other.body.data.key)).expect(200)
    expect(wallets.body.data).toEqual(own.body.data)
    const defaultIds = new Set((await sb.api.get(`/_sandbox/accounts/${ACCOUNT}/wallets?limit=100`).expect(200)).body.data.map((w: { id: string }) => w.id))
    expect(wallets.body.data.some((w: { id: string }) => defaultIds.has(w.id))).toBe(false)
    await createOtherRecords()
    for (const list of ['payments', 'payouts', 'webhooks', 'whitelisted_addresses']) {
      const page = await sb.api.get(`/_sandbox/accounts/${other.body.data.account_id}/${list}`).expect(200)
      expect(page.body.data, list).toEqual([])
    }
  })

  it('answer 404 resource_missing for an unknown account', async () => {
    sb = await startTestSandbox()
    for (const list of READS) {
      const res = await sb.api.get(`/_sandbox/accounts/acct_nope/${list}`).expect(404)
      expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'resource_missing', message: "No such account: 'acct_nope'." })
    }
  })

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=ten', 'limit'],
    ['offset=-1', 'offset'],
    ['status=done', 'status'],
  ])('answer 400 parameter_invalid for %s, never a clamped page', async (query, param) => {
    sb = await startTestSandbox()
    const res = await sb.api.get(`/_sandbox/accounts/${ACCOUNT}/payments?${query}`).expect(400)
    expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param })
    if (param !== 'status') {
      for (const list of READS) {
        const other = await sb.api.get(`/_sandbox/accounts/${ACCOUNT}/${list}?${query}`).expect(400)
        expect(other.body.error, list).toMatchObject({ code: 'parameter_invalid', param })
      }
    }
  })

  it('need the control token when the sandbox has one', async () => {
    sb = await startTestSandbox({ controlToken: 'reads-secret' })
    for (const list of READS) {
      const missing = await sb.api.get(`/_sandbox/accounts/${ACCOUNT}/${list}`).expect(401)
      expect(missing.body.error.code).toBe('control_token_invalid')
      await sb.api.get(`/_sandbox/accounts/${ACCOUNT}/${list}`).set('Authorization', 'Bearer wrong').expect(401)
      // An API key is no control token.
      await sb.api.get(`/_sandbox/accounts/${ACCOUNT}/${list}`).set(sb.auth()).expect(401)
      await sb.api.get(`/_sandbox/accounts/${ACCOUNT}/${list}`).set('Authorization', 'Bearer reads-secret').expect(200)
    }
  })

  it("with --rate-limit 1, leave the key's budget whole: /v1 still answers after many reads", async () => {
    sb = await startTestSandbox({ rateLimit: 1 })
    for (let i = 0; i < 5; i++) {
      for (const list of READS) {
        const res = await sb.api.get(`/_sandbox/accounts/${ACCOUNT}/${list}`).expect(200)
        expect(res.headers.ratelimit).toBeUndefined()
      }
    }
    const first = await sb.api.get('/v1/wallets').set(sb.auth()).expect(200)
    expect(first.headers['x-ratelimit-remaining']).toBe('0')
    // The budget is really 1: the next /v1 request is refused, while control reads go on.
    expect((await sb.api.get('/v1/payments').set(sb.auth())).status).toBe(429)
    await sb.api.get(`/_sandbox/accounts/${ACCOUNT}/payments`).expect(200)
  })

  it('meet no injected latency or error, and take no draw from the seeded faults', async () => {
    sb = await startTestSandbox({ errorRate: 1, latency: '1000' })
    const started = performance.now()
    await sb.api.get(`/_sandbox/accounts/${ACCOUNT}/wallets`).expect(200)
    await sb.api.get(`/_sandbox/accounts/${ACCOUNT}/payments`).expect(200)
    expect(performance.now() - started).toBeLessThan(900)
    await sb.close()

    // Which /v1 requests fail depends only on the /v1 requests, however many control reads come between.
    const statuses = async (controlReadsBetween: number) => {
      sb = await startTestSandbox({ errorRate: 0.5, seed: 'reads' })
      const seen: number[] = []
      for (let i = 0; i < 24; i++) {
        for (let j = 0; j < controlReadsBetween; j++) await sb.api.get(`/_sandbox/accounts/${ACCOUNT}/${j % 2 ? 'payments' : 'wallets'}`).expect(200)
        seen.push((await sb.api.get('/v1/payments').set(sb.auth())).status)
      }
      await sb.close()
      sb = undefined
      return seen
    }
    const alone = await statuses(0)
    expect(alone).toContain(503)
    expect(alone).toContain(200)
    expect(await statuses(3)).toEqual(alone)
  })

  it('conform to the OpenAPI document, which lists them under the control tag', async () => {
    sb = await startTestSandbox()
    await createPayments(2)
    await createOtherRecords()
    const checker = checkerFor((await sb.sandbox.loadRoutes()))
    const doc = (await sb.api.get('/v1/openapi.json').expect(200)).body
    for (const list of READS) {
      const path = `/_sandbox/accounts/${ACCOUNT}/${list}?limit=1`
      const ok = await sb.api.get(path).expect(200)
      expect(checker.problems({ method: 'GET', path, status: 200, body: ok.text, requestId: ok.headers['x-request-id'] })).toEqual([])
      const missing = await sb.api.get(`/_sandbox/accounts/acct_nope/${list}`).expect(404)
      expect(checker.problems({ method: 'GET', path: `/_sandbox/accounts/acct_nope/${list}`, status: 404, body: missing.text, requestId: missing.headers['x-request-id'] })).toEqual([])
      const invalid = await sb.api.get(`/_sandbox/accounts/${ACCOUNT}/${list}?limit=0`).expect(400)
      expect(checker.problems({ method: 'GET', path: `/_sandbox/accounts/${ACCOUNT}/${list}`, status: 400, body: invalid.text, requestId: invalid.headers['x-request-id'] })).toEqual([])
      expect(doc.paths[`/_sandbox/accounts/{id}/${list}`].get.tags).toEqual(['Sandbox control'])
    }
  })

  it('are what the control client reads with wallets() and payments()', async () => {
    sb = await startTestSandbox()
    const ids = await createPayments(3)
    await sb.api.post(`/_sandbox/payments/${ids[1]}/fail`).send({}).expect(200)
    const control = createControlClient({ baseUrl: sb.url })
    const v1 = await sb.api.get('/v1/wallets?limit=4&offset=1').set(sb.auth()).expect(200)
    expect(await control.wallets(ACCOUNT, { limit: 4, offset: 1 })).toEqual(v1.body.data)
    expect((await control.wallets(ACCOUNT)).length).toBe(14)
    expect((await control.payments(ACCOUNT)).map((p) => p.id)).toEqual([...ids].reverse())
    expect((await control.payments(ACCOUNT, { status: 'failed' })).map((p) => p.id)).toEqual([ids[1]])
    expect((await control.payments(ACCOUNT, { limit: 1, offset: 1 })).map((p) => p.id)).toEqual([ids[1]])
    await expect(control.payments('acct_nope')).rejects.toMatchObject({ status: 404, code: 'resource_missing' })
  })

  it('are what the control client reads with balances(), payouts(), webhookEndpoints() and whitelistedAddresses()', async () => {
    sb = await startTestSandbox()
    await createOtherRecords()
    const control = createControlClient({ baseUrl: sb.url })
    const v1 = async (path: string) => (await sb!.api.get(path).set(sb!.auth()).expect(200)).body.data
    expect(await control.payouts(ACCOUNT)).toEqual(await v1('/v1/payouts'))
    expect(await control.payouts(ACCOUNT, { limit: 1, offset: 1 })).toEqual(await v1('/v1/payouts?limit=1&offset=1'))
    expect(await control.webhookEndpoints(ACCOUNT)).toEqual(await v1('/v1/webhooks'))
    expect(await control.webhookEndpoints(ACCOUNT, { limit: 2 })).toHaveLength(2)
    expect(await control.whitelistedAddresses(ACCOUNT)).toEqual(await v1('/v1/whitelisted_addresses'))
    expect(await control.whitelistedAddresses(ACCOUNT, { network: 'solana' })).toEqual([])
    const wallets = await control.wallets(ACCOUNT, { limit: 3, offset: 2 })
    expect((await control.balances(ACCOUNT, { limit: 3, offset: 2 })).map((b) => b.wallet_id)).toEqual(wallets.map((w) => w.id))
    for (const read of [control.balances, control.payouts, control.webhookEndpoints, control.whitelistedAddresses]) {
      await expect(read('acct_nope')).rejects.toMatchObject({ status: 404, code: 'resource_missing' })
    }
  })
})
