import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { send } from '../../src/http/respond.js'

/**
 * `send` (src/http/respond.ts) writes a text answer as one `write` of head and body instead of
 * node's `end(body)` (a `writev` of that text and an empty chunk): the bytes on the wire must be
 * those `end(body)` gives, and an `end` wrapped to hold the answer must still hold all of it.
 */

type Answer = (req: IncomingMessage, res: ServerResponse) => void
const servers: Server[] = []
afterEach(() => Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve)))))

async function serve(answer: Answer): Promise<number> {
  const server = createServer((req, res) => req.resume().on('end', () => answer(req, res)))
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return (server.address() as AddressInfo).port
}

/** Sends `requests` requests one after the other on one connection (keep-alive), each once the answer before it is in; answers what came back, Date headers blanked. */
function exchange(port: number, requests: number): Promise<string> {
  const request = 'POST /v1/payments HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}'
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(port, '127.0.0.1', () => socket.write(request))
    let text = ''
    let answered = 0
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1')
      if (!text.endsWith('}') || text.split('HTTP/1.1 ').length - 1 === answered) return
      if (++answered < requests) return void socket.write(request)
      socket.destroy()
      resolve(text.replace(/\r\nDate: [^\r]*/g, '\r\nDate: -'))
    })
    socket.on('error', reject)
  })
}

const BODY = JSON.stringify({ data: { id: 'pay_1', description: 'caf\u00e9 \u2603 \ud83d\ude00' }, request_id: 'req_1' })
/** The fast path's response: its headers deferred in `locals.headers` (src/http/answer-headers.ts). */
const withDeferredHeaders = (res: ServerResponse) => Object.assign(res, { locals: { headers: ['X-Sandbox-Version', '0.0.0-test', 'X-Request-Id', 'req_1'] } })

describe('an answer sent in one write', () => {
  it('puts the same bytes on the wire as end(body), in one write and no writev, answer after answer on a connection', async () => {
    const writes: string[] = []
    const viaSend = await serve((_req, res) => {
      const socket = res.socket as Socket & { _write: (...args: unknown[]) => void; _writev: (...args: unknown[]) => void }
      const { _write, _writev } = socket
      socket._write = (...args) => (writes.push('write'), _write.apply(socket, args))
      socket._writev = (...args) => (writes.push('writev'), _writev.apply(socket, args))
      send(withDeferredHeaders(res), { status: 201, text: BODY })
      socket._write = _write
      socket._writev = _writev
    })
    const viaEnd = await serve((_req, res) => {
      res.writeHead(201, ['X-Sandbox-Version', '0.0.0-test', 'X-Request-Id', 'req_1', 'Content-Type', 'application/json; charset=utf-8', 'Content-Length', String(Buffer.byteLength(BODY))])
      res.end(BODY)
    })
    const [sent, ended] = await Promise.all([exchange(viaSend, 3), exchange(viaEnd, 3)])
    expect(sent).toBe(ended)
    expect(sent).toContain(`Content-Length: ${Buffer.byteLength(BODY)}\r\n`)
    expect(writes).toEqual(['write', 'write', 'write'])
  })

  it('gives the whole answer to an end wrapped to hold it, and nothing goes out before the hold lets it', async () => {
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    let sentBeforeRelease = 0
    const port = await serve((_req, res) => {
      const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse
      res.end = ((...args: unknown[]) => {
        void held.then(() => end(...args))
        return res
      }) as ServerResponse['end']
      send(withDeferredHeaders(res), { status: 201, text: BODY })
      sentBeforeRelease = res.socket!.bytesWritten
      setImmediate(release)
    })
    const answer = await exchange(port, 1)
    expect(sentBeforeRelease).toBe(0)
    expect(answer.endsWith(`\r\n\r\n${Buffer.from(BODY).toString('latin1')}`)).toBe(true)
  })
})
