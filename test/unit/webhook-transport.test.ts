import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createWebhookTransport } from '../../src/events/webhook-http.js'

// The transport loads node:https only for the first https receiver; both kinds must still work.
describe('webhook transport', () => {
  let server: Server | undefined
  afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())))

  const listen = async (answer: (body: string) => [number, string]) => {
    server = createServer((req, res) => {
      let body = ''
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')))
      req.on('end', () => {
        const [status, text] = answer(body)
        res.writeHead(status).end(text)
      })
    })
    await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done))
    return (server.address() as AddressInfo).port
  }

  it('posts to an http receiver and reports its answer', async () => {
    const port = await listen((body) => [202, `got ${body}`])
    const transport = createWebhookTransport()
    const outcome = await transport.post({ url: `http://127.0.0.1:${port}/hook`, headers: { 'content-type': 'application/json' }, body: '{"a":1}', timeoutMs: 5000 })
    transport.close()
    expect(outcome).toMatchObject({ status: 202, error: null, excerpt: 'got {"a":1}' })
  })

  it('speaks TLS to an https receiver: a plain-http listener fails the handshake, with the reason', async () => {
    const port = await listen(() => [200, 'plain'])
    const transport = createWebhookTransport()
    const outcome = await transport.post({ url: `https://127.0.0.1:${port}/hook`, headers: {}, body: '{}', timeoutMs: 5000 })
    transport.close()
    expect(outcome.status).toBeNull()
    // OpenSSL's words for a TLS client that got an HTTP answer.
    expect(outcome.error).toMatch(/SSL|TLS|wrong version|EPROTO/i)
  })
})
