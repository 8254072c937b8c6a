import { Agent, createServer, request as httpRequest, type Server } from 'node:http'
import { createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net'
import { urlToHttpOptions } from 'node:url'
import { afterEach, describe, expect, it, vi } from 'vitest'
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

// The transport writes its own HTTP/1.1: the bytes must be those node's request wrote from a headers object.
describe('webhook transport, on the wire', () => {
  const sockets: Socket[] = []
  const servers: NetServer[] = []
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy()
    await Promise.all(servers.splice(0).map((s) => new Promise<void>((done) => s.close(() => done()))))
  })

  /** A raw receiver: records what arrives on each connection and answers each request with `answer`. */
  async function rawReceiver(answer: (request: number) => string | undefined) {
    const received: string[] = []
    let connections = 0
    let requests = 0
    const server = createNetServer((socket) => {
      connections++
      sockets.push(socket)
      socket.on('data', (chunk: Buffer) => {
        received.push(chunk.toString('latin1'))
        const text = answer(requests++)
        if (text !== undefined) socket.write(text)
      })
    })
    servers.push(server)
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    return { port: (server.address() as AddressInfo).port, received, connections: () => connections }
  }

  const HEADERS = { 'content-type': 'application/json', 'user-agent': 'wallet-sandbox/test', 'webhook-id': 'evt_1', 'webhook-timestamp': '1700000000', 'webhook-signature': 'v1,abc=' }
  const BODY = '{"a":"ü"}'

  /** What node's request (a kept-alive agent, the headers as an object, as the transport sent them before) writes for this URL. */
  async function nodeBytes(url: string): Promise<string> {
    const receiver = await rawReceiver(() => 'HTTP/1.1 204 No Content\r\n\r\n')
    const target = url.replace('PORT', String(receiver.port))
    const agent = new Agent({ keepAlive: true })
    await new Promise<void>((done) => {
      const req = httpRequest({ ...urlToHttpOptions(new URL(target)), method: 'POST', headers: { ...HEADERS, 'content-length': String(Buffer.byteLength(BODY)) }, agent }, (res) => res.resume().on('end', done))
      req.end(BODY)
    })
    agent.destroy()
    return receiver.received.join('').replaceAll(String(receiver.port), 'PORT')
  }

  it('writes the very bytes node’s request wrote: path and query, Host with its port, Basic credentials, keep-alive', async () => {
    for (const url of ['http://127.0.0.1:PORT/hooks/a?x=1&y=%20', 'http://user:p%40ss@127.0.0.1:PORT/', 'http://localhost:PORT/h']) {
      const expected = await nodeBytes(url)
      const receiver = await rawReceiver(() => 'HTTP/1.1 204 No Content\r\n\r\n')
      const transport = createWebhookTransport()
      const outcome = await transport.post({ url: url.replace('PORT', String(receiver.port)), headers: HEADERS, body: BODY, timeoutMs: 5000 })
      transport.close()
      expect(outcome).toMatchObject({ status: 204, error: null, excerpt: '' })
      expect(receiver.received.join('').replaceAll(String(receiver.port), 'PORT'), url).toBe(expected)
      expect(expected).toContain('Host: ')
    }
  })

  it('sends one delivery after another on one kept-alive connection, and opens a new one after Connection: close', async () => {
    const kept = await rawReceiver(() => 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok')
    const transport = createWebhookTransport()
    for (let i = 0; i < 3; i++) expect(await transport.post({ url: `http://127.0.0.1:${kept.port}/h`, headers: HEADERS, body: BODY, timeoutMs: 5000 })).toMatchObject({ status: 200, excerpt: 'ok' })
    expect(kept.connections()).toBe(1)
    const closing = await rawReceiver(() => 'HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
    for (let i = 0; i < 2; i++) expect(await transport.post({ url: `http://127.0.0.1:${closing.port}/h`, headers: HEADERS, body: BODY, timeoutMs: 5000 })).toMatchObject({ status: 200 })
    expect(closing.connections()).toBe(2)
    transport.close()
  })

  it('reports a chunked error answer’s start, and a connection closed before any answer', async () => {
    const chunked = await rawReceiver(() => `HTTP/1.1 503 Service Unavailable\r\nTransfer-Encoding: chunked\r\n\r\n258\r\n${'é'.repeat(300)}\r\n0\r\n\r\n`)
    const transport = createWebhookTransport()
    const outcome = await transport.post({ url: `http://127.0.0.1:${chunked.port}/h`, headers: HEADERS, body: BODY, timeoutMs: 5000 })
    expect(outcome).toMatchObject({ status: 503, error: 'the receiver answered 503; only 2xx counts as delivered', excerpt: 'é'.repeat(300) })
    const hangUp = await rawReceiver(() => undefined)
    const cut = transport.post({ url: `http://127.0.0.1:${hangUp.port}/h`, headers: HEADERS, body: BODY, timeoutMs: 5000 })
    await vi.waitFor(() => expect(sockets.length).toBeGreaterThan(1))
    sockets.at(-1)!.end()
    expect(await cut).toMatchObject({ status: null, error: 'the receiver closed the connection before answering (ECONNRESET)' })
    transport.close()
  })

  it('sends a delivery once more on a new connection when the kept-alive one it went out on closes unanswered, and only once', async () => {
    // A receiver that closes a kept-alive connection as the next request arrives on it (its keep-alive timeout ran out then).
    async function closingAfterFirst(answerOnNewConnections: boolean) {
      let connections = 0
      const server = createNetServer((socket) => {
        const first = connections++ === 0
        sockets.push(socket)
        let requests = 0
        socket.on('data', () => {
          if ((first && requests++ === 0) || (!first && answerOnNewConnections)) socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok')
          else socket.destroy()
        })
      })
      servers.push(server)
      await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
      return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/h`, connections: () => connections }
    }
    const transport = createWebhookTransport()
    const stale = await closingAfterFirst(true)
    expect(await transport.post({ url: stale.url, headers: HEADERS, body: BODY, timeoutMs: 5000 })).toMatchObject({ status: 200 })
    expect(await transport.post({ url: stale.url, headers: HEADERS, body: BODY, timeoutMs: 5000 })).toMatchObject({ status: 200, error: null, excerpt: 'ok' })
    expect(stale.connections()).toBe(2)
    const hostile = await closingAfterFirst(false)
    expect(await transport.post({ url: hostile.url, headers: HEADERS, body: BODY, timeoutMs: 5000 })).toMatchObject({ status: 200 })
    expect(await transport.post({ url: hostile.url, headers: HEADERS, body: BODY, timeoutMs: 5000 })).toMatchObject({ status: null, error: 'the receiver closed the connection before answering (ECONNRESET)' })
    expect(hostile.connections()).toBe(2)
    transport.close()
  })

  it('times out each attempt at its own deadline, one timer serving those in flight', async () => {
    const hanging = await rawReceiver(() => undefined)
    const transport = createWebhookTransport()
    const url = `http://127.0.0.1:${hanging.port}/h`
    const [slow, quick] = await Promise.all([transport.post({ url, headers: HEADERS, body: BODY, timeoutMs: 400 }), transport.post({ url, headers: HEADERS, body: BODY, timeoutMs: 100 })])
    transport.close()
    expect(quick).toMatchObject({ status: null, error: 'timed out after 100 ms without a complete answer' })
    expect(slow).toMatchObject({ status: null, error: 'timed out after 400 ms without a complete answer' })
    expect(quick.durationMs).toBeGreaterThanOrEqual(99)
    expect(quick.durationMs).toBeLessThan(400)
    expect(slow.durationMs).toBeGreaterThanOrEqual(399)
  })
})
