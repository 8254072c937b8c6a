// The normal client of `npm run bench:hostile`: GET /v1/wallets with the default key on one kept-alive
// connection, a request every `INTERVAL_MS` (or at once when the answer before took longer), timed
// to the last byte of each answer. Paced rather than back to back, as a test suite asks: the probe
// itself then hardly loads the machine, and two servers can be probed at once.
import { Agent, request } from 'node:http'

const AUTH = { authorization: 'Bearer sk_test_sandbox_default_key' }
const INTERVAL_MS = 2
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** GET on the given agent; resolves with the body once read whole. */
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

/** The normal client, for `seconds`: the latencies in ms. */
export async function probe(port, seconds) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const out = []
  const end = performance.now() + seconds * 1000
  try {
    while (performance.now() < end) {
      const started = performance.now()
      await get(port, agent, '/v1/wallets')
      const took = performance.now() - started
      out.push(took)
      if (took < INTERVAL_MS) await pause(INTERVAL_MS - took)
    }
  } finally {
    agent.destroy()
  }
  return out
}
