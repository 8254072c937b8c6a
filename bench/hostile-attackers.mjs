// The hostile clients of `npm run bench:hostile`, in a process of their own (forked, with IPC) so that
// their work is never counted to the server they attack nor to the client that measures it:
// slowloris connections that send a header byte a second and never finish their headers, and
// clients that pipeline `--depth` requests for a large answer and never read. With `--reconnect`, a
// connection the server closes is opened again, so that the attack keeps its size for as long as it
// lasts. It reports `{ready}` once every connection has sent its requests, and its counts on `stop`.
import { connect } from 'node:net'
import { parseArgs } from 'node:util'

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    slowloris: { type: 'string', default: '200' },
    readers: { type: 'string', default: '200' },
    depth: { type: 'string', default: '10' },
    path: { type: 'string', default: '/v1/openapi.json' },
    reconnect: { type: 'boolean', default: false },
  },
})
const port = Number(values.port)
const PIPELINE = `GET ${values.path} HTTP/1.1\r\nHost: x\r\n\r\n`.repeat(Number(values.depth))
const counts = { opened: 0, closedByServer: 0, answered408: 0 }
const sockets = new Set()
let running = true

/** Opens a connection (again whenever the server closes it, with `--reconnect`); resolves once `start` wrote. */
function keep(start) {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    const ticker = setInterval(() => socket.write(start.tick), 1000)
    counts.opened++
    sockets.add(socket)
    socket.on('error', () => {})
    socket.once('connect', () => socket.write(start.first, resolve))
    start.listen?.(socket)
    socket.once('close', () => {
      clearInterval(ticker)
      sockets.delete(socket)
      if (!running) return
      counts.closedByServer++
      if (values.reconnect) void keep(start)
    })
  })
}

// Headers that never end; the server's headers deadline answers 408 and closes.
const slowloris = {
  first: 'GET /v1/wallets HTTP/1.1\r\nHost: x\r\nX-Slow: ',
  tick: 'a',
  listen: (socket) => socket.once('data', (chunk) => chunk.toString('latin1').startsWith('HTTP/1.1 408') && counts.answered408++),
}
// Never reads (the socket stays paused); a blank line a second, which HTTP allows between requests,
// is how a client that never reads notices that the server closed its connection.
const reader = { first: PIPELINE, tick: '\r\n', listen: (socket) => socket.pause() }

const opening = []
for (let i = 0; i < Math.max(Number(values.slowloris), Number(values.readers)); i++) {
  if (i < Number(values.slowloris)) opening.push(keep(slowloris))
  if (i < Number(values.readers)) opening.push(keep(reader))
  // Batches, so the listen backlog never overflows.
  if (i % 50 === 49) await new Promise((resolve) => setTimeout(resolve, 10))
}
await Promise.all(opening)
process.send({ ready: true })

process.on('message', (message) => {
  if (message !== 'stop') return
  running = false
  for (const socket of sockets) socket.destroy()
  process.send({ counts }, () => process.exit(0))
})
