import { describe, expect, it } from 'vitest'
import { createSide, retryAfterMs } from '../../../src/parity/http-side.js'
import { createPacer } from '../../../src/parity/pacer.js'

/** One side's requests: the pacing of --rate, 429s waited out and counted; waits injected, never slept. */

function fakeFetch(answers: Array<{ status: number; headers?: Record<string, string> }>) {
  const seen: Array<{ url: string; headers: Record<string, string> }> = []
  const fetchFn = (async (url: string, init: RequestInit) => {
    seen.push({ url, headers: init.headers as Record<string, string> })
    const next = answers.shift() ?? { status: 200 }
    return new Response(JSON.stringify({ data: {} }), { status: next.status, headers: next.headers })
  }) as unknown as typeof fetch
  return { fetchFn, seen }
}

describe('createPacer', () => {
  it('spaces requests 1/rate apart and a little more, so that no second holds more than rate of them', async () => {
    let now = 0
    const waits: number[] = []
    const pace = createPacer(4, { now: () => now, sleep: async (ms) => void (waits.push(ms), (now += ms)) })
    for (let i = 0; i < 5; i++) await pace()
    expect(waits).toEqual([262.5, 262.5, 262.5, 262.5])
    now += 1050
    await pace()
    expect(waits).toHaveLength(4)
  })

  it('starts the next gap from when a late timer really sent the request, never closer', async () => {
    let now = 0
    const sent: number[] = []
    // Each sleep overshoots by 100 ms, as a timer does on a busy machine.
    const pace = createPacer(4, { now: () => now, sleep: async (ms) => void (now += ms + 100) })
    for (let i = 0; i < 4; i++) {
      await pace()
      sent.push(now)
    }
    expect(sent.slice(1).map((at, i) => at - sent[i]!)).toEqual([362.5, 362.5, 362.5])
  })
})

describe('createSide', () => {
  it('waits out a 429 for its Retry-After, else 1 s, sends again, and counts the retries', async () => {
    const waits: number[] = []
    const { fetchFn, seen } = fakeFetch([{ status: 429, headers: { 'retry-after': '2' } }, { status: 429 }, { status: 201, headers: { 'x-request-id': 'req_1', 'x-powered-by': 'x' } }])
    const side = createSide({ name: 'hosted', root: 'https://sandbox.example.com/', apiKey: 'sk_test_hosted_key', rate: 1000, fetch: fetchFn, sleep: async (ms) => void waits.push(ms) })
    const answer = await side.send({ method: 'POST', path: '/v1/wallets', body: { name: 'a' }, auth: 'key' })
    expect(answer).toMatchObject({ status: 201, retries429: 2, headers: { 'x-request-id': 'req_1' } })
    expect(answer.headers).not.toHaveProperty('x-powered-by')
    expect(waits.filter((ms) => ms >= 1000)).toEqual([2000, 1000])
    expect(seen.map((request) => request.url)).toEqual(Array(3).fill('https://sandbox.example.com/v1/wallets'))
    expect(seen[0]!.headers).toMatchObject({ authorization: 'Bearer sk_test_hosted_key', 'content-type': 'application/json' })
  })

  it('gives up after 3 retries and answers the fourth 429', async () => {
    const { fetchFn, seen } = fakeFetch(Array(5).fill({ status: 429, headers: { 'retry-after': '0' } }))
    const side = createSide({ name: 'hosted', root: 'http://h', apiKey: 'sk_test_hosted_key', rate: 1000, fetch: fetchFn, sleep: async () => {} })
    expect(await side.send({ method: 'GET', path: '/v1/wallets', auth: 'key' })).toMatchObject({ status: 429, retries429: 3 })
    expect(seen).toHaveLength(4)
  })

  it('sends no Authorization, or a malformed one, when the step says so', async () => {
    const { fetchFn, seen } = fakeFetch([])
    const side = createSide({ name: 'local', root: 'http://l', apiKey: 'sk_test_local_key', rate: 1000, fetch: fetchFn, sleep: async () => {} })
    await side.send({ method: 'GET', path: '/v1/wallets', query: { limit: '1', status: ['a', 'b'] }, auth: 'none' })
    await side.send({ method: 'GET', path: '/v1/wallets', auth: 'malformed' })
    expect(seen[0]!.url).toBe('http://l/v1/wallets?limit=1&status=a&status=b')
    expect(seen[0]!.headers).not.toHaveProperty('authorization')
    expect(seen[1]!.headers.authorization).toMatch(/^Basic /)
  })

  it.each([
    ['0', 0],
    ['3', 3000],
    [null, 1000],
    ['soon', 1000],
  ])('reads Retry-After %s as %i ms', (header, ms) => {
    expect(retryAfterMs(header)).toBe(ms)
  })
})
