import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_KEY, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

// The server's listener sends a request for a route object straight to it, without express's
// request handling (src/http/app.ts). Whatever the URL, the answer must be the one express gives:
// the same requests go to the listener and to the express app alone, and must get the same answers.

let sb: TestSandbox
let expressOnly: Server
let expressUrl: string
let walletId: string

beforeAll(async () => {
  sb = await startTestSandbox()
  expressOnly = createServer(await sb.sandbox.expressApp())
  await new Promise<void>((done) => expressOnly.listen(0, '127.0.0.1', done))
  expressUrl = `http://127.0.0.1:${(expressOnly.address() as AddressInfo).port}`
  walletId = (await sb.api.get('/v1/wallets?limit=1').set(sb.auth()).expect(200)).body.data[0].id
})

afterAll(async () => {
  await new Promise((done) => expressOnly.close(done))
  await sb.close()
})

interface Answer {
  status: number
  allow: string | undefined
  body: unknown
}

/** A raw request (the path exactly as given, '#' included), answered with its body minus the request ids. */
function send(base: string, method: string, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}/`, { method, path, headers: { Authorization: `Bearer ${DEFAULT_KEY}` } }, (res) => {
      let text = ''
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')))
      res.on('end', () => {
        const body = text === '' ? null : (JSON.parse(text) as Record<string, unknown>)
        if (body) delete body.request_id
        resolve({ status: res.statusCode!, allow: res.headers.allow, body })
      })
    })
    req.on('error', reject)
    req.end()
  })
}

describe('the listener in front of express', () => {
  const cases: Array<[string, (wallet: string) => string]> = [
    ['GET', (w) => `/v1/wallets/${w}`],
    ['GET', (w) => `/V1/Wallets/${w}`],
    ['GET', (w) => `/v1/wallets/${w}#fragment`],
    ['GET', (w) => `/v1/wallets/${w}?unknown=1`],
    ['GET', (w) => `/v1/wallets/${w}/balance`],
    ['GET', () => '/v1/wallets?limit=2&offset=1'],
    ['GET', () => '/v1/wallets?limit=2&limit=3'],
    ['GET', () => '/v1/wallets?limit=2#offset=1'],
    ['GET', () => '/v1/wallets?limit=abc'],
    ['GET', () => '/v1/wallets/wal_%ZZ'],
    ['GET', () => '/v1/wallets/wal%5F%41'],
    ['DELETE', () => '/v1/wallets/wal_%ZZ'],
    ['DELETE', (w) => `/v1/wallets/${w}/balance`],
    ['HEAD', (w) => `/v1/wallets/${w}`],
    ['OPTIONS', () => '/v1/wallets'],
    ['GET', () => '/v1/nothing-here'],
    ['GET', () => '/_sandbox/health'],
  ]

  it.each(cases)('%s %s: the same answer as express alone', async (method, path) => {
    const target = path(walletId)
    const [fromListener, fromExpress] = await Promise.all([send(sb.url, method, target), send(expressUrl, method, target)])
    expect(fromListener).toEqual(fromExpress)
  })

  it('answers the routes themselves through the listener (a changed answer would show here, not only above)', async () => {
    const answer = await send(sb.url, 'GET', `/v1/wallets/${walletId}#x`)
    expect(answer.status).toBe(200)
    expect((answer.body as { data: { id: string } }).data.id).toBe(walletId)
  })
})
