import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.js'
import { createSandbox, type Sandbox } from '../../src/sandbox.js'
import { silentLogger } from '../../src/logger.js'
import { MAX_PIPELINED } from '../../src/http/pipelining.js'
import { DEFAULT_KEY } from '../helpers/start-test-sandbox.js'
import { PlainRequest } from '../../src/http/plain-messages.js'

/**
 * The sandbox's own HTTP/1.1 layer (src/http/plain-connection.ts) against node:http alone: the same
 * raw requests, sent in the same order to a sandbox with the layer and to one without it (the same
 * seed, so the same ids), get the same bytes back (Date's value masked), and the connection ends the
 * same way. The corpus holds what the layer answers itself (the common routes' reads and POSTs,
 * their errors, idempotent replays, `Connection: close`, pipelining and its limit, faults that drop
 * the connection) and everything it must hand to node (HEAD, OPTIONS, express's 404 and 405,
 * HTTP/1.0, chunked bodies, `Expect`, a request in pieces, malformed and odd heads, an upgrade).
 */

interface Step {
  /** Bytes to send; a number: milliseconds to wait first. */
  send?: string
  wait?: number
}

interface Outcome {
  text: string
  closed: boolean
}

let layered: Sandbox
let plain: Sandbox
let ports: { layered: number; plain: number }
/** For each request that reached the routes, whether the layer read it (a PlainRequest) or node did. */
const byLayer = { layered: [] as boolean[], plain: [] as boolean[] }

async function start(plainConnections: boolean): Promise<[Sandbox, number]> {
  const config = loadConfig({ flags: { port: 0, host: '127.0.0.1', clock: 'manual', settle: 'manual', rateLimit: 0, quiet: true, seed: 'plain-layer' } as never })
  const seen = plainConnections ? byLayer.layered : byLayer.plain
  const sandbox = await createSandbox(config, {
    logger: silentLogger,
    plainConnections,
    beforeRoutes: [
      (req, _res, next) => {
        seen.push(req instanceof PlainRequest)
        next()
      },
    ],
  })
  const { port } = await sandbox.listen()
  return [sandbox, port]
}

beforeAll(async () => {
  const [a, portA] = await start(true)
  const [b, portB] = await start(false)
  layered = a
  plain = b
  // Express (HEAD, OPTIONS, 404, 405) is built with the first request that needs it: built here, so
  // that no answer of the corpus waits for it longer than the quiet time that ends an exchange.
  await Promise.all([a.expressApp(), b.expressApp()])
  ports = { layered: portA, plain: portB }
})

afterAll(async () => {
  await layered?.close()
  await plain?.close()
})

/**
 * Sends the steps on a new connection; what comes back until the server closes it, or nothing more
 * comes for `quietMs` after the first byte. The quiet time starts with the first byte, not with the
 * last step sent: every exchange of the corpus gets an answer or a close, and on a busy machine the
 * first answer can take longer than the quiet time (a cap ends an exchange that gets neither).
 */
function exchange(port: number, steps: Step[], quietMs = 150): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    let closed = false
    let timer: NodeJS.Timeout | undefined
    const finish = () => {
      clearTimeout(timer)
      clearTimeout(cap)
      socket.destroy()
      resolve({ text: Buffer.concat(chunks).toString('latin1').replace(/\r\nDate: [^\r]*\r\n/g, '\r\nDate: <masked>\r\n'), closed })
    }
    const quiet = () => {
      clearTimeout(timer)
      timer = setTimeout(finish, quietMs)
    }
    const cap = setTimeout(finish, 10_000)
    socket.on('error', () => {})
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk)
      quiet()
    })
    socket.on('close', () => {
      closed = true
      clearTimeout(timer)
      finish()
    })
    socket.once('connect', async () => {
      for (const step of steps) {
        if (step.wait) await new Promise((r) => setTimeout(r, step.wait))
        if (step.send !== undefined && !socket.destroyed) socket.write(step.send, 'latin1')
      }
      // Bytes that came while the steps were sent (a wait between them): their quiet time starts now.
      if (chunks.length > 0 && !closed) quiet()
    })
  })
}

const AUTH = `Authorization: Bearer ${DEFAULT_KEY}\r\n`
const get = (path: string, extra = '') => `GET ${path} HTTP/1.1\r\nHost: sandbox.test\r\n${AUTH}${extra}\r\n`
/** The steps are sent as latin1 (one byte a character, so a head can hold any byte): a body goes as its UTF-8 bytes, spelt so. */
const post = (path: string, body: string, extra = '') =>
  `POST ${path} HTTP/1.1\r\nHost: sandbox.test\r\n${AUTH}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${Buffer.from(body, 'utf8').toString('latin1')}`

/** Sends the same steps to both sandboxes; both outcomes. */
async function both(steps: Step[] | string, quietMs?: number): Promise<{ layered: Outcome; plain: Outcome }> {
  const list = typeof steps === 'string' ? [{ send: steps }] : steps
  const a = await exchange(ports.layered, list, quietMs)
  const b = await exchange(ports.plain, list, quietMs)
  return { layered: a, plain: b }
}

async function same(steps: Step[] | string, quietMs?: number): Promise<Outcome> {
  const outcome = await both(steps, quietMs)
  // Each exchange of the corpus gets an answer or a close: one that got neither would compare nothing.
  expect(outcome.plain.text !== '' || outcome.plain.closed).toBe(true)
  expect(outcome.layered).toEqual(outcome.plain)
  return outcome.layered
}

let wallet = ''
const payment = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ amount: '1.25', currency: 'USDC', source_wallet: wallet, recipient: '0x000000000000000000000000000000000000dEaD', description: 'plain layer', ...extra })

describe('the plain layer answers what node:http answers, byte for byte', () => {
  it('reads: a list, a balance, a control read', async () => {
    const list = await same(get('/v1/wallets?type=institutional&network=polygon&currency=USDC'))
    expect(list.text).toMatch(/^HTTP\/1\.1 200 OK\r\n/)
    expect(list.text).toContain('\r\nConnection: keep-alive\r\nKeep-Alive: timeout=5\r\n')
    wallet = /"id":"(wal_[^"]+)"/.exec(list.text)![1]!
    await same(get(`/v1/wallets/${wallet}/balance`))
    expect(byLayer.layered.at(-1)).toBe(true)
    expect(byLayer.plain.at(-1)).toBe(false)
    await same(get('/v1/payments?limit=2'))
    await same(get('/_sandbox/faults'))
    // An answer sent as bytes (the document, encoded once), its head a write of its own. Its first
    // request builds the document: a quiet time long enough for that.
    expect((await same(get('/v1/openapi.json'), 3000)).text.length).toBeGreaterThan(100_000)
  })

  it('POSTs, their errors, and idempotent replays', async () => {
    expect((await same(post('/v1/payments', payment()))).text).toMatch(/^HTTP\/1\.1 201 Created\r\n/)
    expect((await same(post('/v1/payments', '{"amount": '))).text).toMatch(/^HTTP\/1\.1 400 /)
    expect((await same(post('/v1/payments', payment({ amount: undefined })))).text).toMatch(/^HTTP\/1\.1 400 /)
    expect((await same(post('/v1/payments', payment({ amount: '-5' })))).text).toMatch(/^HTTP\/1\.1 4\d\d /)
    expect((await same(post('/v1/payments', payment(), '').replace(AUTH, ''))).text).toMatch(/^HTTP\/1\.1 401 /)
    expect((await same(get('/v1/wallets/wal_000000000000000000000000/balance'))).text).toMatch(/^HTTP\/1\.1 404 /)
    const keyed = post('/v1/payments', payment({ description: 'keyed' }), 'Idempotency-Key: plain-layer-1\r\n')
    await same(keyed)
    expect((await same(keyed)).text).toContain('\r\nIdempotent-Replayed: true\r\n')
    expect((await same(post('/v1/payments', payment({ description: 'other' }), 'Idempotency-Key: plain-layer-1\r\n'))).text).toMatch(/^HTTP\/1\.1 422 /)
    expect((await same(`DELETE /v1/wallets/${wallet} HTTP/1.1\r\nHost: x\r\n${AUTH}\r\n`)).text).toMatch(/^HTTP\/1\.1 409 /)
    await same(`PUT /v1/wallets/${wallet} HTTP/1.1\r\nHost: x\r\n${AUTH}Content-Type: application/json\r\nContent-Length: 19\r\n\r\n{"name":"Renamed!"}`)
    // A body in UTF-8, and a form body without --lenient (415).
    await same(post('/v1/payments', payment({ description: 'café ☕' })))
    await same(post('/v1/payments', 'amount=1', '').replace('application/json', 'application/x-www-form-urlencoded'))
  })

  it('Connection: close, and keep-alive asked by name', async () => {
    const closing = await same(get(`/v1/wallets/${wallet}/balance`, 'Connection: close\r\n'))
    expect(closing.closed).toBe(true)
    expect(closing.text).toContain('\r\nConnection: close\r\n')
    expect((await same(post('/v1/payments', payment(), 'Connection: close\r\n'))).closed).toBe(true)
    expect((await same(get(`/v1/wallets/${wallet}/balance`, 'Connection: keep-alive\r\n'))).closed).toBe(false)
    // Bytes after a request that asked to close: after its answer, nothing more; before it (a
    // latency fault holds the answer), node's 400 alone.
    const closeThenMore = [{ send: get('/v1/pairs', 'Connection: close\r\n') }, { wait: 30, send: get('/v1/pairs') }]
    expect((await same(closeThenMore)).text.match(/HTTP\/1\.1 \d+/g)).toEqual(['HTTP/1.1 200'])
    await same(post('/_sandbox/faults', JSON.stringify({ match: { path: '/v1/pairs' }, fault: 'latency', latency_ms: [200, 200], times: 1 })).replace(AUTH, ''))
    expect((await same(closeThenMore, 400)).text).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n[^]*"malformed_request"/)
  })

  it('pipelined requests, answered in order, and the pipelining limit', async () => {
    await same(get(`/v1/wallets/${wallet}/balance`) + post('/v1/payments', payment()) + get('/v1/payments?limit=1'))
    const deep = await same(get(`/v1/wallets/${wallet}/balance`).repeat(MAX_PIPELINED + 4))
    expect(deep.closed).toBe(true)
    expect(deep.text.match(/HTTP\/1\.1 200 OK/g)?.length).toBe(MAX_PIPELINED)
    // A request node must answer behind one the layer answers: the layer's first, then node's.
    await same(get(`/v1/wallets/${wallet}/balance`) + `HEAD /v1/wallets HTTP/1.1\r\nHost: x\r\n${AUTH}\r\n` + get('/v1/payments?limit=1'))
    await same([{ send: get(`/v1/wallets/${wallet}/balance`) }, { wait: 50, send: get('/nowhere') }, { wait: 50, send: get(`/v1/wallets/${wallet}/balance`) }])
  })

  it('faults that drop the connection, before and after the handler', async () => {
    for (const fault of ['drop', 'commit_then_drop']) {
      await same(post('/_sandbox/faults', JSON.stringify({ match: { method: 'POST', path: '/v1/payments' }, fault, times: 1 })).replace(AUTH, ''))
      const dropped = await same(get(`/v1/wallets/${wallet}/balance`) + post('/v1/payments', payment()))
      expect(dropped.closed).toBe(true)
    }
    await same(get('/v1/payments?limit=3'))
  })

  it('hands to node what it does not take: HEAD, OPTIONS, express, HTTP/1.0, chunked, Expect, pieces, odd heads', async () => {
    const cases: Array<Step[] | string> = [
      `HEAD /v1/wallets/${wallet}/balance HTTP/1.1\r\nHost: x\r\n${AUTH}\r\n`,
      `OPTIONS /v1/payments HTTP/1.1\r\nHost: x\r\n\r\n`,
      get('/nowhere'),
      get('/v1/nowhere'),
      `DELETE /v1/payments HTTP/1.1\r\nHost: x\r\n${AUTH}\r\n`,
      get('/v1/wallets/%zz/balance'),
      get(`/v1/wallets/${wallet}/balance`).replace('HTTP/1.1', 'HTTP/1.0'),
      get(`/v1/wallets/${wallet}/balance`).replace('GET', 'get'),
      get(`/v1/wallets/${wallet}/balance`).replace('Host: sandbox.test\r\n', ''),
      `POST /v1/payments HTTP/1.1\r\nHost: x\r\n${AUTH}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${payment().length.toString(16)}\r\n${payment()}\r\n0\r\n\r\n`,
      post('/v1/payments', payment(), 'Expect: 100-continue\r\n'),
      post('/v1/payments', payment(), 'Transfer-Encoding: chunked\r\n'),
      post('/v1/payments', payment()).replace(/Content-Length: (\d+)/, 'Content-Length: $1\r\nContent-Length: $1'),
      post('/v1/payments', payment()).replace(/Content-Length: (\d+)/, 'Content-Length: +$1'),
      get(`/v1/wallets/${wallet}/balance`, 'X-Odd : value\r\n'),
      get(`/v1/wallets/${wallet}/balance`, 'X-Folded: one\r\n two\r\n'),
      get(`/v1/wallets/${wallet}/balance`, 'X-Control: a\x01b\r\n'),
      get(`/v1/wallets/${wallet}/balance`, 'X-Latin: caf\xe9\r\n'),
      get(`/v1/wallets/${wallet}/balance`, 'X-Trailing: value  \r\n'),
      get(`/v1/wallets/${wallet}/balance`, 'X-Empty:\r\n'),
      get(`/v1/wallets/${wallet}/balance`, 'Accept: a\r\nAccept: b\r\n'),
      get(`/v1/wallets/${wallet}/balance`, 'Connection: keep-alive, Upgrade\r\nUpgrade: websocket\r\n'),
      get(`/v1/wallets/${wallet}/balance`, `X-Big: ${'b'.repeat(20_000)}\r\n`),
      get(`/v1/wallets/${wallet}/balance#fragment`),
      get(`/v1/wallets/${wallet}/balance?x="y"`),
      'GARBAGE\r\n\r\n',
      [{ send: get(`/v1/wallets/${wallet}/balance`).slice(0, 20) }, { wait: 50, send: get(`/v1/wallets/${wallet}/balance`).slice(20) }],
      [{ send: post('/v1/payments', payment()).slice(0, -10) }, { wait: 50, send: post('/v1/payments', payment()).slice(-10) }],
      [{ send: get(`/v1/wallets/${wallet}/balance`) + get(`/v1/wallets/${wallet}/balance`).slice(0, 30) }, { wait: 50, send: get(`/v1/wallets/${wallet}/balance`).slice(30) }],
      `GET /v1/stream HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nAuthorization: Bearer sk_test_nobody_at_all\r\n\r\n`,
    ]
    for (const steps of cases) await same(steps)
  })

  it('read every request of the corpus it could itself, and node every one on the sandbox without it', () => {
    expect(byLayer.plain.every((layer) => !layer)).toBe(true)
    expect(byLayer.layered.filter((layer) => layer).length).toBeGreaterThan(40)
    expect(byLayer.layered.length).toBe(byLayer.plain.length)
  })
})
