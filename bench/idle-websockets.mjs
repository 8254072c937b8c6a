// The last part of `npm run bench:hostile`: idle WebSocket connections to the sandbox's stream (issue
// 16). No anchor here: a bare node:http server has no stream. The sandbox's RSS before, with them
// connected and 10 s after they left, and the normal client's latency meanwhile.
import { readFileSync } from 'node:fs'
import WebSocket from 'ws'
import { probe } from './hostile-probe.mjs'
import { fixed, percentile, printTable } from './lib.mjs'

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024

export async function measureIdleWebSockets(server, count) {
  const { port, child } = server
  const cells = (latencies) => [fixed(percentile(latencies, 50), 2), fixed(percentile(latencies, 99), 2), fixed(latencies.reduce((a, b) => Math.max(a, b), 0), 1)]
  const idle = await probe(port, 5)
  const before = rssMb(child.pid)
  const sockets = []
  for (let i = 0; i < count; i += 500) {
    await Promise.all(Array.from({ length: Math.min(500, count - i) }, () => new Promise((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/v1/stream`)
      ws.once('open', resolve).once('error', reject)
      sockets.push(ws)
    })))
  }
  await pause(2000)
  const connected = rssMb(child.pid)
  const during = await probe(port, 5)
  for (const ws of sockets) ws.terminate()
  await pause(10_000)
  printTable(
    `${count} idle WebSockets (sandbox RSS in MB; the normal client's GET /v1/wallets in ms, 5 s before and 5 s with them connected)`,
    ['RSS before', 'RSS connected', 'RSS 10 s after', 'KB per connection', 'p50 before', 'p99 before', 'max before', 'p50 during', 'p99 during', 'max during'],
    [[fixed(before, 1), fixed(connected, 1), fixed(rssMb(child.pid), 1), fixed(((connected - before) * 1024) / count, 1), ...cells(idle), ...cells(during)]],
  )
}
