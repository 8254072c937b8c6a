import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../src/errors.js'
import { createRateLimiter } from '../../src/http/middleware/rate-limit.js'
import { startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

const RATE_HEADERS = ['ratelimit-policy', 'ratelimit', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']

let sb: TestSandbox | undefined
afterEach(async () => {
  await sb?.close()
  sb = undefined
})
/** The sandbox of the running test. */
const api = () => sb!.api
const auth = (key?: string) => sb!.auth(key)

type Res = { status: number; body: any; headers: Record<string, string> }

/** r and t of the RateLimit header. */
function parseRateLimit(header: string | undefined): { r: number; t: number } {
  const match = /^"sandbox";r=(\d+);t=(\d+)$/.exec(header ?? '')
  expect(match, `RateLimit: ${header}`).not.toBeNull()
  return { r: Number(match![1]), t: Number(match![2]) }
}

function expectNoRateHeaders(res: Res): void {
  for (const name of RATE_HEADERS) expect(res.headers[name], name).toBeUndefined()
}

const nowSeconds = () => Math.floor(Date.now() / 1000)

describe('rate limit headers', () => {
  it('the first request of a fresh second gets exactly the documented headers', async () => {
    sb = await startTestSandbox({ rateLimit: 10 })
    const res = await api().get('/v1/wallets').set(auth('sk_test_rate_headers')).expect(200)
    expect(res.headers['ratelimit-policy']).toBe('"sandbox";q=10;w=1')
    expect(res.headers.ratelimit).toBe('"sandbox";r=9;t=0')
    expect(res.headers['x-ratelimit-limit']).toBe('10')
    expect(res.headers['x-ratelimit-remaining']).toBe('9')
    expect(res.headers['x-ratelimit-reset']).toMatch(/^\d+$/)
    expect(Math.abs(Number(res.headers['x-ratelimit-reset']) - nowSeconds())).toBeLessThanOrEqual(2)
  })

  it('are sent on errors after authentication (400, 404 resource)', async () => {
    sb = await startTestSandbox({ rateLimit: 10 })
    const key = auth('sk_test_rate_errors')
    const invalid = await api().post('/v1/wallets').set(key).send({}).expect(400)
    expect(parseRateLimit(invalid.headers.ratelimit)).toEqual({ r: 9, t: 0 })
    const missing = await api().get('/v1/wallets/wal_unknown').set(key).expect(404)
    expect(parseRateLimit(missing.headers.ratelimit)).toEqual({ r: 8, t: 0 })
  })

  it('are not sent on a 401 or on an unknown route', async () => {
    sb = await startTestSandbox({ rateLimit: 10 })
    expectNoRateHeaders(await api().get('/v1/wallets').expect(401))
    expectNoRateHeaders(await api().get('/v1/wallets').set(auth('sk_live_abcdefghijkl')).expect(401))
    expectNoRateHeaders(await api().get('/v1/nothing-here').set(auth()).expect(404))
  })

  it('are not sent, and nothing is limited, with --rate-limit 0', async () => {
    sb = await startTestSandbox({ rateLimit: 0 })
    for (let i = 0; i < 25; i++) expectNoRateHeaders(await api().get('/v1/payments').set(auth()).expect(200))
  })

  it('the control API is neither limited nor labelled', async () => {
    sb = await startTestSandbox({ rateLimit: 2 })
    for (let i = 0; i < 10; i++) expectNoRateHeaders(await api().get('/_sandbox/health').expect(200))
  })
})

describe('the limit', () => {
  it('accepts N requests in a second and answers the next with 429 rate_limit_exceeded and Retry-After', async () => {
    sb = await startTestSandbox({ rateLimit: 10 })
    const key = auth('sk_test_rate_burst')
    const accepted = await Promise.all(Array.from({ length: 10 }, () => api().get('/v1/payments').set(key)))
    expect(accepted.map((res) => res.status)).toEqual(Array(10).fill(200))
    const remaining = accepted.map((res) => parseRateLimit(res.headers.ratelimit))
    expect(remaining.map((h) => h.r).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    for (const { r, t } of remaining) expect(r === 0 ? t >= 1 : t === 0).toBe(true)

    const limited = await api().get('/v1/payments').set(key)
    expect(limited.status).toBe(429)
    expect(limited.body.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit_exceeded' })
    expect(limited.body.request_id).toBe(limited.headers['x-request-id'])
    expect(limited.headers['retry-after']).toMatch(/^\d+$/)
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1)
    const { r, t } = parseRateLimit(limited.headers.ratelimit)
    expect(r).toBe(0)
    expect(t).toBeGreaterThanOrEqual(1)
    expect(limited.headers['ratelimit-policy']).toBe('"sandbox";q=10;w=1')
    expect(limited.headers['x-ratelimit-remaining']).toBe('0')
    expect(Number(limited.headers['x-ratelimit-reset'])).toBeGreaterThanOrEqual(nowSeconds())
  })

  it('counts per key: another key of the same account is unaffected', async () => {
    sb = await startTestSandbox({ rateLimit: 3 })
    for (let i = 0; i < 3; i++) await api().get('/v1/wallets').set(auth()).expect(200)
    await api().get('/v1/wallets').set(auth()).expect(429)
    const other = await api().get('/v1/wallets').set(auth('rk_test_sandbox_read_only')).expect(200)
    expect(parseRateLimit(other.headers.ratelimit)).toEqual({ r: 2, t: 0 })
    const otherAccount = await api().get('/v1/wallets').set(auth('sk_test_rate_other_account')).expect(200)
    expect(parseRateLimit(otherAccount.headers.ratelimit)).toEqual({ r: 2, t: 0 })
  })

  it('runs before the body is read: an invalid body over the limit is still a 429', async () => {
    sb = await startTestSandbox({ rateLimit: 1 })
    await api().get('/v1/wallets').set(auth()).expect(200)
    const res = await api().post('/v1/wallets').set(auth()).set('Content-Type', 'application/json').send('{broken').expect(429)
    expect(res.body.error.code).toBe('rate_limit_exceeded')
  })
})

describe('the rolling one-second window (on monotonic time)', () => {
  let now = 0
  afterEach(() => {
    vi.restoreAllMocks()
  })

  function limiterAt(limit: number) {
    now = 10_000
    // The limiter's default time is monotonicMs() (src/clock.ts): process.hrtime, as [seconds, nanoseconds].
    vi.spyOn(process, 'hrtime').mockImplementation(() => [Math.floor(now / 1000), (now % 1000) * 1e6])
    return createRateLimiter(limit)
  }

  function rejected(take: () => unknown): ApiError {
    try {
      take()
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError)
      return error as ApiError
    }
    throw new Error('expected a 429')
  }

  it('frees a slot exactly one second after it was taken', () => {
    const limiter = limiterAt(10)
    for (let i = 0; i < 10; i++) limiter.take('k')
    now += 500
    const error = rejected(() => limiter.take('k'))
    expect(error.code).toBe('rate_limit_exceeded')
    expect(error.headers['Retry-After']).toBe('1')
    expect(error.headers.RateLimit).toBe('"sandbox";r=0;t=1')
    now += 499
    rejected(() => limiter.take('k'))
    now += 2
    expect(limiter.take('k').RateLimit).toBe('"sandbox";r=9;t=0')
  })

  it('does not count rejected requests', () => {
    const limiter = limiterAt(10)
    for (let i = 0; i < 10; i++) limiter.take('k')
    for (let i = 0; i < 20; i++) {
      now += 40
      rejected(() => limiter.take('k'))
    }
    now = 10_000 + 1001
    // Had the 20 rejected requests counted, the window would still be full.
    expect(limiter.take('k')['X-RateLimit-Remaining']).toBe('9')
  })

  it('rolls: requests spread over the second leave the window one by one', () => {
    const limiter = limiterAt(4)
    limiter.take('k')
    now += 300
    limiter.take('k')
    now += 300
    limiter.take('k')
    limiter.take('k')
    now = 10_000 + 1001
    expect(limiter.take('k').RateLimit).toBe('"sandbox";r=0;t=1')
    const error = rejected(() => limiter.take('k'))
    expect(error.headers['Retry-After']).toBe('1')
    now = 10_000 + 300 + 1001
    expect(limiter.take('k').RateLimit).toBe('"sandbox";r=0;t=1')
  })

  it('never advertises less than one second once the window is full', () => {
    const limiter = limiterAt(1)
    limiter.take('k')
    now += 999.5
    const error = rejected(() => limiter.take('k'))
    expect(error.headers['Retry-After']).toBe('1')
  })

  it('keeps one window per key', () => {
    const limiter = limiterAt(2)
    limiter.take('a')
    limiter.take('a')
    rejected(() => limiter.take('a'))
    expect(limiter.take('b').RateLimit).toBe('"sandbox";r=1;t=0')
  })
})
