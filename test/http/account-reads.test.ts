import { afterEach, describe, expect, it } from 'vitest'
import { createControlClient } from '../../src/control/client.js'
import { checkerFor } from '../helpers/conformance.js'
import { institutionalWallet, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

/**
 * `GET /_sandbox/accounts/{id}/wallets` and `/payments`: the dashboard's reads. Same objects, order
 * and pagination as the /v1 lists, but through the control API, so never rate limited and never
 * faulted (CONTRACT.md section 7).
 */

const ACCOUNT = 'acct_sandboxDefaultAccount000'
const EVM = '0x52908400098527886E0F7030069857D2E4169EE7'

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

/** The answer without its request id, which differs between any two requests. */
const withoutRequestId = ({ request_id: _ignored, ...rest }: Record<string, unknown>) => rest

describe('GET /_sandbox/accounts/{id}/wallets and /payments', () => {
  it('answer exactly what the /v1 lists answer for the same account, page for page', async () => {
    sb = await startTestSandbox()
    await createPayments(3)
    const paymentId = (await createPayments(1))[0]!
    await sb.api.post(`/_sandbox/payments/${paymentId}/complete`).expect(200)
    for (const query of ['', '?limit=5', '?limit=3&offset=2', '?limit=100', '?offset=50']) {
      for (const list of ['wallets', 'payments']) {
        const v1 = await sb.api.get(`/v1/${list}${query}`).set(sb.auth()).expect(200)
        const control = await sb.api.get(`/_sandbox/accounts/${ACCOUNT}/${list}${query}`).expect(200)
        expect(withoutRequestId(control.body), `${list}${query}`).toEqual(withoutRequestId(v1.body))
      }
    }
    const completed = await sb.api.get(`/_sandbox/accounts/${ACCOUNT}/payments?status=completed`).expect(200)
    expect(completed.body.data.map((p: { id: string }) => p.id)).toEqual([paymentId])
    const filtered = await sb.api.get(`/_sandbox/accounts/${ACCOUNT}/wallets?network=solana&currency=SOL`).expect(200)
    expect(withoutRequestId(filtered.body)).toEqual(withoutRequestId((await sb.api.get('/v1/wallets?network=solana&currency=SOL').set(sb.auth()).expect(200)).body))
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
    const payments = await sb.api.get(`/_sandbox/accounts/${other.body.data.account_id}/payments`).expect(200)
    expect(payments.body.data).toEqual([])
  })

  it('answer 404 resource_missing for an unknown account', async () => {
    sb = await startTestSandbox()
    for (const list of ['wallets', 'payments']) {
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
      const wallets = await sb.api.get(`/_sandbox/accounts/${ACCOUNT}/wallets?${query}`).expect(400)
      expect(wallets.body.error).toMatchObject({ code: 'parameter_invalid', param })
    }
  })

  it('need the control token when the sandbox has one', async () => {
    sb = await startTestSandbox({ controlToken: 'reads-secret' })
    for (const list of ['wallets', 'payments']) {
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
      for (const list of ['wallets', 'payments']) {
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
    const checker = checkerFor(sb.sandbox.routes)
    const doc = (await sb.api.get('/v1/openapi.json').expect(200)).body
    for (const list of ['wallets', 'payments']) {
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
})
