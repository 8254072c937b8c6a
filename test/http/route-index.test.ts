import { afterEach, expect, it } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

// The route index answers for express's router; these are the cases where the two could differ.
let sb: TestSandbox
afterEach(() => sb?.close())

it('matches paths as express does: any case, one trailing slash', async () => {
  sb = await startTestSandbox()
  const plain = await sb.api.get('/v1/wallets?limit=1').set(sb.auth()).expect(200)
  const variant = await sb.api.get('/V1/Wallets/?limit=1').set(sb.auth()).expect(200)
  expect(variant.body.data).toEqual(plain.body.data)
})

it('passes decoded path parameters to the route', async () => {
  sb = await startTestSandbox()
  const res = await sb.api.get('/v1/payments/pay%5Fmissing').set(sb.auth()).expect(404)
  expect(res.body.error.message).toContain('pay_missing')
})

it('answers bad percent-encoding in a parameter with parameter_invalid', async () => {
  sb = await startTestSandbox()
  const res = await sb.api.get('/v1/payments/%E0%A4%A').set(sb.auth()).expect(400)
  expect(res.body.error.code).toBe('parameter_invalid')
})

it('leaves HEAD, wrong methods and unknown paths to express', async () => {
  sb = await startTestSandbox()
  await sb.api.head('/v1/wallets').set(sb.auth()).expect(200)
  const wrong = await sb.api.delete('/v1/payments').set(sb.auth()).expect(405)
  expect(wrong.headers.allow).toBe('POST, GET, HEAD')
  const unknown = await sb.api.get('/v1/nothing-here').set(sb.auth()).expect(404)
  expect(unknown.body.error.code).toBe('route_not_found')
})
