import { describe, expect, it } from 'vitest'
import { MalformedAnswer, ResponseReader } from '../../src/events/webhook-response.js'

/** Feeds `text` to a fresh reader in pieces of `step` bytes; answers when it said complete (the byte count) and what it read. */
function read(text: string, step = Infinity, max = 2000) {
  const reader = new ResponseReader(max)
  const bytes = Buffer.from(text, 'latin1')
  let completeAt: number | undefined
  for (let at = 0; at < bytes.length && completeAt === undefined; at += Math.min(step, bytes.length)) {
    const end = Math.min(at + step, bytes.length)
    if (reader.push(bytes.subarray(at, end))) completeAt = end
  }
  return { reader, completeAt, length: bytes.length }
}

describe('reading a receiver’s answer', () => {
  it('ends a Content-Length body at its last byte, whatever the pieces it comes in', () => {
    const text = 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 11\r\n\r\nhello world'
    for (const step of [1, 2, 7, Infinity]) {
      const { reader, completeAt, length } = read(text, step)
      expect(completeAt).toBe(length)
      expect([reader.status, reader.keepAlive, reader.body()]).toEqual([200, true, 'hello world'])
    }
  })

  it('decodes a chunked body, with chunk extensions and trailers, byte by byte', () => {
    const text = 'HTTP/1.1 500 Internal Server Error\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: yes\r\n\r\n'
    for (const step of [1, 3, Infinity]) {
      const { reader, completeAt, length } = read(text, step)
      expect(completeAt).toBe(length)
      expect([reader.status, reader.keepAlive, reader.body()]).toEqual([500, true, 'hello world'])
    }
  })

  it('has no body for 204 and 304, and skips interim 1xx answers', () => {
    expect(read('HTTP/1.1 204 No Content\r\nDate: x\r\n\r\n').reader.status).toBe(204)
    expect(read('HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n').completeAt).toBeDefined()
    const { reader } = read('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 202 Accepted\r\nContent-Length: 2\r\n\r\nok', 5)
    expect([reader.status, reader.body()]).toEqual([202, 'ok'])
  })

  it('keeps the connection only where HTTP lets it: not after Connection: close, nor HTTP/1.0 without keep-alive', () => {
    expect(read('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n').reader.keepAlive).toBe(false)
    expect(read('HTTP/1.1 200 OK\r\nConnection: Keep-Alive, Close\r\nContent-Length: 0\r\n\r\n').reader.keepAlive).toBe(false)
    expect(read('HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n').reader.keepAlive).toBe(false)
    expect(read('HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n').reader.keepAlive).toBe(true)
    // Bytes beyond the answer: the connection is not one to send the next delivery on.
    expect(read('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\nHTTP/1.1 200').reader.keepAlive).toBe(false)
  })

  it('reads a body without a length to the close, and stops at the most it reads', () => {
    const open = read('HTTP/1.1 200 OK\r\n\r\npart one, ')
    expect(open.completeAt).toBeUndefined()
    expect(open.reader.push(Buffer.from('part two'))).toBe(false)
    expect(open.reader.closed()).toBe(true)
    expect([open.reader.keepAlive, open.reader.body()]).toEqual([false, 'part one, part two'])

    const long = read(`HTTP/1.1 400 Bad Request\r\nContent-Length: 100000\r\n\r\n${'x'.repeat(3000)}`, 1000, 2000)
    expect(long.completeAt).toBeDefined()
    expect(long.reader.keepAlive).toBe(false)
    expect(long.reader.body().length).toBeGreaterThanOrEqual(2000)
  })

  it('says when a close cuts an answer short: the head in (a status to report) or not', () => {
    const cut = read('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc')
    expect([cut.completeAt, cut.reader.closed(), cut.reader.status, cut.reader.body()]).toEqual([undefined, false, 200, 'abc'])
    const headless = read('HTTP/1.1 200 OK\r\nContent-')
    expect([headless.reader.closed(), headless.reader.status]).toEqual([false, 0])
  })

  it('rejects what is not HTTP/1.x', () => {
    for (const text of ['SSH-2.0-OpenSSH\r\n\r\n', 'HTTP/1.1 20 OK\r\n\r\n', 'HTTP/1.1 200 OK\r\nno colon here\r\n\r\n', 'HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n', 'HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nab\r\n']) {
      expect(() => read(text), text).toThrow(MalformedAnswer)
    }
    expect(() => read(`HTTP/1.1 200 OK\r\nX: ${'y'.repeat(17_000)}`)).toThrow(/larger than 16 KB/)
  })
})
