// Fan-out of the WebSocket stream: N clients subscribed to the same pairs at the default tick
// (1 s of real time), measured for a few seconds.
//
// The sandbox runs in a child process (this file, started with --server) so that the clients' work
// does not count as the server's: its CPU comes from the child's own process.cpuUsage(), read over
// IPC at the start and the end of the window. The delay is measured per delivered message: receive
// time (this process's wall clock) minus the message's `timestamp`, which with a real clock is the
// wall-clock time of the tick it belongs to. Both processes read the same system clock, so the
// delay includes the timer's lateness, the server's fan-out and the loopback, and also the time the
// client process takes to get to the message (its CPU is printed too, to tell when it is the limit).
//
// Knobs: BENCH_STREAM_CLIENTS (1000), BENCH_STREAM_PAIRS (10), BENCH_DURATION (10 s).
import { fork } from 'node:child_process'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import WebSocket from 'ws'
import { fixed, percentile, printTable } from './lib.mjs'

const CLIENTS = Number(process.env.BENCH_STREAM_CLIENTS ?? 1000)
const PAIR_COUNT = Number(process.env.BENCH_STREAM_PAIRS ?? 10)
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10)
const CONNECT_BATCH = 100

if (process.argv.includes('--server')) await serve()
else await main()

/** Child: a sandbox on a free port with a real clock, answering IPC questions about its own process. */
async function serve() {
  const { loadConfig } = await import('../dist/config.js')
  const { createSandbox } = await import('../dist/sandbox.js')
  const { silentLogger } = await import('../dist/logger.js')
  const { monitorEventLoopDelay } = await import('node:perf_hooks')
  const config = loadConfig({ flags: { port: 0, quiet: true, rateLimit: 0, settle: 'manual', clock: 'real', priceInterval: 1000 } })
  const sandbox = await createSandbox(config, { logger: silentLogger })
  const { url } = await sandbox.listen()
  const loopDelay = monitorEventLoopDelay({ resolution: 10 })
  process.on('message', async (message) => {
    if (message === 'sample') {
      const { ticks, tickWorkMs, tickLateMs, connections, clients } = sandbox.stream.stats()
      process.send({
        cpu: process.cpuUsage(),
        wallMs: performance.now(),
        rssBytes: process.memoryUsage().rss,
        ticks,
        tickWorkMs,
        tickLateMs,
        connections,
        bufferedBytes: clients.reduce((sum, c) => sum + c.bufferedBytes, 0),
        loopDelayP99Ms: loopDelay.percentile(99) / 1e6,
      })
    } else if (message === 'reset-loop-delay') {
      loopDelay.reset()
      loopDelay.enable()
    } else if (message === 'stop') {
      await sandbox.close()
      process.exit(0)
    }
  })
  const { loadPriceModel } = await import('../dist/stream/prices.js')
  process.send({ url, pairs: loadPriceModel(config.fixtures, config.seed).pairs })
}

function ask(child, message) {
  return new Promise((resolve) => {
    child.once('message', resolve)
    child.send(message)
  })
}

async function main() {
  const child = fork(fileURLToPath(import.meta.url), ['--server'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  const ready = await new Promise((resolve, reject) => {
    child.once('message', resolve)
    child.once('exit', (code) => reject(new Error(`the sandbox exited with code ${code} before it was ready`)))
  })
  const pairs = ready.pairs.slice(0, PAIR_COUNT)
  const streamUrl = `${ready.url.replace(/^http/, 'ws')}/v1/stream`

  let measuring = false
  const delays = []
  let received = 0
  const sockets = []
  const subscribed = []
  const onMessage = (data) => {
    if (!measuring) return
    const text = data.toString()
    const at = text.indexOf('"timestamp":"')
    if (at === -1 || !text.startsWith('{"type":"price"')) return
    const stamp = Date.parse(text.slice(at + 13, at + 37))
    delays.push(performance.timeOrigin + performance.now() - stamp)
    received++
  }
  try {
    for (let start = 0; start < CLIENTS; start += CONNECT_BATCH) {
      const batch = []
      for (let i = start; i < Math.min(CLIENTS, start + CONNECT_BATCH); i++) batch.push(connect(streamUrl, pairs, onMessage, sockets, subscribed))
      await Promise.all(batch)
    }
    await Promise.all(subscribed)

    // Start the window just after a tick, so that it holds whole ticks.
    await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 200))
    child.send('reset-loop-delay')
    const clientCpu0 = process.cpuUsage()
    const before = await ask(child, 'sample')
    measuring = true
    await new Promise((resolve) => setTimeout(resolve, DURATION_S * 1000))
    const after = await ask(child, 'sample')
    measuring = false
    const clientCpu = process.cpuUsage(clientCpu0)

    const windowS = (after.wallMs - before.wallMs) / 1000
    const cpuMs = (after.cpu.user - before.cpu.user + after.cpu.system - before.cpu.system) / 1000
    const ticks = after.ticks - before.ticks
    const expected = ticks * CLIENTS * pairs.length
    printTable(
      `Stream fan-out: ${CLIENTS} clients × ${pairs.length} pairs, 1 s ticks, ${fixed(windowS)} s window (server in its own process)`,
      ['measure', 'value'],
      [
        ['ticks in window', ticks],
        ['price messages received', received],
        ['  of expected (ticks × clients × pairs)', `${fixed((100 * received) / Math.max(1, expected), 1)} %`],
        ['messages per second', Math.round(received / windowS)],
        ['server CPU (ms per second of wall time)', fixed(cpuMs / windowS)],
        ['server CPU per tick (ms)', fixed(cpuMs / Math.max(1, ticks), 2)],
        ['server CPU per message (µs)', fixed((cpuMs * 1000) / Math.max(1, received), 2)],
        ['tick timer lateness, mean (ms)', fixed((after.tickLateMs - before.tickLateMs) / Math.max(1, ticks), 1)],
        ['tick fan-out (quotes + all sends), mean (ms)', fixed((after.tickWorkMs - before.tickWorkMs) / Math.max(1, ticks), 1)],
        ['server event-loop delay p99 (ms)', fixed(after.loopDelayP99Ms, 1)],
        ['server RSS (MB)', fixed(after.rssBytes / 2 ** 20, 1)],
        ['server socket buffers at the end (KB)', fixed(after.bufferedBytes / 1024, 1)],
        ['tick → delivery p50 (ms)', fixed(percentile(delays, 50), 1)],
        ['tick → delivery p99 (ms)', fixed(percentile(delays, 99), 1)],
        ['tick → delivery max (ms)', fixed(Math.max(...delays), 1)],
        ['client process CPU (ms per second)', fixed((clientCpu.user + clientCpu.system) / 1000 / windowS)],
      ],
    )
  } finally {
    for (const socket of sockets) socket.terminate()
    await stopChild(child)
  }
}

function stopChild(child) {
  if (child.exitCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
    child.once('exit', () => {
      clearTimeout(timer)
      resolve()
    })
    child.send('stop')
  })
}

function connect(url, pairs, onMessage, sockets, subscribed) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url)
    sockets.push(ws)
    ws.once('error', reject)
    ws.once('open', () => {
      let snapshots = 0
      subscribed.push(
        new Promise((done) => {
          ws.on('message', (data) => {
            if (snapshots < pairs.length) {
              if (data.toString().startsWith('{"type":"price"')) snapshots++
              if (snapshots === pairs.length) done()
              return
            }
            onMessage(data)
          })
        }),
      )
      ws.send(JSON.stringify({ action: 'subscribe', channel: 'prices', pairs }))
      resolve()
    })
  })
}
