import { connect, type Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { MAX_PIPELINED } from '../../src/http/pipelining.js'
import { DEFAULT_KEY, institutionalWallet, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'
import { startWebhookReceiver } from '../helpers/webhook-receiver.js'

/**
 * Slow and hostile clients (issue 16): slowloris headers and bodies, clients that never read, deep
 * pipelining, bodies just over the limit, CR/LF in header values. Each gets its answer in the error
 * shape (or its connection closed), and the server goes on answering everyone else. The deadlines
 * are shortened here; what is waited for is the server's own action (an answer, a closed
 * connection), never a fixed time.
 */

const TIMEOUTS = { headersTimeout: 300, requestTimeout: 600, sendTimeout: 300 }
let sb: TestSandbox | undefined
const sockets: Socket[] = []
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy()
  await sb?.close()
  sb = undefined
})

function open(): Promise<Socket> {
  const { port } = new URL(sb!.url)
  const socket = connect(Number(port), '127.0.0.1')
  sockets.push(socket)
  socket.on('error', () => {})
  return new Promise((resolve) => socket.once('connect', () => resolve(socket)))
}

/** Everything the server sends until it closes the connection. */
function untilClosed(socket: Socket): Promise<string> {
  const chunks: Buffer[] = []
  socket.on('data', (chunk: Buffer) => chunks.push(chunk))
  return new Promise((resolve) => socket.once('close', () => resolve(Buffer.concat(chunks).toString('utf8'))))
}

function parseAnswer(raw: string) {
  const [head = '', body = ''] = raw.split(/\r\n\r\n(.*)/s)
  return { status: Number(head.split(' ')[1]), head, body: body ? JSON.parse(body) : undefined }
}

const otherClientIsServed = async () => {
  const res = await sb!.api.get('/v1/wallets?limit=1').set(sb!.auth())
  expect(res.status).toBe(200)
}

/** Wallets with about 25 KB of metadata each: a page of 40 of them is a 1 MB answer. */
async function createBigWallets(count: number) {
  const metadata = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'm'.repeat(500)]))
  await Promise.all(Array.from({ length: count }, (_, i) => sb!.api.post('/v1/wallets').set(sb!.auth()).send({ name: `big ${i}`, currency: 'USDC', network: 'polygon', metadata }).expect(201)))
}

/**
 * Never reading, a client only notices the server closing its connection when it writes: blank
 * lines, which HTTP allows between requests, until a write fails.
 */
function closedByServer(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    const poke = setInterval(() => socket.write('\r\n'), 100)
    socket.once('close', () => {
      clearInterval(poke)
      resolve()
    })
  })
}

const paymentsMade = async () => (await sb!.api.get('/v1/payments?limit=1').set(sb!.auth()).expect(200)).body.pagination.total

describe('slowloris', () => {
  it('headers that never end: 408 request_timeout in the error shape, the connection closed, others served meanwhile', async () => {
    sb = await startTestSandbox(TIMEOUTS)
    const slow = await open()
    const answer = untilClosed(slow)
    slow.write(`GET /v1/wallets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${DEFAULT_KEY}\r\nX-Slow: a`)
    await otherClientIsServed()
    const { status, head, body } = parseAnswer(await answer)
    expect(status).toBe(408)
    expect(head).toMatch(/\r\nconnection: close/i)
    expect(body.error).toMatchObject({ type: 'invalid_request_error', code: 'request_timeout' })
    expect(body.request_id).toMatch(/^req_/)
    await otherClientIsServed()
  })

  it('a connection that never sends a byte is closed as well', async () => {
    sb = await startTestSandbox(TIMEOUTS)
    const idle = await open()
    const answer = await untilClosed(idle)
    expect(answer === '' || parseAnswer(answer).status === 408).toBe(true)
  })

  it('a body that never ends: the connection is closed and nothing is created', async () => {
    sb = await startTestSandbox(TIMEOUTS)
    const wallet = await institutionalWallet(sb, 'solana', 'SOL')
    const slow = await open()
    const closed = untilClosed(slow)
    const body = JSON.stringify({ amount: '0.01', currency: 'SOL', source_wallet: wallet.id, recipient: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA' })
    slow.write(`POST /v1/payments HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${DEFAULT_KEY}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`)
    await otherClientIsServed()
    const raw = await closed
    if (raw !== '') expect(parseAnswer(raw).status).toBe(408)
    expect(await paymentsMade()).toBe(0)
  })
})

describe('clients that do not read', () => {
  it('pipelining deeper than the limit closes the connection after the first answers', async () => {
    sb = await startTestSandbox(TIMEOUTS)
    const greedy = await open()
    const raw = untilClosed(greedy)
    greedy.write(`GET /v1/wallets?limit=1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${DEFAULT_KEY}\r\n\r\n`.repeat(MAX_PIPELINED + 10))
    const answers = (await raw).match(/HTTP\/1\.1 200 OK/g) ?? []
    expect(answers.length).toBeGreaterThan(0)
    expect(answers.length).toBeLessThanOrEqual(MAX_PIPELINED)
    await otherClientIsServed()
  })

  it('answers left unread are dropped with the connection after --send-timeout, and others are served meanwhile', async () => {
    // Only the send deadline is short: no other deadline can close these connections within the test's time.
    sb = await startTestSandbox({ sendTimeout: 300, headersTimeout: 100_000, requestTimeout: 100_000 })
    // Answers of about 1 MB, more than the socket buffers take.
    await createBigWallets(40)
    const readers: Socket[] = []
    for (let i = 0; i < 3; i++) {
      const socket = await open()
      socket.pause()
      socket.write(`GET /v1/wallets?limit=100 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${DEFAULT_KEY}\r\n\r\n`.repeat(MAX_PIPELINED))
      readers.push(socket)
    }
    await otherClientIsServed()
    // Without --send-timeout the server would hold these connections, and their answers, for as long as the client liked.
    await Promise.all(readers.map(closedByServer))
    await otherClientIsServed()
  }, 60_000)

  it('a pipelined request runs only once the answers before it have gone out: behind answers never read, a POST is never run', async () => {
    sb = await startTestSandbox({ sendTimeout: 300, headersTimeout: 100_000, requestTimeout: 100_000 })
    await createBigWallets(60)
    const bigAnswers = `GET /v1/wallets?limit=100 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${DEFAULT_KEY}\r\n\r\n`.repeat(MAX_PIPELINED - 1)
    const post = (name: string) => {
      const body = JSON.stringify({ name, currency: 'USDC', network: 'polygon' })
      return `POST /v1/wallets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${DEFAULT_KEY}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`
    }
    const walletCount = async () => (await sb!.api.get('/v1/wallets?limit=1').set(sb!.auth()).expect(200)).body.pagination.total as number
    const before = await walletCount()

    // Seven answers of 1.5 MB, far more than the system's socket buffers take, then a POST.
    const stalled = await open()
    stalled.pause()
    stalled.write(bigAnswers + post('behind unread answers'))
    await otherClientIsServed()
    expect(await walletCount()).toBe(before)
    await closedByServer(stalled)
    expect(await walletCount()).toBe(before)

    // The same requests from a client that reads: every answer, in order, the POST's last.
    const reader = await open()
    const raw = untilClosed(reader)
    reader.write(bigAnswers + post('read in turn'))
    const statuses = [...(await raw).matchAll(/HTTP\/1\.1 (\d{3})/g)].map((match) => Number(match[1]))
    expect(statuses).toEqual([...Array.from({ length: MAX_PIPELINED - 1 }, () => 200), 201])
    expect(await walletCount()).toBe(before + 1)
  }, 60_000)
})

describe('bodies and headers', () => {
  it('a body one byte over the limit is 413 body_too_large, declared or chunked, and creates nothing; one at the limit is read', async () => {
    sb = await startTestSandbox({ bodyLimit: 1000 })
    const bodyOf = (size: number) => {
      const base = JSON.stringify({ name: 'w', currency: 'USDC', network: 'polygon', description: '' })
      return JSON.stringify({ name: 'w', currency: 'USDC', network: 'polygon', description: 'x'.repeat(size - base.length) })
    }
    const over = bodyOf(1001)
    expect(Buffer.byteLength(over)).toBe(1001)
    const declared = await sb.api.post('/v1/wallets').set(sb.auth()).set('Content-Type', 'application/json').send(over)
    expect(declared.status).toBe(413)
    expect(declared.body.error.code).toBe('body_too_large')

    const chunked = await open()
    const raw = untilClosed(chunked)
    chunked.write(`POST /v1/wallets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${DEFAULT_KEY}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`)
    chunked.write(`${(600).toString(16)}\r\n${over.slice(0, 600)}\r\n`)
    chunked.write(`${(401).toString(16)}\r\n${over.slice(600)}\r\n0\r\n\r\n`)
    const answer = parseAnswer(await raw)
    expect(answer.status).toBe(413)
    expect(answer.body.error.code).toBe('body_too_large')

    const atLimit = await sb.api.post('/v1/wallets').set(sb.auth()).set('Content-Type', 'application/json').send(bodyOf(1000))
    expect(atLimit.status).toBe(400) // read and validated: wallets take no description
    expect(atLimit.body.error.code).not.toBe('body_too_large')
    const wallets = (await sb.api.get('/v1/wallets?limit=100').set(sb.auth()).expect(200)).body.data as Array<{ name: string }>
    expect(wallets.filter((w) => w.name === 'w')).toEqual([])
  })

  it.each([
    ['Idempotency-Key', 'key\nX-Injected: yes'],
    ['Idempotency-Key', 'key\r\n folded onto a second line'],
    ['Authorization', `Bearer ${DEFAULT_KEY}\rX: y`],
    ['X-Anything', 'a\u0000b'],
  ])('a %s value with control characters is 400 malformed_request in the error shape, and creates nothing', async (name, value) => {
    sb = await startTestSandbox()
    const wallet = await institutionalWallet(sb, 'solana', 'SOL')
    const socket = await open()
    const raw = untilClosed(socket)
    const body = JSON.stringify({ amount: '0.01', currency: 'SOL', source_wallet: wallet.id, recipient: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA' })
    const headers = [`Host: x`, `Authorization: Bearer ${DEFAULT_KEY}`, `Content-Type: application/json`, `Content-Length: ${body.length}`].filter((h) => !h.startsWith(`${name}:`))
    socket.write(`POST /v1/payments HTTP/1.1\r\n${[...headers, `${name}: ${value}`].join('\r\n')}\r\n\r\n${body}`)
    const answer = parseAnswer(await raw)
    expect(answer.status).toBe(400)
    expect(answer.body.error).toMatchObject({ type: 'invalid_request_error', code: 'malformed_request' })
    expect(answer.head).not.toMatch(/X-Injected/i)
    expect(await paymentsMade()).toBe(0)
  })

  it('headers over 16 KB are 431 headers_too_large in the error shape', async () => {
    sb = await startTestSandbox()
    const socket = await open()
    const raw = untilClosed(socket)
    socket.write(`GET /v1/wallets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${DEFAULT_KEY}\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`)
    const answer = parseAnswer(await raw)
    expect(answer.status).toBe(431)
    expect(answer.body.error.code).toBe('headers_too_large')
    await otherClientIsServed()
  })
})

describe('CR/LF inside JSON values', () => {
  it('metadata, a description and an Idempotency-Key full of CR/LF are stored as data, and never reach webhook headers', async () => {
    sb = await startTestSandbox({ settle: 'instant' })
    const receiver = await startWebhookReceiver()
    try {
      await sb.api.post('/v1/webhooks').set(sb.auth()).send({ url: receiver.url }).expect(201)
      const wallet = await institutionalWallet(sb, 'solana', 'SOL')
      const injected = 'x\r\nX-Injected: yes\r\n\r\nbody'
      const res = await sb.api.post('/v1/payments').set(sb.auth()).set('Idempotency-Key', 'key-with-no-controls')
        .send({ amount: '0.01', currency: 'SOL', source_wallet: wallet.id, recipient: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', description: injected, metadata: { [`k\r\nX-Key`]: injected } })
        .expect(201)
      expect(res.body.data.description).toBe(injected)
      const hooks = await receiver.waitFor(3)
      for (const hook of hooks) {
        expect(Object.keys(hook.headers).filter((name) => /inject|x-key/i.test(name))).toEqual([])
        expect(Object.values(hook.headers).join('\n')).not.toMatch(/\r|X-Injected/)
        expect(hook.event.data.object).toMatchObject({ description: injected })
      }
    } finally {
      await receiver.close()
    }
  })
})
