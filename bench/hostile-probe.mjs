// The normal client of `npm run bench:hostile`: GET /v1/wallets with the default key, one request
// after the other on one kept-alive connection, timed to the last byte of each answer.
import { Agent, request } from 'node:http'

const AUTH = { authorization: 'Bearer sk_test_sandbox_default_key' }

/** GET on the probe's one kept-alive connection; resolves with the body once read whole. */
export function get(port, agent, path) {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent, headers: AUTH }, (res) => {
      const chunks = []
      res.on('data', (chunk) => chunks.push(chunk))
      res.on('end', () => (res.statusCode === 200 ? resolve(Buffer.concat(chunks)) : reject(new Error(`GET ${path} answered ${res.statusCode}`))))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

/** The normal client: GET /v1/wallets, one after the other on one connection, for `seconds`; the latencies in ms. */
export async function probe(port, seconds) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const out = []
  const end = performance.now() + seconds * 1000
  try {
    while (performance.now() < end) {
      const started = performance.now()
      await get(port, agent, '/v1/wallets')
      out.push(performance.now() - started)
    }
  } finally {
    agent.destroy()
  }
  return out
}

