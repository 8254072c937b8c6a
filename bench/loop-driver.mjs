// The users' loop, as a test suite drives the sandbox: create a payment, complete it through the
// control API, and wait until a local receiver has the three webhooks (payment.created,
// payment.processing, payment.succeeded), each verified with the `standardwebhooks` package.
// Used by bench/loop.bench.mjs (timed) and test/e2e/loop.test.ts (correctness only), so it imports
// nothing from src/ or dist/: it talks to a running sandbox over HTTP, like a user's suite does.
import { Agent, createServer, request } from 'node:http'
import { Webhook } from 'standardwebhooks'

/** An all-lower-case EVM address (accepted without a checksum) that no fixture screens or makes magic. */
export const LOOP_RECIPIENT = '0x52908400098527886e0f7030069857d2e4169ee7'
export const LIFECYCLE_TYPES = ['payment.created', 'payment.processing', 'payment.succeeded']

/** One JSON request on a kept-alive connection, as an SDK sends it; rejects on an unexpected status. */
export function call(agent, base, method, path, { key, body, expect } = {}) {
  return new Promise((resolve, reject) => {
    const text = body === undefined ? undefined : JSON.stringify(body)
    const headers = { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(text ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } : {}) }
    const req = request(`${base}${path}`, { method, agent, headers }, (res) => {
      let data = ''
      res.setEncoding('utf8')
      res.on('data', (chunk) => (data += chunk))
      res.on('end', () => {
        if (res.statusCode !== expect) reject(new Error(`${method} ${path} answered ${res.statusCode} (expected ${expect}): ${data.slice(0, 300)}`))
        else resolve(JSON.parse(data))
      })
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(text)
  })
}

/**
 * A receiver on port 0. Client n's endpoint is `<url>/hooks/<n>`, verified with that client's
 * secret. Every webhook is checked as it arrives; problems are collected, not thrown, so that the
 * loop can report all of them at the end.
 */
export async function startLoopReceiver({ keepAliveTimeoutMs } = {}) {
  const secrets = new Map()
  const byPayment = new Map()
  const seenIds = new Set()
  const problems = []
  let received = 0

  const entryFor = (paymentId) => {
    let entry = byPayment.get(paymentId)
    if (!entry) {
      entry = { types: [], complete: false }
      entry.done = new Promise((resolve, reject) => Object.assign(entry, { resolve, reject }))
      entry.done.catch(() => {}) // rejected before anyone waits: still reported to whoever waits later
      byPayment.set(paymentId, entry)
    }
    return entry
  }
  /** A problem ends every wait at once: the loop fails fast instead of timing out. */
  let failedAll = false
  const fail = (problem) => {
    problems.push(problem)
    for (const entry of byPayment.values()) if (!entry.complete) entry.reject(new Error(problem))
    failedAll = true
  }

  const server = createServer((req, res) => {
    const chunks = []
    req.on('data', (chunk) => chunks.push(chunk))
    req.on('end', () => {
      res.writeHead(204).end()
      received++
      const body = Buffer.concat(chunks).toString('utf8')
      const client = Number(/^\/hooks\/(\d+)$/.exec(req.url ?? '')?.[1])
      const secret = secrets.get(client)
      try {
        new Webhook(secret ?? 'whsec_').verify(body, req.headers)
      } catch (error) {
        fail(`webhook ${req.headers['webhook-id']} to ${req.url} failed verification: ${error.message}`)
        return
      }
      if (seenIds.has(req.headers['webhook-id'])) problems.push(`webhook ${req.headers['webhook-id']} arrived twice`)
      seenIds.add(req.headers['webhook-id'])
      const event = JSON.parse(body)
      const entry = entryFor(event.data.object.id)
      entry.types.push(event.type)
      if (entry.types.length === LIFECYCLE_TYPES.length) {
        entry.complete = true
        entry.resolve()
      }
    })
  })
  if (keepAliveTimeoutMs !== undefined) server.keepAliveTimeout = keepAliveTimeoutMs
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${server.address().port}`

  return {
    endpointUrl: (client) => `${url}/hooks/${client}`,
    setSecret: (client, secret) => secrets.set(client, secret),
    /** Resolves once the payment's three webhooks are in (verified ones only count); rejects, naming what is wrong, after `timeoutMs`. */
    lifecycleDone(paymentId, timeoutMs = 5000) {
      let timer
      const late = new Promise((_, reject) => {
        timer = setTimeout(() => {
          const types = byPayment.get(paymentId)?.types ?? []
          reject(new Error(`payment ${paymentId}: ${timeoutMs} ms without its webhooks; received [${types.join(', ')}]${problems.length ? `; ${problems.join('; ')}` : ''}`))
        }, timeoutMs)
      })
      const entry = entryFor(paymentId)
      if (failedAll && !entry.complete) entry.reject(new Error(problems[0]))
      return Promise.race([entry.done, late]).finally(() => clearTimeout(timer))
    },
    /** Everything that was wrong with what arrived, given the payments the loop made. */
    check(paymentIds) {
      const found = [...problems]
      for (const id of paymentIds) {
        const types = byPayment.get(id)?.types ?? []
        if (types.join() !== LIFECYCLE_TYPES.join()) found.push(`payment ${id}: received [${types.join(', ')}], expected [${LIFECYCLE_TYPES.join(', ')}]`)
      }
      const expected = paymentIds.length * LIFECYCLE_TYPES.length
      if (received !== expected) found.push(`${received} webhooks received in all, expected ${expected}`)
      return found
    },
    received: () => received,
    close: () => new Promise((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
    }),
  }
}

/**
 * Gets one client ready outside the timing: its key's account (provisioned on first use under
 * `--auth open`), a webhook endpoint pointing at the receiver, and its polygon USDC treasury.
 */
export async function prepareLoopClient(base, receiver, client, key) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const endpoint = await call(agent, base, 'POST', '/v1/webhooks', { key, body: { url: receiver.endpointUrl(client), events: LIFECYCLE_TYPES }, expect: 201 })
  receiver.setSecret(client, endpoint.data.secret)
  const wallets = await call(agent, base, 'GET', '/v1/wallets?type=institutional&network=polygon&currency=USDC', { key, expect: 200 })
  const source = wallets.data[0]?.id
  if (!source) throw new Error(`no institutional polygon USDC wallet for ${key}`)
  return { base, key, agent, source, receiver }
}

/** One lifecycle: create, complete, then wait for its three verified webhooks. Resolves with the payment id. */
async function lifecycle(client) {
  const { base, key, agent, source, receiver } = client
  const body = { amount: '0.000001', currency: 'USDC', source_wallet: source, recipient: LOOP_RECIPIENT, description: 'loop' }
  const created = await call(agent, base, 'POST', '/v1/payments', { key, body, expect: 201 })
  const id = created.data.id
  await call(agent, base, 'POST', `/_sandbox/payments/${id}/complete`, { expect: 200 })
  await receiver.lifecycleDone(id)
  return id
}

/** `count` lifecycles one after the other for each client, the clients in parallel. Resolves with the payment ids. */
export async function runLoop(clients, count) {
  const ids = await Promise.all(
    clients.map(async (client) => {
      const mine = []
      for (let i = 0; i < count; i++) mine.push(await lifecycle(client))
      return mine
    }),
  )
  return ids.flat()
}

export function closeLoopClients(clients) {
  for (const client of clients) client.agent.destroy()
}
