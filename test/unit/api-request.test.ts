import { describe, expect, it } from 'vitest'
import { ApiCallError, createApiRequest } from '../../src/client/api-request.js'

/** The terminal's /v1 requests: the API's own error, and a rate limit waited out. */

const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } })
const limited = () => answer(429, { error: { code: 'rate_limit_exceeded', message: 'Too many requests.' } }, { 'retry-after': '0' })

describe('createApiRequest', () => {
  it('answers the data, sending the key', async () => {
    const seen: Array<[string, RequestInit | undefined]> = []
    const request = createApiRequest({ baseUrl: 'http://sandbox/', apiKey: 'sk_test_k', fetch: async (url, init) => (seen.push([String(url), init]), answer(200, { data: { id: 'pay_1' } })) })
    expect(await request('POST', '/payments', { amount: '1.00' })).toEqual({ id: 'pay_1' })
    expect(seen[0]![0]).toBe('http://sandbox/v1/payments')
    expect(seen[0]![1]).toMatchObject({ method: 'POST', body: '{"amount":"1.00"}', headers: { authorization: 'Bearer sk_test_k', 'content-type': 'application/json' } })
  })

  it('throws the API\'s own error, with its code and param', async () => {
    const request = createApiRequest({ baseUrl: 'http://sandbox', apiKey: 'k', fetch: async () => answer(400, { error: { code: 'parameter_invalid', message: 'amount is wrong', param: 'amount' } }) })
    const error = await request('POST', '/payments', {}).catch((thrown: unknown) => thrown)
    expect(error).toBeInstanceOf(ApiCallError)
    expect(error).toMatchObject({ message: 'amount is wrong', status: 400, code: 'parameter_invalid', param: 'amount' })
  })

  it('waits out a 429 and tries again, three times at most', async () => {
    const answers = [limited(), limited(), answer(200, { data: [] })]
    expect(await createApiRequest({ baseUrl: 'http://sandbox', apiKey: 'k', fetch: async () => answers.shift()! })('GET', '/wallets')).toEqual([])
    let calls = 0
    const always = createApiRequest({ baseUrl: 'http://sandbox', apiKey: 'k', fetch: async () => (calls++, limited()) })
    await expect(always('GET', '/wallets')).rejects.toMatchObject({ code: 'rate_limit_exceeded' })
    expect(calls).toBe(4)
  })

  it('quotes an answer that is not JSON', async () => {
    const request = createApiRequest({ baseUrl: 'http://sandbox', apiKey: 'k', fetch: async () => new Response('<html>bad gateway</html>', { status: 502 }) })
    await expect(request('GET', '/wallets')).rejects.toThrow('GET /v1/wallets answered 502: <html>bad gateway</html>')
  })
})
