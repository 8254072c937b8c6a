// The anchor of `npm run bench:hostile`: a bare node:http server that answers the bench's two routes
// with the sandbox's own bytes, read once from files. What it costs under hostile clients is what
// node itself costs; the sandbox is measured against it. It gets the sandbox's receiving deadlines
// (node has them), and nothing else: no send deadline, no pipelining bound, no middleware.
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { parseArgs } from 'node:util'

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    wallets: { type: 'string' },
    openapi: { type: 'string' },
    'headers-timeout': { type: 'string', default: '10000' },
    'request-timeout': { type: 'string', default: '60000' },
  },
})
const TYPE = 'application/json; charset=utf-8'
const answers = new Map([
  ['/v1/wallets', readFileSync(values.wallets)],
  ['/v1/openapi.json', readFileSync(values.openapi)],
])
const headersTimeout = Number(values['headers-timeout'])
const server = createServer({
  headersTimeout,
  requestTimeout: Math.max(headersTimeout, Number(values['request-timeout'])),
  connectionsCheckingInterval: Math.min(1000, headersTimeout),
}, (req, res) => {
  const body = answers.get((req.url ?? '').split('?')[0])
  if (req.method !== 'GET' || !body) {
    res.writeHead(404).end()
    return
  }
  res.writeHead(200, { 'Content-Type': TYPE, 'Content-Length': body.length }).end(body)
})
server.listen(Number(values.port), '127.0.0.1')
process.once('SIGTERM', () => process.exit(0))
