// CPU of one webhook attempt in the sender (issue 33): each checkout's built transport
// (dist/events/webhook-http.js) POSTs a 700-byte event, one attempt after another, to a receiver in
// a child process answering 204 on a kept-alive connection; this process's CPU (user + system, the
// syscalls included) per attempt. The checkouts take turns, 5 rounds of 5,000 attempts each.
//
//   node bench/webhook-transport.bench.mjs /work/before /work/after
import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { percentile, printTable } from './lib.mjs'

const ROUNDS = 5
const ATTEMPTS = 5000
const checkouts = process.argv.slice(2).map((dir) => resolve(dir))
if (checkouts.length === 0) throw new Error('usage: node bench/webhook-transport.bench.mjs <checkout> [<checkout>]')

const receiverSource = `
  const { createServer } = require('node:http')
  const server = createServer((req, res) => { req.resume(); req.on('end', () => res.writeHead(204).end()) })
  server.keepAliveTimeout = 600000
  server.listen(0, '127.0.0.1', () => console.log(server.address().port))`
const receiver = spawn(process.execPath, ['-e', receiverSource], { stdio: ['ignore', 'pipe', 'inherit'] })
const port = await new Promise((done) => receiver.stdout.once('data', (data) => done(Number(String(data).trim()))))
const url = `http://127.0.0.1:${port}/hooks/0`
const body = JSON.stringify({ id: 'evt_PmQBiYS772idXio8p2kzLYqO', object: 'event', type: 'payment.created', data: { object: { id: 'pay_1', amount: '0.000001', description: 'x'.repeat(550) } } })
const headers = { 'content-type': 'application/json', 'user-agent': 'wallet-sandbox/0.1.0', 'webhook-id': 'evt_PmQBiYS772idXio8p2kzLYqO', 'webhook-timestamp': '1795941623', 'webhook-signature': 'v1,M9+AbUibp7MipFnwj42EZ985MnjmgGBTN1LMeW65vs8=' }

const builds = []
for (const dir of checkouts) {
  const { createWebhookTransport } = await import(`${dir}/dist/events/webhook-http.js`)
  builds.push({ dir, transport: createWebhookTransport(), samples: [] })
}
async function attempts(build, count) {
  for (let i = 0; i < count; i++) {
    const outcome = await build.transport.post({ url, headers, body, timeoutMs: 10_000 })
    if (outcome.status !== 204) throw new Error(`${build.dir}: ${JSON.stringify(outcome)}`)
  }
}
try {
  for (const build of builds) await attempts(build, 3000)
  for (let round = 0; round < ROUNDS; round++) {
    for (const build of round % 2 === 0 ? builds : [...builds].reverse()) {
      const before = process.cpuUsage()
      await attempts(build, ATTEMPTS)
      const used = process.cpuUsage(before)
      build.samples.push((used.user + used.system) / ATTEMPTS)
    }
  }
} finally {
  for (const build of builds) build.transport.close()
  receiver.kill()
}
printTable(
  `Sender CPU µs per webhook attempt (${ROUNDS} rounds of ${ATTEMPTS}, taking turns)`,
  ['checkout', 'p50', 'p99', 'max', ...(builds.length === 2 ? ['ratio to the first (p50)'] : [])],
  builds.map((build) => [build.dir, ...[percentile(build.samples, 50), percentile(build.samples, 99), Math.max(...build.samples)].map((v) => v.toFixed(1)), ...(builds.length === 2 ? [(percentile(build.samples, 50) / percentile(builds[0].samples, 50)).toFixed(2) + '×'] : [])]),
)
