// The anchor of bench/stream.bench.mjs, run as its own process: a bare `ws` server doing the plain
// thing well. A subscriber gets the same answer and snapshot as from the sandbox; `POST /advance`
// is one tick: the price messages (the sandbox's quotes, so the same size, with the tick's
// timestamp) are serialized once each, then every subscriber gets them in one corked write of
// `ws.send` calls. Its process reports its own CPU over IPC ('cpu'), and stops on 'stop'.
//
// With --floor it is the cheapest server there can be instead: the tick's frames built once into
// one buffer, written as it is to each subscriber's socket (what the sandbox does, without anything
// else). What it takes is the cost of the writes themselves, mostly the kernel's.
import { createServer } from 'node:http'
import { WebSocketServer } from 'ws'

const FLOOR = process.argv.includes('--floor')
const quotes = await new Promise((resolve) => process.once('message', resolve))
let now = Date.parse(quotes[0].timestamp)
const subscribers = new Set()

/** Each message serialized once, as the Buffer every subscriber is sent. */
const messages = () =>
  quotes.map((q) => Buffer.from(JSON.stringify({ type: 'price', channel: 'prices', pair: q.pair, price: q.price, bid: q.bid, ask: q.ask, timestamp: new Date(now).toISOString() })))

/** A server's text frame (FIN, opcode 1, unmasked) of a payload between 126 and 65,535 bytes, as ws builds it. */
const framed = (payload) => Buffer.concat([Buffer.from([0x81, 126, payload.length >> 8, payload.length & 0xff]), payload])

function tick() {
  now += 1000
  if (FLOOR) {
    const joined = Buffer.concat(messages().map(framed))
    for (const ws of subscribers) ws._socket.write(joined)
    return
  }
  const frames = messages()
  for (const ws of subscribers) {
    ws._socket.cork()
    for (const frame of frames) ws.send(frame, { binary: false })
    ws._socket.uncork()
  }
}

const server = createServer((req, res) => {
  req.resume()
  req.once('end', () => {
    if (req.method === 'POST' && req.url === '/advance') tick()
    else res.statusCode = 404
    res.end()
  })
})
const wss = new WebSocketServer({ server, perMessageDeflate: false, clientTracking: false })
wss.on('connection', (ws) => {
  ws.once('message', () => {
    ws.send(JSON.stringify({ type: 'subscribed', channel: 'prices', pairs: quotes.map((q) => q.pair) }))
    for (const frame of messages()) ws.send(frame, { binary: false })
    subscribers.add(ws)
  })
  ws.once('close', () => subscribers.delete(ws))
})
server.listen(0, '127.0.0.1', () => process.send({ url: `http://127.0.0.1:${server.address().port}` }))

process.on('message', (message) => {
  if (message === 'cpu') process.send(process.cpuUsage())
  else if (message === 'stop') {
    for (const ws of subscribers) ws.terminate()
    server.close(() => process.exit(0))
  }
})
