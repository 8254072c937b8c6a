import { afterEach, describe, expect, it } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

/** Bugs the fuzzer (test/fuzz) found, each pinned by the smallest request that showed it. */

let sb: TestSandbox | undefined
afterEach(async () => {
  await sb?.close()
  sb = undefined
})

describe('a path parameter that is not valid percent-encoding', () => {
  // Found: PUT /v1/wallets/%zz/balance answered 400 parameter_invalid; the route check comes first (CONTRACT.md section 13).
  it.each([
    ['PUT', '/v1/wallets/%zz/balance', 'GET, HEAD'],
    ['POST', '/v1/wallets/%E0%A4%A', 'GET, PUT, DELETE, HEAD'],
    ['PATCH', '/_sandbox/payments/%C0%AF/process', 'POST'],
    ['PUT', '/_sandbox/accounts/%/wallets', 'GET, HEAD'],
  ])('with the wrong method (%s %s) is 405 method_not_allowed with Allow', async (method, path, allow) => {
    sb = await startTestSandbox()
    const res = await sb.api[method.toLowerCase() as 'put'](path).set(sb.auth()).expect(405)
    expect(res.body.error.code).toBe('method_not_allowed')
    expect(res.headers.allow).toBe(allow)
  })

  it.each([
    ['GET', '/v1/wallets/%zz/balance'],
    ['DELETE', '/v1/wallets/%E0%A4%A'],
    ['POST', '/_sandbox/payments/%C0%AF/process'],
  ])('with the right method (%s %s) is still 400 parameter_invalid', async (method, path) => {
    sb = await startTestSandbox()
    const res = await sb.api[method.toLowerCase() as 'get'](path).set(sb.auth()).expect(400)
    expect(res.body.error.code).toBe('parameter_invalid')
    expect(res.body.error.message).toMatch(/percent-encoding/)
  })
})
