import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_KEY, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

/** `--latency` and `--error-rate`: faults on every /v1 request (CONTRACT.md section 13). */

let sb: TestSandbox
afterEach(() => sb?.close())

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const started = performance.now()
  const result = await run()
  return { ms: performance.now() - started, result }
}

describe('--latency', () => {
  it('holds every /v1 request for the given milliseconds', async () => {
    sb = await startTestSandbox({ latency: '300' })
    const { ms, result } = await timed(() => sb.api.get('/v1/wallets').set(sb.auth()))
    expect(result.status).toBe(200)
    expect(ms).toBeGreaterThanOrEqual(290)
  })

  it('applies to errors answered by the handler too', async () => {
    sb = await startTestSandbox({ latency: '200' })
    const { ms, result } = await timed(() => sb.api.get('/v1/wallets/wal_unknown').set(sb.auth()))
    expect(result.status).toBe(404)
    expect(ms).toBeGreaterThanOrEqual(190)
  })

  it('draws from a range', async () => {
    sb = await startTestSandbox({ latency: '100-150' })
    const { ms } = await timed(() => sb.api.get('/v1/payments').set(sb.auth()))
    expect(ms).toBeGreaterThanOrEqual(95)
  })

  it('leaves the control API alone', async () => {
    sb = await startTestSandbox({ latency: '1000' })
    const { ms, result } = await timed(() => sb.api.get('/_sandbox/health'))
    expect(result.status).toBe(200)
    expect(ms).toBeLessThan(900)
  })
})

describe('--error-rate', () => {
  it('at 1 answers every /v1 request with 503 service_unavailable in the error shape', async () => {
    sb = await startTestSandbox({ errorRate: 1 })
    for (const request of [sb.api.get('/v1/wallets'), sb.api.post('/v1/wallets').send({ name: 'x', currency: 'USDC', network: 'polygon' })]) {
      const res = await request.set(sb.auth())
      expect(res.status).toBe(503)
      expect(res.body.error).toMatchObject({ type: 'api_error', code: 'service_unavailable' })
      expect(res.body.error.message).toContain('--error-rate')
      expect(res.body.request_id).toBe(res.headers['x-request-id'])
    }
    // Nothing was created behind the 503.
    const account = sb.sandbox.store.accounts.get(sb.sandbox.store.keys.get(DEFAULT_KEY)!.account_id)!
    expect(account.wallets.size).toBe(14)
  })

  it('comes after authentication and leaves the control API alone', async () => {
    sb = await startTestSandbox({ errorRate: 1 })
    expect((await sb.api.get('/v1/wallets')).status).toBe(401)
    expect((await sb.api.get('/_sandbox/health')).status).toBe(200)
  })

  it('does not store an injected 503 under an Idempotency-Key', async () => {
    sb = await startTestSandbox({ errorRate: 1 })
    await sb.api.post('/v1/wallets').set(sb.auth()).set('Idempotency-Key', 'retry-after-503').send({ name: 'x', currency: 'USDC', network: 'polygon' }).expect(503)
    const account = sb.sandbox.store.accounts.get(sb.sandbox.store.keys.get(DEFAULT_KEY)!.account_id)!
    expect(account.idempotency.size).toBe(0)
  })

  it('fails a fraction of requests, the same ones for the same seed', async () => {
    const statuses = async () => {
      sb = await startTestSandbox({ errorRate: 0.5, seed: 'faults' })
      const seen: number[] = []
      for (let i = 0; i < 40; i++) seen.push((await sb.api.get('/v1/payments').set(sb.auth())).status)
      await sb.close()
      return seen
    }
    const first = await statuses()
    expect(first.filter((s) => s === 503).length).toBeGreaterThan(5)
    expect(first.filter((s) => s === 200).length).toBeGreaterThan(5)
    expect(await statuses()).toEqual(first)
  })

  it('at 0 (the default) never fails', async () => {
    sb = await startTestSandbox()
    for (let i = 0; i < 20; i++) await sb.api.get('/v1/payments').set(sb.auth()).expect(200)
  })
})
