// `npm run bench:hostile`: slow and hostile clients against the CLI in a child process (issue 16).
// Phases, one after the other: 10,000 idle WebSocket connections; 200 clients that pipeline 8
// requests for GET /v1/openapi.json (217 KB) and never read; 1,000 slowloris connections that send
// a header byte now and then. For each: the sandbox's memory (RSS from /proc) before, at the peak
// and 10 s after the clients left, and the latency of GET /v1/wallets/{id}/balance meanwhile.
import { readFileSync } from 'node:fs'
import { connect } from 'node:net'
import { parseArgs } from 'node:util'
import WebSocket from 'ws'
import { fixed, percentile, printTable, SANDBOX_BIN, startServer } from './lib.mjs'

const { values } = parseArgs({ options: { websockets: { type: 'string', default: '10000' }, readers: { type: 'string', default: '200' }, slowloris: { type: 'string', default: '1000' } } })
const KEY = 'sk_test_sandbox_default_key'
const server = await startServer(SANDBOX_BIN, ['--quiet', '--rate-limit', '0', '--send-timeout', '5000', '--headers-timeout', '5000'], '/_sandbox/health', { timeoutMs: 120_000 })
const base = `http://127.0.0.1:${server.port}`
const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.child.pid}/status`, 'utf8'))[1]) / 1024
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

const wallet = (await (await fetch(`${base}/v1/wallets?limit=1`, { headers: { authorization: `Bearer ${KEY}` } })).json()).data[0].id
async function latencies(count) {
  const out = []
  for (let i = 0; i < count; i++) {
    const started = performance.now()
    // A fresh connection each time: the same cost in every phase, and no kept-alive socket that the
    // server closed while this process was too busy to notice.
    const res = await fetch(`${base}/v1/wallets/${wallet}/balance`, { headers: { authorization: `Bearer ${KEY}`, connection: 'close' } })
    await res.arrayBuffer()
    if (res.status !== 200) throw new Error(`latency probe answered ${res.status}`)
    out.push(performance.now() - started)
  }
  return out
}
const latencyCells = (values) => [fixed(percentile(values, 50), 2), fixed(percentile(values, 99), 2)]

/** Runs a phase: `open()` brings the clients, `close()` sends them away; memory and latency around it. */
async function phase(name, open, close) {
  await latencies(100)
  const before = rssMb()
  const quiet = await latencies(300)
  let peak = before
  const watch = setInterval(() => (peak = Math.max(peak, rssMb())), 100)
  const started = performance.now()
  const detail = await open()
  const during = await latencies(300)
  peak = Math.max(peak, rssMb())
  await close()
  clearInterval(watch)
  await pause(10_000)
  const after = rssMb()
  const health = await latencies(100)
  return [name, fixed(before, 1), fixed(peak, 1), fixed(after, 1), ...latencyCells(quiet), ...latencyCells(during), ...latencyCells(health), detail, `${fixed((performance.now() - started) / 1000, 0)} s`]
}

const rows = []
try {
  const websockets = Number(values.websockets)
  const sockets = []
  rows.push(await phase(`${websockets} idle WebSockets`, async () => {
    const rssBefore = rssMb()
    for (let i = 0; i < websockets; i += 500) {
      await Promise.all(Array.from({ length: Math.min(500, websockets - i) }, () => new Promise((resolve, reject) => {
        const ws = new WebSocket(`ws://127.0.0.1:${server.port}/v1/stream`)
        ws.once('open', resolve).once('error', reject)
        sockets.push(ws)
      })))
    }
    await pause(2000)
    return `${fixed(((rssMb() - rssBefore) * 1024) / websockets, 1)} KB per connection`
  }, async () => {
    for (const ws of sockets) ws.terminate()
  }))

  const readers = Number(values.readers)
  const stalled = []
  rows.push(await phase(`${readers} clients that never read (8 × openapi.json each)`, async () => {
    for (let i = 0; i < readers; i++) {
      const socket = connect(server.port, '127.0.0.1')
      socket.on('error', () => {})
      socket.pause()
      socket.write('GET /v1/openapi.json HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(8))
      stalled.push(socket)
    }
    // The server gives up on each after --send-timeout (5 s here); a write tells the client so.
    const cut = await Promise.all(stalled.map((socket) => new Promise((resolve) => {
      const poke = setInterval(() => socket.write('\r\n'), 500)
      const limit = setTimeout(() => resolve(false), 120_000)
      socket.once('close', () => {
        clearInterval(poke)
        clearTimeout(limit)
        resolve(true)
      })
    })))
    return `${cut.filter(Boolean).length} of ${readers} cut by the server`
  }, async () => {
    for (const socket of stalled) socket.destroy()
  }))

  const slow = Number(values.slowloris)
  const loris = []
  rows.push(await phase(`${slow} slowloris connections`, async () => {
    const answers = []
    for (let i = 0; i < slow; i++) {
      const socket = connect(server.port, '127.0.0.1')
      socket.on('error', () => {})
      let text = ''
      socket.on('data', (chunk) => (text += chunk))
      answers.push(new Promise((resolve) => socket.once('close', () => resolve(text))))
      socket.write('GET /v1/wallets HTTP/1.1\r\nHost: x\r\nX-Slow: ')
      const drip = setInterval(() => socket.write('a'), 1000)
      socket.once('close', () => clearInterval(drip))
      loris.push(socket)
      if (i % 200 === 199) await pause(20)
    }
    const texts = await Promise.all(answers)
    return `${texts.filter((t) => t.startsWith('HTTP/1.1 408')).length} of ${slow} answered 408 and closed`
  }, async () => {
    for (const socket of loris) socket.destroy()
  }))
} finally {
  await server.stop()
}
printTable(
  'Slow and hostile clients (sandbox RSS in MB; latency of GET /v1/wallets/{id}/balance in ms, p50 and p99, before, during and 10 s after)',
  ['phase', 'RSS before', 'RSS peak', 'RSS after', 'p50 before', 'p99 before', 'p50 during', 'p99 during', 'p50 after', 'p99 after', 'what happened', 'time'],
  rows,
)
