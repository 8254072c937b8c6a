// Fan-out of the WebSocket stream, measured from outside: 1,000 subscribers to every price pair,
// one advance of 1 s on a manual clock (`POST /_sandbox/clock/advance`), and the time from sending
// that request until the last subscriber has the tick of every pair. The anchor is a bare `ws`
// server (bench/stream-anchor.mjs) sending the same number of messages of the same size, each
// serialized once, in one corked write per subscriber, triggered the same way (`POST /advance`).
// A third server, the floor, is the same script with --floor: the tick's frames built once into one
// buffer and written as it is to each socket, nothing else; what it takes is mostly the kernel's
// cost of a thousand socket writes and reads, which no server can go below.
//
// Both servers run in their own processes (bench/stream-sandbox.mjs, from dist/); the subscribers
// (bench/stream-subscribers.mjs: raw sockets that only find frame boundaries) and the clock of the
// measurement are this process's. Each server has its own thousand subscribers, connected all
// along; the rounds take the servers in turn, so a machine that gets busier slows all of them. Server
// CPU is each process's own (user and system, as the kernel's share is most of it). The first rounds
// are not timed: they check what every subscriber received (one price per pair, in order, the same
// bytes for all), and give the message sizes.
//
// The target is set against the floor, what no server can go below, and at the median, which a busy
// machine moves least: the sandbox's own work per advance on top of the writes themselves. The anchor
// stays in the table as the yardstick of a plain ws server.
//
// Knobs: BENCH_STREAM_CLIENTS (1000), BENCH_STREAM_ROUNDS (200 timed advances per server),
// BENCH_STRICT=1 (exit 1 when the target is missed).
import { fork } from 'node:child_process'
import { Agent, request } from 'node:http'
import { fileURLToPath } from 'node:url'
import { fixed, percentile, printTable } from './lib.mjs'
import { subscribeMany } from './stream-subscribers.mjs'

const CLIENTS = Number(process.env.BENCH_STREAM_CLIENTS ?? 1000)
const ROUNDS = Number(process.env.BENCH_STREAM_ROUNDS ?? 200)
const CHECKED_ROUNDS = 5
const ROUND_TIMEOUT_MS = 30_000
const TARGET = 1.25 // sandbox median / floor median
const KEY = 'sk_test_sandbox_default_key'

const agent = new Agent({ keepAlive: true, maxSockets: 1 })
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

function post(url, body, headers = {}) {
  return new Promise((resolve, reject) => {
    const text = JSON.stringify(body)
    const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      res.resume()
      res.once('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`POST ${url} answered ${res.statusCode}`))))
    })
    req.once('error', reject)
    req.end(text)
  })
}

function getJson(url, headers) {
  return new Promise((resolve, reject) => {
    request(url, { agent, headers }, (res) => {
      let data = ''
      res.setEncoding('utf8').on('data', (chunk) => (data += chunk))
      res.once('end', () => resolve(JSON.parse(data)))
    }).once('error', reject).end()
  })
}

/** Forks a server script; resolves with the child and the first message it sends (its url). */
function startChild(script, init, args = []) {
  const child = fork(fileURLToPath(new URL(script, import.meta.url)), args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  if (init !== undefined) child.send(init)
  return new Promise((resolve, reject) => {
    child.once('message', (ready) => resolve({ child, url: ready.url }))
    child.once('exit', (code) => reject(new Error(`${script} exited with code ${code} before it was ready`)))
  })
}

const ask = (child, message) => new Promise((resolve) => (child.once('message', resolve), child.send(message)))
/** The child's CPU so far in ms: [user, system]. */
const cpuMsOf = async (child) => {
  const { user, system } = await ask(child, 'cpu')
  return [user / 1000, system / 1000]
}

function stopChild(child) {
  if (child.exitCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
    child.once('exit', () => (clearTimeout(timer), resolve()))
    child.send('stop')
  })
}

/** One advance: ms from sending it until the last subscriber has one message per pair. */
async function timeAdvance(side, pairCount) {
  let remaining = side.subscribers.length
  let finished = 0
  const delivered = new Promise((resolve) => {
    for (const subscriber of side.subscribers) {
      subscriber.expect(pairCount, () => {
        if (--remaining === 0) resolve((finished = performance.now()))
      })
    }
  })
  let timer
  const stuck = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${side.name}: ${remaining} of ${side.subscribers.length} subscribers still lack the tick after ${ROUND_TIMEOUT_MS} ms`)), ROUND_TIMEOUT_MS)
  })
  const cpu = process.cpuUsage()
  const started = performance.now()
  await Promise.race([Promise.all([side.advance(), delivered]), stuck]).finally(() => clearTimeout(timer))
  const used = process.cpuUsage(cpu)
  side.clientCpuMs += (used.user + used.system) / 1000
  return finished - started
}

/** What a checked round must show: every subscriber got the same bytes, one price per pair, in order, of one tick. */
function checkRound(side, pairs) {
  const first = side.subscribers[0].received
  const messages = first.map((text) => JSON.parse(text))
  const problem =
    messages.length !== pairs.length ? `${messages.length} messages instead of ${pairs.length}`
    : messages.some((m, i) => m.type !== 'price' || m.pair !== pairs[i]) ? `not one price per pair in order: ${first.join(' ')}`
    : new Set(messages.map((m) => m.timestamp)).size !== 1 ? 'prices of different ticks'
    : side.subscribers.some((s) => s.received.join('\n') !== first.join('\n')) ? 'subscribers received different bytes'
    : undefined
  if (problem) throw new Error(`${side.name}: ${problem}`)
  side.tickBytes = first.reduce((sum, text) => sum + Buffer.byteLength(text), 0)
  for (const subscriber of side.subscribers) subscriber.received = []
}

const sandbox = await startChild('./stream-sandbox.mjs')
const { data: quotes } = await getJson(`${sandbox.url}/v1/prices`, { authorization: `Bearer ${KEY}` })
const pairs = quotes.map((quote) => quote.pair)
const anchor = await startChild('./stream-anchor.mjs', quotes)
const floor = await startChild('./stream-anchor.mjs', quotes, ['--floor'])
const bare = (name, { child, url }) => ({ name, child, streamUrl: url.replace(/^http/, 'ws'), advance: () => post(`${url}/advance`, {}) })
const sides = [
  { name: 'sandbox', child: sandbox.child, streamUrl: `${sandbox.url.replace(/^http/, 'ws')}/v1/stream`, advance: () => post(`${sandbox.url}/_sandbox/clock/advance`, { ms: 1000 }, { authorization: `Bearer ${KEY}` }) },
  bare('anchor (bare ws)', anchor),
  bare('floor (one write)', floor),
]
try {
  for (const side of sides) {
    side.subscribers = await subscribeMany(side.streamUrl, pairs, CLIENTS)
    for (const subscriber of side.subscribers) subscriber.received = []
    side.times = []
    side.clientCpuMs = 0
  }
  for (let round = 0; round < CHECKED_ROUNDS; round++) {
    for (const side of sides) {
      await timeAdvance(side, pairs.length)
      checkRound(side, pairs)
    }
  }
  for (const side of sides) for (const subscriber of side.subscribers) subscriber.keepText = false
  for (const side of sides) {
    side.cpuBefore = await cpuMsOf(side.child)
    side.clientCpuMs = 0
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
      side.times.push(await timeAdvance(side, pairs.length))
      await pause(5)
    }
  }
  for (const side of sides) {
    const [user, system] = await cpuMsOf(side.child)
    side.userMs = (user - side.cpuBefore[0]) / ROUNDS
    side.systemMs = (system - side.cpuBefore[1]) / ROUNDS
    Object.assign(side, { median: percentile(side.times, 50), p99: percentile(side.times, 99), max: Math.max(...side.times) })
  }

  const ms = (value, digits = 1) => `${fixed(value, digits)} ms`
  const row = (side) => [side.name, ms(side.median), ms(side.p99), ms(side.max), ms(side.userMs, 2), ms(side.systemMs, 2), ms(side.clientCpuMs / ROUNDS, 2), side.tickBytes]
  const x = (value) => `${fixed(value, 2)}×`
  const ratio = (side, base) => [`${side.name.split(' ')[0]} / ${base.name.split(' ')[0]}`, x(side.median / base.median), x(side.p99 / base.p99), x(side.max / base.max), x(side.userMs / base.userMs), x(side.systemMs / base.systemMs), '', '']
  const [ours, theirs, least] = sides
  printTable(
    `Stream fan-out: ${CLIENTS} subscribers × ${pairs.length} pairs, ${ROUNDS} advances of 1 s per server (advance sent → last subscriber has every pair's tick)`,
    ['server', 'median', 'p99', 'max', 'server CPU per advance: user', 'system', 'subscribers\' CPU per advance', 'bytes per subscriber per tick'],
    [...sides.map(row), ratio(ours, theirs), ratio(least, theirs), ratio(ours, least)],
  )
  const met = ours.median / least.median <= TARGET
  console.log(`target: sandbox median ≤ ${TARGET}× the floor's (one pre-built write per socket): ${met ? 'met' : 'missed'} (${x(ours.median / least.median)}; p99 ${x(ours.p99 / least.p99)}, max ${x(ours.max / least.max)})\n`)
  if (!met && process.env.BENCH_STRICT === '1') process.exitCode = 1
} finally {
  for (const side of sides) for (const subscriber of side.subscribers ?? []) subscriber.close()
  await Promise.all(sides.map((side) => stopChild(side.child)))
  agent.destroy()
}
