import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import { ApiError } from '../../src/errors.js'
import { createRateLimiter } from '../../src/http/middleware/rate-limit.js'
import { race, tally, type RaceRequest } from '../helpers/race.js'
import { startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

/**
 * The rate limit is exact (CONTRACT.md section 7): at most N accepted requests per key in any rolling
 * second, and never a refusal while fewer than N were accepted in the second before. The limiter runs
 * on real monotonic time, so these tests inject that time instead of waiting for it.
 */

let sb: TestSandbox | undefined
afterEach(async () => {
  await sb?.close()
  sb = undefined
})

describe('the limiter, over random arrival times (property)', () => {
  it('accepts exactly what fits: never more than N in any rolling second, never a refusal with a slot free', () => {
    const arrivals = fc.array(fc.record({ key: fc.constantFrom('a', 'b', 'c'), gap: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 50 }), fc.integer({ min: 900, max: 1100 })) }), { minLength: 1, maxLength: 300 })
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), arrivals, (limit, requests) => {
        let now = 5_000
        const limiter = createRateLimiter(limit, () => now)
        const accepted = new Map<string, number[]>()
        for (const { key, gap } of requests) {
          now += gap
          const times = accepted.get(key) ?? []
          accepted.set(key, times)
          // What an exact limiter must do: count this key's accepts in (now - 1000, now].
          const inWindow = times.filter((t) => t > now - 1000).length
          let ok = true
          try {
            limiter.take(key)
          } catch (error) {
            if (!(error instanceof ApiError) || error.code !== 'rate_limit_exceeded') throw error
            ok = false
          }
          if (ok !== inWindow < limit) return false
          if (ok) times.push(now)
        }
        return true
      }),
      { numRuns: 300 },
    )
  })
})

describe('through HTTP, under concurrency', () => {
  const get = (key: string): RaceRequest => ({ method: 'GET', path: '/v1/wallets?limit=1', headers: { authorization: `Bearer ${key}` } })

  it('of 30 simultaneous requests on each of two keys, exactly 10 per key pass in a second; the window then rolls exactly', async () => {
    let now = 1_000_000
    sb = await startTestSandbox({ rateLimit: 10 }, { rateLimitClock: () => now })
    const keys = ['sk_test_rate_exact_a', 'sk_test_rate_exact_b']
    // Provision both accounts first (the first use of a key seeds its account), outside the measured second.
    for (const key of keys) await sb.api.get('/v1/wallets?limit=1').set(sb.auth(key)).expect(200)
    now += 1000

    const burst = () => race(sb!.url, keys.flatMap((key) => Array.from({ length: 30 }, () => get(key))))
    const first = await burst()
    for (const key of keys) {
      const answers = first.filter((_, i) => keys[Math.floor(i / 30)] === key)
      expect(tally(answers)).toEqual({ '200': 10, '429 rate_limit_exceeded': 20 })
      expect(answers.filter((a) => a.status === 429).every((a) => a.headers['retry-after'] === '1')).toBe(true)
    }

    // 999 ms later the ten accepts are still in the window: nothing passes.
    now += 999
    expect(tally(await burst())).toEqual({ '429 rate_limit_exceeded': 60 })
    // 1 ms more and all ten leave it at once: exactly ten more per key.
    now += 1
    expect(tally(await burst())).toEqual({ '200': 20, '429 rate_limit_exceeded': 40 })
  })

  it('with requests spread over the second, the window rolls one slot at a time', async () => {
    let now = 2_000_000
    sb = await startTestSandbox({ rateLimit: 4 }, { rateLimitClock: () => now })
    const key = 'sk_test_rate_rolling'
    await sb.api.get('/v1/wallets?limit=1').set(sb.auth(key)).expect(200) // at 0 ms
    now += 250
    expect(tally(await race(sb.url, Array.from({ length: 10 }, () => get(key))))).toEqual({ '200': 3, '429 rate_limit_exceeded': 7 }) // at 250 ms
    now += 750 // 1000 ms: the first request leaves the window, the three of 250 ms do not
    expect(tally(await race(sb.url, Array.from({ length: 10 }, () => get(key))))).toEqual({ '200': 1, '429 rate_limit_exceeded': 9 })
    now += 249
    expect(tally(await race(sb.url, Array.from({ length: 10 }, () => get(key))))).toEqual({ '429 rate_limit_exceeded': 10 })
    now += 1
    expect(tally(await race(sb.url, Array.from({ length: 10 }, () => get(key))))).toEqual({ '200': 3, '429 rate_limit_exceeded': 7 })
  })
})
