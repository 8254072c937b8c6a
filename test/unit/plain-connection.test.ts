import { createServer, type Server, type ServerResponse } from 'node:http'
import { connect, createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { LocatedRoute } from '../../src/http/app.js'
import { servePlainConnections, type PlainConnections } from '../../src/http/plain-connection.js'
import { PlainRequest, PlainResponse } from '../../src/http/plain-messages.js'

/**
 * The sandbox's own HTTP/1.1 layer's connection life, on a node:net server with a bare node:http
 * server behind it: which requests it takes and which go to node for good, keep-alive's idle
 * timeout, the first request's deadline (the layer's, and node's for a connection handed over),
 * close(), a client gone mid-answer. test/http/plain-layer.test.ts
 * compares its answers with node's byte for byte on a whole sandbox.
 */

interface Seen {
  layer: boolean
  method: string
  url: string
}

let server: NetServer | undefined
let plain: PlainConnections | undefined
const sockets: Socket[] = []
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy()
  if (server) {
    const closing = new Promise((resolve) => server!.close(resolve))
    plain!.close()
    await closing
  }
  server = undefined
})

const ANSWER = '{"ok":true}'

interface Started {
  port: number
  seen: Seen[]
  server: NetServer
  plain: PlainConnections
  /** node's server, once the layer has made it. */
  node: () => Server | undefined
}

/** A node:net server with the layer and a bare node:http server behind it: `/plain…` paths are the layer's routes (answered at once, or held with `/plain/held`). */
async function start(options: { hold?: (res: PlainResponse | ServerResponse) => void; headersTimeout?: number; keepAliveTimeout?: number } = {}): Promise<Started> {
  const seen: Seen[] = []
  const answer = (req: { method?: string; url?: string }, res: PlainResponse | ServerResponse, layer: boolean) => {
    seen.push({ layer, method: req.method!, url: req.url! })
    if (req.url === '/plain/held') return options.hold?.(res)
    res.writeHead(200, ['Content-Type', 'application/json', 'Content-Length', String(ANSWER.length)])
    ;(res as ServerResponse).end(ANSWER)
  }
  let node: Server | undefined
  const headersTimeout = options.headersTimeout ?? 60_000
  server = createNetServer({ allowHalfOpen: true, noDelay: true })
  plain = servePlainConnections(
    server,
    {
      nodeServer: () => (node = createServer({ headersTimeout, requestTimeout: headersTimeout, connectionsCheckingInterval: Math.min(headersTimeout, 1000) }, (req, res) => answer(req, res, false))),
      headersTimeout,
      keepAliveTimeout: options.keepAliveTimeout,
    },
    {
      locate: (method, url) => (url.startsWith('/plain') && method !== 'HEAD' ? new LocatedRoute({ handler: () => {}, params: {} }, url, undefined) : undefined),
      serve: (req, res) => {
        expect(req).toBeInstanceOf(PlainRequest)
        answer(req, res, true)
      },
    },
    () => {},
  )
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  return { port: (server.address() as AddressInfo).port, seen, server, plain, node: () => node }
}

function open(port: number): Promise<Socket> {
  const socket = connect(port, '127.0.0.1')
  sockets.push(socket)
  socket.on('error', () => {})
  return new Promise((resolve) => socket.once('connect', () => resolve(socket)))
}

/** Reads from `socket` until `count` more answers have come whole (each has a body of ANSWER's length, or none). */
function answers(socket: Socket, count: number): Promise<string> {
  let text = ''
  return new Promise((resolve) => {
    const onData = (chunk: Buffer) => {
      text += chunk.toString('latin1')
      if ((text.match(/HTTP\/1\.1 /g) ?? []).length >= count && /\r\n\r\n(\{"ok":true\})?$/.test(text)) {
        socket.off('data', onData)
        resolve(text)
      }
    }
    socket.on('data', onData)
  })
}

const closed = (socket: Socket) => new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once('close', () => resolve())))
const request = (method: string, url: string, extra = '') => `${method} ${url} HTTP/1.1\r\nHost: x\r\n${extra}\r\n`

describe('the plain layer on a connection', () => {
  it('takes plain requests itself, and gives the connection to node for good from the first it does not take', async () => {
    const { port, seen } = await start()
    const socket = await open(port)
    socket.write(request('GET', '/plain/1') + request('POST', '/plain/2', 'Content-Length: 2\r\n') + '{}')
    let text = await answers(socket, 2)
    socket.write(request('HEAD', '/plain/3'))
    text += await answers(socket, 1)
    socket.write(request('GET', '/plain/4'))
    text += await answers(socket, 1)
    expect(seen).toEqual([
      { layer: true, method: 'GET', url: '/plain/1' },
      { layer: true, method: 'POST', url: '/plain/2' },
      { layer: false, method: 'HEAD', url: '/plain/3' },
      { layer: false, method: 'GET', url: '/plain/4' },
    ])
    expect(text.match(/Connection: keep-alive\r\nKeep-Alive: timeout=5\r\n/g)?.length).toBe(4)
  })

  it('hands a request that came in pieces to node with the bytes it had read', async () => {
    const { port, seen } = await start()
    const socket = await open(port)
    socket.write('GET /plain/1 HT')
    await new Promise((resolve) => setTimeout(resolve, 30))
    socket.write('TP/1.1\r\nHost: x\r\n\r\n')
    await answers(socket, 1)
    expect(seen).toEqual([{ layer: false, method: 'GET', url: '/plain/1' }])
  })

  it('waits for its own answers before it hands over: node answers after them, in order', async () => {
    let held: PlainResponse | ServerResponse | undefined
    const { port, seen } = await start({ hold: (res) => (held = res) })
    const socket = await open(port)
    const text = answers(socket, 2)
    socket.write(request('GET', '/plain/held') + request('GET', '/elsewhere'))
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(seen).toEqual([{ layer: true, method: 'GET', url: '/plain/held' }])
    held!.writeHead(201, ['Content-Length', '0'])
    held!.end()
    expect((await text).match(/HTTP\/1\.1 \d+/g)).toEqual(['HTTP/1.1 201', 'HTTP/1.1 200'])
    expect(seen[1]).toEqual({ layer: false, method: 'GET', url: '/elsewhere' })
  })

  it('closes an idle connection after the keep-alive timeout, plus the second node adds', async () => {
    const { port } = await start({ keepAliveTimeout: 100 })
    const socket = await open(port)
    socket.write(request('GET', '/plain/1'))
    const text = await answers(socket, 1)
    expect(text).toContain('\r\nConnection: keep-alive\r\n')
    expect(text).toContain('\r\nKeep-Alive: timeout=0\r\n')
    const since = Date.now()
    await closed(socket)
    expect(Date.now() - since).toBeGreaterThanOrEqual(1000)
  })

  it('answers 408 through the clientError listener when nothing comes within headersTimeout', async () => {
    const { port, server } = await start({ headersTimeout: 200 })
    const errors: string[] = []
    server.on('clientError', (error: Error & { code?: string }, socket: Socket) => {
      errors.push(error.code ?? '')
      socket.end('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n')
    })
    const socket = await open(port)
    let text = ''
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')))
    await closed(socket)
    expect(errors).toEqual(['ERR_HTTP_REQUEST_TIMEOUT'])
    expect(text).toMatch(/^HTTP\/1\.1 408 /)
  })

  it('closes idle and busy connections on close(), with a held answer closed', async () => {
    let held: PlainResponse | ServerResponse | undefined
    const { port, server, plain } = await start({ hold: (res) => (held = res) })
    const idle = await open(port)
    idle.write(request('GET', '/plain/1'))
    await answers(idle, 1)
    const busy = await open(port)
    busy.write(request('GET', '/plain/held'))
    await new Promise((resolve) => setTimeout(resolve, 30))
    const heldClosed = new Promise((resolve) => (held as PlainResponse).once('close', resolve))
    const closing = new Promise((resolve) => server.close(resolve))
    plain.close()
    await Promise.all([closed(idle), closed(busy), heldClosed, closing])
    expect((held as PlainResponse).writableFinished).toBe(false)
  })

  it('closes a held answer when the client goes, and hands a reset to the clientError listener', async () => {
    let held: PlainResponse | ServerResponse | undefined
    const { port, server } = await start({ hold: (res) => (held = res) })
    const socket = await open(port)
    socket.write(request('GET', '/plain/held'))
    await new Promise((resolve) => setTimeout(resolve, 30))
    const heldClosed = new Promise((resolve) => (held as PlainResponse).once('close', resolve))
    const errors: string[] = []
    server.on('clientError', (error: Error & { code?: string }, s: Socket) => {
      errors.push(error.code ?? '')
      s.destroy()
    })
    socket.resetAndDestroy()
    await heldClosed
    expect(held).toBeInstanceOf(PlainResponse)
    expect(errors).toEqual(['ECONNRESET'])
  })

  it('stops reading a client that sends requests and reads none of their answers, as node does', async () => {
    const big = 'x'.repeat(256 * 1024)
    const { port, seen } = await start({ hold: (res) => (res as ServerResponse).writeHead(200, ['Content-Length', String(big.length)]).end(big) })
    const socket = await open(port)
    socket.pause()
    // Ten requests a write, each write on its own: node reads a whole chunk before it stops.
    for (let i = 0; i < 200; i++) {
      socket.write(request('GET', '/plain/held').repeat(10))
      await new Promise((resolve) => setTimeout(resolve, 1))
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
    // Each answer is 256 KB: the socket's buffers take a few; the rest of the requests are not read, nor run.
    expect(seen.length).toBeGreaterThan(0)
    expect(seen.length).toBeLessThan(100)
    socket.resume()
    await new Promise<void>((resolve) => {
      const check = () => (seen.length === 2000 ? resolve() : setTimeout(check, 20))
      check()
    })
  })

  it("makes node's server with the first connection it hands over, and node's deadlines and close() hold there", async () => {
    const { port, server, plain, node } = await start({ headersTimeout: 300 })
    const plainOnly = await open(port)
    plainOnly.write(request('GET', '/plain/1'))
    await answers(plainOnly, 1)
    expect(node()).toBeUndefined()
    const errors: string[] = []
    // What the sandbox's clientError answer does (server-guards.ts), on node's server once it is made.
    const slow = await open(port)
    slow.write('GET /plain/1 HTTP/1.1\r\nHost: x\r\n')
    let slowText = ''
    slow.on('data', (chunk: Buffer) => (slowText += chunk.toString('latin1')))
    await new Promise((resolve) => setTimeout(resolve, 30))
    node()!.on('clientError', (error: Error & { code?: string }, socket: Socket) => {
      errors.push(error.code ?? '')
      socket.end('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n')
    })
    await closed(slow)
    expect(errors).toEqual(['ERR_HTTP_REQUEST_TIMEOUT'])
    expect(slowText).toMatch(/^HTTP\/1\.1 408 /)
    // A kept-alive connection node answered is closed by close(), as the layer's are.
    const handed = await open(port)
    handed.write(request('HEAD', '/plain/2'))
    await answers(handed, 1)
    const closing = new Promise((resolve) => server.close(resolve))
    plain.close()
    await Promise.all([closed(handed), closed(plainOnly), closing])
  })
})
