// Hostile webhook receivers for an hour of sandbox time (issue 16): one endpoint per kind of
// receiver (healthy, down, answering 500, hanging past the timeout, answering 1 byte a second,
// answering 410), `events` payment events, the clock advanced through the hour while they
// misbehave, then every receiver recovers and the clock runs on through the last retry. The
// report says what was delivered, lost, duplicated or attempted beyond the schedule, and whether
// the delivery log shows every attempt. Used by bench/receivers.bench.mjs (full length, with API
// latency) and test/reliability/hostile-receivers.test.ts (short). It talks to a running sandbox
// over HTTP only, so it works against the CLI in a child process as against one in the test's process.
import { Agent, createServer } from 'node:http'
import { call as callOnAgent } from './loop-driver.mjs'

export const RECEIVER_KINDS = ['healthy', 'down', 'error500', 'hang', 'slow', 'gone']
const RECIPIENT = '0x52908400098527886e0f7030069857d2e4169ee7'
const HOUR = 3_600_000

// node:http (loop-driver's `call`) rather than fetch: an advance that waits for hanging receivers
// can take minutes, longer than fetch's fixed 300 s wait for an answer's headers.
const agent = new Agent({ keepAlive: true })
const call = (base, method, path, { expect = 200, ...options } = {}) => callOnAgent(agent, base, method, path, { ...options, expect })

/** A port nothing listens on now, which the `down` receiver takes when it recovers. */
function reservePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/**
 * A receiver that misbehaves as its kind says until `recover()`, then answers 200. It records
 * every request it got: the event id and what it answered (a status, 'hang' or 'slow').
 */
async function startReceiver(kind) {
  const requests = []
  let healthy = kind === 'healthy'
  const held = new Set()
  const server = createServer((req, res) => {
    // Recorded as the headers arrive: a short timeout may cut the exchange before the body ends.
    const eventId = req.headers['webhook-id']
    req.resume()
    req.on('end', () => {
      if (healthy) {
        requests.push({ eventId, answer: 200 })
        return res.writeHead(200, { 'content-type': 'text/plain' }).end('ok')
      }
      if (kind === 'error500') {
        requests.push({ eventId, answer: 500 })
        return res.writeHead(500, { 'content-type': 'text/plain' }).end('receiver broken')
      }
      if (kind === 'gone') {
        requests.push({ eventId, answer: 410 })
        return res.writeHead(410, { 'content-type': 'text/plain' }).end('gone')
      }
      requests.push({ eventId, answer: kind })
      held.add(res)
      res.on('close', () => held.delete(res))
      if (kind === 'slow') {
        // Headers at once, then the body at 1 byte a second: the answer is never complete within the timeout.
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '60' })
        const drip = setInterval(() => res.write('.'), 1000)
        res.on('close', () => clearInterval(drip))
      }
    })
  })
  server.keepAliveTimeout = 60_000
  const port = await reservePort()
  const listen = () => new Promise((resolve) => server.listen(port, '127.0.0.1', resolve))
  if (kind !== 'down') await listen()
  return {
    kind,
    url: `http://127.0.0.1:${port}/hooks/${kind}`,
    requests,
    async recover() {
      healthy = true
      if (kind === 'down') await listen()
    },
    async close() {
      for (const res of held) res.destroy()
      if (!server.listening) return
      const closed = new Promise((resolve) => server.close(resolve))
      server.closeAllConnections()
      await closed
    },
  }
}

async function allDeliveries(base, accountId) {
  const out = []
  for (let offset = 0; ; offset += 100) {
    const page = await call(base, 'GET', `/_sandbox/webhooks/deliveries?account_id=${accountId}&limit=100&offset=${offset}`)
    out.push(...page.data)
    if (!page.pagination.has_more) return { deliveries: out, dropped: page.dropped }
  }
}

/**
 * Runs the scenario against the sandbox at `base` (a manual clock, `--settle manual`, the default
 * retry schedule `schedule` in ms, a delivery log large enough for events × 6). `during(phase)` is
 * started at each phase ('quiet', 'misbehaving', 'recovered') and its promise awaited at the phase's
 * end (the bench measures API latency there); `stop()` tells it to end.
 */
export async function runHostileReceivers({ base, events, key = 'sk_test_hostile_receivers', schedule = [5_000, 30_000, 120_000, 600_000, HOUR], stepMs = 60_000, during }) {
  const receivers = await Promise.all(RECEIVER_KINDS.map(startReceiver))
  const report = { events, endpoints: receivers.length, attempts: 0, delivered: 0, lost: 0, duplicated: 0, lateAnswersRedelivered: 0, beyondSchedule: 0, logMismatches: 0, problems: [] }
  let stopPhase = false
  let phaseWork = Promise.resolve()
  const phase = async (name, work) => {
    stopPhase = false
    phaseWork = during ? during(name, () => stopPhase) : Promise.resolve()
    try {
      await work()
    } finally {
      stopPhase = true
      await phaseWork
    }
  }
  const advance = (ms) => call(base, 'POST', '/_sandbox/clock/advance', { body: { ms } })
  try {
    const wallets = await call(base, 'GET', '/v1/wallets?network=polygon&currency=USDC&type=institutional', { key })
    const source = wallets.data[0].id
    const accountId = (await call(base, 'GET', `/_sandbox/accounts?api_key=${key}`)).data[0].id
    const endpoints = new Map()
    for (const receiver of receivers) {
      const endpoint = await call(base, 'POST', '/v1/webhooks', { key, body: { url: receiver.url, events: ['payment.created'] }, expect: 201 })
      endpoints.set(endpoint.data.id, receiver)
    }

    await phase('quiet', async () => {})
    const eventIds = new Set()
    await phase('misbehaving', async () => {
      for (let i = 0; i < events; i++) {
        await call(base, 'POST', '/v1/payments', { key, body: { amount: '0.000001', currency: 'USDC', source_wallet: source, recipient: RECIPIENT }, expect: 201 })
      }
      // An advance waits for the queued first attempts; then the hour goes by in steps, retries falling due in each.
      for (let elapsed = 0; elapsed < HOUR; elapsed += stepMs) await advance(Math.min(stepMs, HOUR - elapsed))
    })

    await phase('recovered', async () => {
      for (const receiver of receivers) await receiver.recover()
      for (const [id, receiver] of endpoints) {
        if (receiver.kind !== 'gone') continue
        // 410 disabled the endpoint: turn it back on and redeliver what failed meanwhile.
        await call(base, 'PUT', `/v1/webhooks/${id}`, { key, body: { status: 'enabled' } })
        const { deliveries } = await allDeliveries(base, accountId)
        for (const delivery of deliveries.filter((d) => d.endpoint_id === id && d.status === 'failed')) {
          await call(base, 'POST', `/_sandbox/webhooks/deliveries/${delivery.id}/retry`)
        }
      }
      // Past the last retry of the schedule: everything still pending falls due.
      const total = schedule.reduce((sum, ms) => sum + ms, 0)
      for (let elapsed = 0; elapsed < total; elapsed += 10 * stepMs) await advance(10 * stepMs)
    })

    const { deliveries, dropped } = await allDeliveries(base, accountId)
    if (dropped > 0) report.problems.push(`the delivery log dropped ${dropped} deliveries; run with a larger --delivery-log-limit`)
    for (const delivery of deliveries) eventIds.add(delivery.event_id)
    if (eventIds.size !== events) report.problems.push(`${eventIds.size} events have deliveries, expected ${events}`)
    for (const [endpointId, receiver] of endpoints) {
      const mine = deliveries.filter((d) => d.endpoint_id === endpointId)
      const requestsByEvent = new Map()
      for (const request of receiver.requests) requestsByEvent.set(request.eventId, [...(requestsByEvent.get(request.eventId) ?? []), request])
      // After a 410 no new deliveries are made for the endpoint (CONTRACT.md section 9); the rest must all arrive.
      const expected = receiver.kind === 'gone' ? mine.length : events
      if (mine.length !== expected) report.problems.push(`${receiver.kind}: ${mine.length} deliveries for ${expected} events`)
      for (const delivery of mine) {
        const got = requestsByEvent.get(delivery.event_id) ?? []
        const successes = got.filter((r) => r.answer === 200).length
        report.attempts += delivery.attempts.length
        if (successes === 0) report.lost++
        else report.delivered++
        // A 2xx that came after the timeout was logged as a failure and rightly retried (at least once);
        // any other second delivery is a duplicate.
        const timedOut = delivery.attempts.filter((a) => a.error?.startsWith('timed out')).length
        if (successes > 1 + timedOut) report.duplicated++
        else if (successes > 1) report.lateAnswersRedelivered++
        if (delivery.status !== 'succeeded') report.problems.push(`${receiver.kind}: ${delivery.id} ended ${delivery.status}`)
        if (delivery.attempts.length > 1 + schedule.length + (receiver.kind === 'gone' ? 1 : 0)) report.beyondSchedule++
        // The log shows every attempt: each answer it records is a request the receiver got, and each
        // request the receiver got is an attempt that was not refused or left unsent (a timed-out one
        // may or may not have reached it).
        const answered = delivery.attempts.filter((a) => a.response_status !== null).length
        const reachable = delivery.attempts.filter((a) => a.error === null || !/refused|not sent/.test(a.error)).length
        if (got.length < answered || got.length > reachable) {
          report.logMismatches++
          report.problems.push(`${receiver.kind}: ${delivery.id} lists ${answered} answered and ${reachable} possibly sent attempts; the receiver got ${got.length} requests`)
        }
        if (receiver.kind !== 'gone') {
          const gaps = delivery.attempts.slice(1).map((a, i) => Date.parse(a.at) - Date.parse(delivery.attempts[i].at))
          if (gaps.some((gap, i) => gap !== schedule[i])) report.problems.push(`${receiver.kind}: ${delivery.id} attempts ${gaps.join(', ')} ms apart, not on the schedule`)
        }
      }
      const gone = mine.flatMap((d) => d.attempts).filter((a) => a.response_status === 410).length
      if (receiver.kind === 'gone' && gone !== 1) report.problems.push(`gone: ${gone} attempts were answered 410; after the first the endpoint is disabled`)
    }
    report.problems.splice(20, Infinity, ...(report.problems.length > 20 ? [`… and ${report.problems.length - 20} more`] : []))
    return report
  } finally {
    stopPhase = true
    await phaseWork.catch(() => {})
    await Promise.all(receivers.map((receiver) => receiver.close()))
  }
}
