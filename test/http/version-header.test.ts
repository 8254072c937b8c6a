import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { VERSION } from '../../src/version.js'
import { startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

let sb: TestSandbox
beforeAll(async () => {
  sb = await startTestSandbox({ controlToken: 'secret-token' })
})
afterAll(() => sb.close())

/** One request written by hand, for what no HTTP client sends; answers the raw text. */
function rawRequest(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(sb.url).port), '127.0.0.1', () => socket.write(text))
    let answer = ''
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')))
    socket.on('close', () => resolve(answer))
    socket.on('error', reject)
  })
}

describe('Wallet-Sandbox-Version', () => {
  it.each([
    ['a /v1 answer', () => sb.api.get('/v1/wallets').set(sb.auth()), 200],
    ['a /v1 error before authentication', () => sb.api.get('/v1/wallets'), 401],
    ['a /v1 validation error', () => sb.api.post('/v1/payments').set(sb.auth()).send({}), 400],
    ['a route that does not exist', () => sb.api.get('/v2/nothing'), 404],
    ['a method a path does not take', () => sb.api.delete('/v1/openapi.json'), 405],
    ['the OpenAPI document', () => sb.api.get('/v1/openapi.json'), 200],
    ['a control answer', () => sb.api.get('/_sandbox/clock').set('Authorization', 'Bearer secret-token'), 200],
    ['a control error (no token)', () => sb.api.get('/_sandbox/clock'), 401],
    ['the health check', () => sb.api.get('/_sandbox/health'), 200],
    ['the dashboard', () => sb.api.get('/_sandbox/ui/'), 200],
    ['a HEAD request', () => sb.api.head('/v1/openapi.json'), 200],
  ])('is on %s', async (_name, send, status) => {
    const res = await send()
    expect(res.status).toBe(status)
    expect(res.headers['wallet-sandbox-version']).toBe(VERSION)
  })

  it('is on the answer to a request node refuses to parse', async () => {
    const answer = await rawRequest('GET /v1/wallets HTTP/1.1\r\nHost: x\r\nBad\u0001Header: 1\r\n\r\n')
    expect(answer).toMatch(/^HTTP\/1\.1 400 /)
    expect(answer).toContain(`Wallet-Sandbox-Version: ${VERSION}\r\n`)
  })
})
