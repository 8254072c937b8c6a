// Lean WebSocket subscribers for bench/stream.bench.mjs: a raw TCP socket each, the opening
// handshake by hand and a frame parser that only finds frame boundaries. A `ws` client costs its
// process a 'message' event, a Buffer and a UTF-8 check per message; with a thousand subscribers in
// one process that cost, not the server's, would decide when the last one has its ticks. These do
// the least a client can and still know, frame by frame, what it has received.
import { randomBytes } from 'node:crypto'
import { connect } from 'node:net'

const OPCODE = { text: 0x1, close: 0x8, ping: 0x9, pong: 0xa }

/** A client frame (clients must mask), FIN set. */
function clientFrame(opcode, payload) {
  const mask = randomBytes(4)
  const head = payload.length < 126 ? Buffer.from([0x80 | opcode, 0x80 | payload.length]) : Buffer.from([0x80 | opcode, 0x80 | 126, payload.length >> 8, payload.length & 0xff])
  const body = Buffer.from(payload)
  for (let i = 0; i < body.length; i++) body[i] ^= mask[i & 3]
  return Buffer.concat([head, mask, body])
}

/**
 * One subscriber: counts its text frames, keeps their text while `keepText` is set (the rounds that
 * are checked, not timed), answers pings, and calls the waiter of `expect` once enough have come.
 */
class Subscriber {
  constructor(socket) {
    this.socket = socket
    this.upgraded = false
    this.pending = undefined
    this.texts = 0
    this.bytes = 0
    this.keepText = true
    this.received = []
    this.waiter = undefined
  }

  /** Resolves once `count` more text frames have arrived (counted from now). */
  expect(count, onDone) {
    this.waiter = { until: this.texts + count, onDone }
  }

  onData(chunk) {
    const buffer = this.pending ? Buffer.concat([this.pending, chunk]) : chunk
    let offset = 0
    for (;;) {
      const left = buffer.length - offset
      if (left < 2) break
      const b1 = buffer[offset + 1]
      if (b1 & 0x80) throw new Error('a server frame was masked')
      let length = b1 & 0x7f
      let head = 2
      if (length === 126) {
        if (left < 4) break
        length = buffer.readUInt16BE(offset + 2)
        head = 4
      } else if (length === 127) {
        if (left < 10) break
        length = Number(buffer.readBigUInt64BE(offset + 2))
        head = 10
      }
      if (left < head + length) break
      this.onFrame(buffer[offset] & 0x0f, buffer, offset + head, offset + head + length)
      offset += head + length
    }
    this.pending = offset < buffer.length ? Buffer.from(buffer.subarray(offset)) : undefined
  }

  onFrame(opcode, buffer, start, end) {
    if (opcode === OPCODE.ping) return void this.socket.write(clientFrame(OPCODE.pong, buffer.subarray(start, end)))
    if (opcode !== OPCODE.text) return
    this.texts++
    this.bytes += end - start
    if (this.keepText) this.received.push(buffer.toString('utf8', start, end))
    const waiter = this.waiter
    if (waiter && this.texts >= waiter.until) {
      this.waiter = undefined
      waiter.onDone()
    }
  }

  send(message) {
    this.socket.write(clientFrame(OPCODE.text, Buffer.from(JSON.stringify(message))))
  }

  close() {
    this.socket.destroy()
  }
}

/**
 * Every subscriber reads into this one buffer (`onread`: no Buffer, no stream and no 'data' event per
 * read); what a read leaves of an unfinished frame is copied out before the next read.
 */
const READ_BUFFER = Buffer.alloc(256 * 1024)

/** Opens a WebSocket to `url` (ws://host:port/path) and resolves with its subscriber once upgraded. */
export function openSubscriber(url) {
  const { hostname, port, pathname, search } = new URL(url)
  return new Promise((resolve, reject) => {
    let subscriber
    let head = Buffer.alloc(0)
    const onHandshake = (chunk) => {
      head = Buffer.concat([head, chunk])
      const end = head.indexOf('\r\n\r\n')
      if (end === -1) return
      const status = head.toString('latin1', 0, head.indexOf('\r\n'))
      if (!status.startsWith('HTTP/1.1 101')) return reject(new Error(`${url} refused the upgrade: ${status}`))
      subscriber.upgraded = true
      if (end + 4 < head.length) subscriber.onData(Buffer.from(head.subarray(end + 4)))
      resolve(subscriber)
    }
    const callback = (length, buffer) => {
      const chunk = buffer.subarray(0, length)
      if (subscriber.upgraded) subscriber.onData(chunk)
      else onHandshake(Buffer.from(chunk))
    }
    const socket = connect({ host: hostname, port: Number(port), noDelay: true, onread: { buffer: READ_BUFFER, callback } })
    subscriber = new Subscriber(socket)
    socket.once('error', reject)
    socket.once('connect', () => {
      const key = randomBytes(16).toString('base64')
      socket.write(`GET ${pathname}${search} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`)
    })
  })
}

/**
 * Opens `count` subscribers to `url`, subscribes each to `pairs` and resolves once every one has
 * its answer and its snapshot (1 + pairs text frames), `batch` connections at a time.
 */
export async function subscribeMany(url, pairs, count, batch = 100) {
  const subscribers = []
  for (let start = 0; start < count; start += batch) {
    const opened = await Promise.all(Array.from({ length: Math.min(batch, count - start) }, () => openSubscriber(url)))
    await Promise.all(
      opened.map((subscriber) => new Promise((resolve) => {
        subscriber.expect(1 + pairs.length, resolve)
        subscriber.send({ action: 'subscribe', channel: 'prices', pairs })
      })),
    )
    subscribers.push(...opened)
  }
  return subscribers
}
