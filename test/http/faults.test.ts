import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_KEY, institutionalWallet, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

/** `/_sandbox/faults` (CONTRACT.md sections 10 and 13): faults injected into matching /v1 requests. */

const EVM = '0x52908400098527886E0F7030069857D2E4169EE7'
const OTHER_KEY = 'sk_test_faults_other_key'

let sb: TestSandbox
afterEach(() => sb?.close())

async function addFault(rule: Record<string, unknown>) {
  return (await sb.api.post('/_sandbox/faults').send(rule).expect(201)).body.data
}

async function paymentBody() {
  const source = await institutionalWallet(sb, 'polygon', 'USDC')
  return { amount: '10.00', currency: 'USDC', source_wallet: source.id, recipient: EVM }
}

const postPayment = (body: object, idempotencyKey?: string) => {
  const req = sb.api.post('/v1/payments').set(sb.auth())
  if (idempotencyKey) req.set('Idempotency-Key', idempotencyKey)
  return req.send(body)
}

const paymentTotal = async (key = DEFAULT_KEY) => (await sb.api.get('/v1/payments?limit=1').set(sb.auth(key)).expect(200)).body.pagination.total as number

/** The error a client sees when the connection closes without an answer. */
async function socketError(request: PromiseLike<unknown>): Promise<string> {
  try {
    await request
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? (error as Error).message
  }
  throw new Error('the request was answered')
}

async function timed<T>(run: () => PromiseLike<T>): Promise<{ ms: number; result: T }> {
  const started = performance.now()
  const result = await run()
  return { ms: performance.now() - started, result }
}

describe('POST /_sandbox/faults', () => {
  it('answers 201 with the rule and its defaults, and GET lists it', async () => {
    sb = await startTestSandbox()
    const rule = await addFault({ fault: 'error' })
    expect(rule).toEqual({ id: expect.stringMatching(/^flt_\w{24}$/), match: {}, fault: 'error', status: 503, latency_ms: null, probability: 1, times: null, remaining: null })
    const other = await addFault({ match: { method: 'post', path: '/v1/payments*', api_key: OTHER_KEY }, fault: 'latency', latency_ms: [20, 40], probability: 0.5, times: 3 })
    expect(other).toMatchObject({ match: { method: 'POST', path: '/v1/payments*', api_key: OTHER_KEY }, status: null, latency_ms: [20, 40], probability: 0.5, times: 3, remaining: 3 })
    expect((await sb.api.get('/_sandbox/faults').expect(200)).body.data).toEqual([rule, other])
  })

  it.each([
    [{}, 'parameter_missing', 'fault'],
    [{ fault: 'explode' }, 'parameter_invalid', 'fault'],
    [{ fault: 'error', status: 404 }, 'parameter_invalid', 'status'],
    [{ fault: 'drop', status: 503 }, 'parameter_invalid', 'status'],
    [{ fault: 'latency' }, 'parameter_missing', 'latency_ms'],
    [{ fault: 'latency', latency_ms: -1 }, 'parameter_invalid', 'latency_ms'],
    [{ fault: 'latency', latency_ms: 1.5 }, 'parameter_invalid', 'latency_ms'],
    [{ fault: 'latency', latency_ms: 60_001 }, 'parameter_invalid', 'latency_ms'],
    [{ fault: 'latency', latency_ms: [50, 10] }, 'parameter_invalid', 'latency_ms'],
    [{ fault: 'latency', latency_ms: '50' }, 'parameter_invalid', 'latency_ms'],
    [{ fault: 'error', probability: 1.5 }, 'parameter_invalid', 'probability'],
    [{ fault: 'error', probability: -0.1 }, 'parameter_invalid', 'probability'],
    [{ fault: 'error', times: 0 }, 'parameter_invalid', 'times'],
    [{ fault: 'error', times: 1.5 }, 'parameter_invalid', 'times'],
    [{ fault: 'error', match: { method: 'FETCH' } }, 'parameter_invalid', 'match.method'],
    [{ fault: 'error', match: { path: 'v1/payments' } }, 'parameter_invalid', 'match.path'],
    [{ fault: 'error', match: { path: '/_sandbox/reset' } }, 'parameter_invalid', 'match.path'],
    [{ fault: 'error', match: { path: '/v1/*/balance' } }, 'parameter_invalid', 'match.path'],
    [{ fault: 'error', match: { api_key: '' } }, 'parameter_invalid', 'match.api_key'],
    [{ fault: 'error', match: { account_id: 'acct_1' } }, 'parameter_invalid', 'match.account_id'],
    [{ fault: 'error', colour: 'red' }, 'parameter_invalid', 'colour'],
  ])('rejects %j with 400 %s on %s, and adds nothing', async (body, code, param) => {
    sb = await startTestSandbox()
    const res = await sb.api.post('/_sandbox/faults').send(body).expect(400)
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code, param })
    expect((await sb.api.get('/_sandbox/faults').expect(200)).body.data).toEqual([])
  })

  it('says what a path must look like', async () => {
    sb = await startTestSandbox()
    const res = await sb.api.post('/_sandbox/faults').send({ fault: 'drop', match: { path: '/payments' } }).expect(400)
    expect(res.body.error.message).toBe('path must be a /v1 path such as /v1/payments, or a prefix ending in * such as /v1/wallets/*.')
  })

  it('needs the control token when --control-token is set', async () => {
    sb = await startTestSandbox({ controlToken: 'letmein' })
    const denied = await sb.api.post('/_sandbox/faults').send({ fault: 'error' }).expect(401)
    expect(denied.body.error.code).toBe('control_token_invalid')
    await sb.api.get('/_sandbox/faults').expect(401)
    await sb.api.post('/_sandbox/faults').set('Authorization', 'Bearer letmein').send({ fault: 'error' }).expect(201)
    await sb.api.get('/v1/wallets').set(sb.auth()).expect(503)
  })
})

describe('fault "error"', () => {
  it('answers 503 service_unavailable by default, in the error shape, and creates nothing', async () => {
    sb = await startTestSandbox()
    const body = await paymentBody()
    const rule = await addFault({ fault: 'error' })
    const res = await postPayment(body).expect(503)
    expect(res.body.error).toEqual({ type: 'api_error', code: 'service_unavailable', message: `The sandbox injected this failure (fault ${rule.id}); retry the request.` })
    expect(res.body.request_id).toBe(res.headers['x-request-id'])
    await sb.api.delete('/_sandbox/faults').expect(200)
    expect(await paymentTotal()).toBe(0)
  })

  it('answers 500 internal_error when asked', async () => {
    sb = await startTestSandbox()
    await addFault({ fault: 'error', status: 500 })
    const res = await sb.api.get('/v1/wallets').set(sb.auth()).expect(500)
    expect(res.body.error).toMatchObject({ type: 'api_error', code: 'internal_error' })
  })

  it('is not stored under an Idempotency-Key: the retry runs', async () => {
    sb = await startTestSandbox()
    const body = await paymentBody()
    await addFault({ fault: 'error', times: 1 })
    await postPayment(body, 'after-503').expect(503)
    const retry = await postPayment(body, 'after-503').expect(201)
    expect(retry.headers['idempotent-replayed']).toBeUndefined()
  })

  it('comes after authentication: a request without a key is 401 and the rule is not used', async () => {
    sb = await startTestSandbox()
    await addFault({ fault: 'error', times: 1 })
    expect((await sb.api.get('/v1/wallets').expect(401)).body.error.code).toBe('api_key_missing')
    expect((await sb.api.get('/_sandbox/faults')).body.data[0].remaining).toBe(1)
  })
})

describe('fault "latency"', () => {
  it('holds the request, then answers normally', async () => {
    sb = await startTestSandbox()
    await addFault({ fault: 'latency', latency_ms: 40 })
    const { ms, result } = await timed(() => sb.api.get('/v1/wallets').set(sb.auth()))
    expect(result.status).toBe(200)
    expect(ms).toBeGreaterThanOrEqual(38)
  })

  it('draws from a range, and adds up with the global --latency', async () => {
    sb = await startTestSandbox({ latency: '20' })
    await addFault({ fault: 'latency', latency_ms: [30, 40] })
    const { ms } = await timed(() => sb.api.get('/v1/wallets').set(sb.auth()).expect(200))
    expect(ms).toBeGreaterThanOrEqual(48)
  })

  it('can delay another fault', async () => {
    sb = await startTestSandbox()
    await addFault({ fault: 'error', latency_ms: 40 })
    const { ms } = await timed(() => sb.api.get('/v1/wallets').set(sb.auth()).expect(503))
    expect(ms).toBeGreaterThanOrEqual(38)
  })
})

describe('fault "drop"', () => {
  it('closes the connection before handling: the client sees a socket error and nothing changes', async () => {
    sb = await startTestSandbox()
    const body = await paymentBody()
    await addFault({ fault: 'drop', times: 1 })
    expect(await socketError(postPayment(body, 'dropped'))).toMatch(/ECONNRESET|socket hang up/)
    expect(await paymentTotal()).toBe(0)
    // Nothing ran, so the retry with the same key runs anew.
    const retry = await postPayment(body, 'dropped').expect(201)
    expect(retry.headers['idempotent-replayed']).toBeUndefined()
    expect(await paymentTotal()).toBe(1)
  })
})

describe('fault "commit_then_drop"', () => {
  it('handles the request, then closes the connection; the retry with the same Idempotency-Key replays', async () => {
    sb = await startTestSandbox()
    const body = await paymentBody()
    await addFault({ match: { method: 'POST', path: '/v1/payments' }, fault: 'commit_then_drop', times: 1 })
    expect(await socketError(postPayment(body, 'order-7'))).toMatch(/ECONNRESET|socket hang up/)
    expect(await paymentTotal()).toBe(1)

    const retry = await postPayment(body, 'order-7').expect(201)
    expect(retry.headers['idempotent-replayed']).toBe('true')
    const listed = await sb.api.get('/v1/payments').set(sb.auth()).expect(200)
    expect(listed.body.data.map((p: { id: string }) => p.id)).toEqual([retry.body.data.id])
  })

  it('drops error answers of the handler too, after storing them', async () => {
    sb = await startTestSandbox()
    const body = { ...(await paymentBody()), amount: '99999999.00' }
    await addFault({ fault: 'commit_then_drop', times: 1 })
    await socketError(postPayment(body, 'too-much'))
    const retry = await postPayment(body, 'too-much').expect(422)
    expect(retry.body.error.code).toBe('insufficient_funds')
    expect(retry.headers['idempotent-replayed']).toBe('true')
  })
})

describe('fault "timeout"', () => {
  it('never answers and changes nothing', async () => {
    sb = await startTestSandbox()
    const body = await paymentBody()
    await addFault({ fault: 'timeout', times: 1 })
    const error = await socketError(postPayment(body, 'held').timeout(150))
    expect(error).toBe('ECONNABORTED')
    expect(await paymentTotal()).toBe(0)
    await postPayment(body, 'held').expect(201)
  })

  it('does not keep the sandbox from closing', async () => {
    sb = await startTestSandbox()
    await addFault({ fault: 'timeout', times: 1 })
    const held = socketError(sb.api.get('/v1/wallets').set(sb.auth()))
    // Once the rule is used up the request is held; close while the client still waits.
    while ((await sb.api.get('/_sandbox/faults')).body.data[0].remaining !== 0) await new Promise((resolve) => setTimeout(resolve, 5))
    const { ms } = await timed(() => sb.close())
    expect(ms).toBeLessThan(1000)
    expect(await held).toMatch(/ECONNRESET|socket hang up/)
  })
})

describe('matching', () => {
  it('by method', async () => {
    sb = await startTestSandbox()
    await addFault({ match: { method: 'post' }, fault: 'error' })
    await sb.api.get('/v1/wallets').set(sb.auth()).expect(200)
    await sb.api.post('/v1/wallets').set(sb.auth()).send({ name: 'x', currency: 'USDC', network: 'polygon' }).expect(503)
  })

  it('by exact path', async () => {
    sb = await startTestSandbox()
    const wallet = await institutionalWallet(sb, 'polygon', 'USDC')
    await addFault({ match: { path: '/v1/wallets' }, fault: 'error' })
    await sb.api.get('/v1/wallets').set(sb.auth()).expect(503)
    await sb.api.get(`/v1/wallets/${wallet.id}`).set(sb.auth()).expect(200)
    await sb.api.get('/v1/payments').set(sb.auth()).expect(200)
  })

  it('by path prefix ending in *', async () => {
    sb = await startTestSandbox()
    const wallet = await institutionalWallet(sb, 'polygon', 'USDC')
    await addFault({ match: { path: '/v1/wallets/*' }, fault: 'error' })
    await sb.api.get(`/v1/wallets/${wallet.id}`).set(sb.auth()).expect(503)
    await sb.api.get(`/v1/wallets/${wallet.id}/balance`).set(sb.auth()).expect(503)
    await sb.api.get('/v1/wallets').set(sb.auth()).expect(200)
    await sb.api.get('/v1/payments').set(sb.auth()).expect(200)
  })

  it('by api_key', async () => {
    sb = await startTestSandbox()
    await addFault({ match: { api_key: OTHER_KEY }, fault: 'error' })
    await sb.api.get('/v1/wallets').set(sb.auth()).expect(200)
    await sb.api.get('/v1/wallets').set(sb.auth(OTHER_KEY)).expect(503)
  })

  it('never touches the control API', async () => {
    sb = await startTestSandbox()
    await addFault({ fault: 'drop' })
    await sb.api.get('/_sandbox/faults').expect(200)
    await sb.api.post('/_sandbox/clock/advance').send({ ms: 1 }).expect(200)
  })
})

describe('probability and times', () => {
  it('probability 0 never fires and uses nothing up', async () => {
    sb = await startTestSandbox()
    await addFault({ fault: 'error', probability: 0, times: 2 })
    for (let i = 0; i < 20; i++) await sb.api.get('/v1/wallets').set(sb.auth()).expect(200)
    expect((await sb.api.get('/_sandbox/faults')).body.data[0].remaining).toBe(2)
  })

  it('fires a fraction of requests, the same ones for the same seed', async () => {
    const statuses = async () => {
      sb = await startTestSandbox({ seed: 'fault-rules' })
      await addFault({ fault: 'error', probability: 0.5 })
      const seen: number[] = []
      for (let i = 0; i < 30; i++) seen.push((await sb.api.get('/v1/payments').set(sb.auth())).status)
      await sb.close()
      return seen
    }
    const first = await statuses()
    expect(first.filter((s) => s === 503).length).toBeGreaterThan(4)
    expect(first.filter((s) => s === 200).length).toBeGreaterThan(4)
    expect(await statuses()).toEqual(first)
  })

  it('times counts the requests it fired on; at 0 the rule stays listed and stops applying', async () => {
    sb = await startTestSandbox()
    const rule = await addFault({ fault: 'error', times: 2 })
    await sb.api.get('/v1/wallets').set(sb.auth()).expect(503)
    expect((await sb.api.get('/_sandbox/faults')).body.data[0].remaining).toBe(1)
    await sb.api.get('/v1/wallets').set(sb.auth()).expect(503)
    await sb.api.get('/v1/wallets').set(sb.auth()).expect(200)
    expect((await sb.api.get('/_sandbox/faults')).body.data).toEqual([{ ...rule, remaining: 0 }])
  })

  it('the first matching rule decides; a used-up rule lets the next one apply', async () => {
    sb = await startTestSandbox()
    await addFault({ fault: 'error', status: 500, times: 1 })
    await addFault({ fault: 'error', status: 503, times: 1 })
    await sb.api.get('/v1/wallets').set(sb.auth()).expect(500)
    await sb.api.get('/v1/wallets').set(sb.auth()).expect(503)
    await sb.api.get('/v1/wallets').set(sb.auth()).expect(200)
  })
})

describe('removing rules', () => {
  it('DELETE /_sandbox/faults/{id} removes one; an unknown id is 404 resource_missing', async () => {
    sb = await startTestSandbox()
    const first = await addFault({ fault: 'error' })
    const second = await addFault({ fault: 'drop', match: { path: '/v1/payments' } })
    expect((await sb.api.delete(`/_sandbox/faults/${first.id}`).expect(200)).body.data).toEqual({ id: first.id, object: 'fault', deleted: true })
    expect((await sb.api.get('/_sandbox/faults')).body.data).toEqual([second])
    await sb.api.get('/v1/wallets').set(sb.auth()).expect(200)
    const missing = await sb.api.delete(`/_sandbox/faults/${first.id}`).expect(404)
    expect(missing.body.error.code).toBe('resource_missing')
  })

  it('DELETE /_sandbox/faults removes all', async () => {
    sb = await startTestSandbox()
    await addFault({ fault: 'error' })
    await addFault({ fault: 'drop' })
    expect((await sb.api.delete('/_sandbox/faults').expect(200)).body.data).toEqual({ deleted: 2 })
    expect((await sb.api.get('/_sandbox/faults')).body.data).toEqual([])
    await sb.api.get('/v1/wallets').set(sb.auth()).expect(200)
  })

  it('a reset removes every rule; an account reset only those on its keys', async () => {
    sb = await startTestSandbox()
    await sb.api.get('/v1/wallets').set(sb.auth(OTHER_KEY)).expect(200)
    await addFault({ fault: 'error', match: { api_key: OTHER_KEY } })
    const kept = await addFault({ fault: 'error', match: { api_key: DEFAULT_KEY } })
    await sb.api.post('/_sandbox/reset').send({ api_key: OTHER_KEY }).expect(200)
    expect((await sb.api.get('/_sandbox/faults')).body.data).toEqual([kept])
    await sb.api.post('/_sandbox/reset').send({}).expect(200)
    expect((await sb.api.get('/_sandbox/faults')).body.data).toEqual([])
  })
})
