// `npm run bench:hostile`: what hostile clients cost a normal client, against an anchor (issue 22).
// The sandbox's CLI and a bare node:http server (bench/hostile-anchor.mjs, the same two routes with
// the same bytes) run side by side in child processes, and go through each round together: probed
// idle, then each attacked by `--slowloris` connections that never finish their headers plus
// `--readers` clients that pipeline `--depth` × GET /v1/openapi.json and never read (its own
// bench/hostile-attackers.mjs process; with `--reconnect` it opens again what the server closes)
// while the probe goes on; then the attackers leave. The probe is a normal client
// (bench/hostile-probe.mjs) asking GET /v1/wallets: p50, p99 and max matter, the p50 hides a
// stall. RSS is each server's, from /proc: before, at the peak of the attack, and `--after` seconds
// later. Then, unless `--websockets 0`, the sandbox's idle WebSockets (bench/idle-websockets.mjs).
import { fork } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { Agent } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { get, probe } from './hostile-probe.mjs'
import { measureIdleWebSockets } from './idle-websockets.mjs'
import { fixed, percentile, printTable, SANDBOX_BIN, startServer } from './lib.mjs'

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '15' },
    after: { type: 'string', default: '10' },
    slowloris: { type: 'string', default: '200' },
    readers: { type: 'string', default: '200' },
    depth: { type: 'string', default: '10' },
    websockets: { type: 'string', default: '10000' },
    reconnect: { type: 'boolean', default: false },
  },
})
const ANCHOR = fileURLToPath(new URL('./hostile-anchor.mjs', import.meta.url))
const ATTACKERS = fileURLToPath(new URL('./hostile-attackers.mjs', import.meta.url))
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024

/** Starts the attackers against `port`; resolves once all their connections sent their requests. */
function attack(port) {
  const flags = [...['port', 'slowloris', 'readers', 'depth'].flatMap((name) => [`--${name}`, String(name === 'port' ? port : values[name])]), ...(values.reconnect ? ['--reconnect'] : [])]
  const child = fork(ATTACKERS, flags, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  const stop = () => new Promise((resolve) => {
    child.once('message', (message) => resolve(message.counts))
    child.send('stop')
  })
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve({ stop }))
    child.once('exit', (code) => reject(new Error(`the attackers exited with ${code} before they were ready`)))
  })
}

/**
 * One round, both servers at once so that both meet the same moments of a shared machine: the
 * probe idle, then each server attacked by its own attackers with the probe going on, then the
 * attackers leave and RSS is read `--after` seconds later.
 */
async function round(servers) {
  const names = Object.keys(servers)
  /** `work(server, name)` for both servers at once; the results by name. */
  const both = async (work) => {
    const results = await Promise.all(names.map((name) => work(servers[name], name)))
    return Object.fromEntries(names.map((name, i) => [name, results[i]]))
  }
  await both(({ port }) => probe(port, 1))
  const idle = await both(({ port }) => probe(port, Number(values.seconds)))
  const before = await both(({ child }) => rssMb(child.pid))
  const peak = { ...before }
  const watch = setInterval(() => {
    for (const name of names) peak[name] = Math.max(peak[name], rssMb(servers[name].child.pid))
  }, 100)
  const attackers = await both(({ port }) => attack(port))
  const attacked = await both(({ port }) => probe(port, Number(values.seconds)))
  const counts = await both((_, name) => attackers[name].stop())
  clearInterval(watch)
  await pause(Number(values.after) * 1000)
  const after = await both(({ child }) => rssMb(child.pid))
  return Object.fromEntries(names.map((name) => [name, { idle: idle[name], attacked: attacked[name], before: before[name], peak: peak[name], after: after[name], counts: counts[name] }]))
}

/** The table, a row per server and round, and the spread of the p99 ratio. */
function report(results) {
  const cells = (latencies) => [fixed(percentile(latencies, 50), 2), fixed(percentile(latencies, 99), 2), fixed(latencies.reduce((a, b) => Math.max(a, b), 0), 1)]
  const ratios = results.map((r) => percentile(r.sandbox.attacked, 99) / percentile(r.anchor.attacked, 99))
  const rows = results.flatMap((r, i) => ['sandbox', 'anchor'].map((name) => {
    const m = r[name]
    const { opened, closedByServer, answered408 } = m.counts
    return [name, i + 1, ...cells(m.idle), m.attacked.length, ...cells(m.attacked), name === 'sandbox' ? `${fixed(ratios[i], 2)}×` : '', fixed(m.before, 1), fixed(m.peak, 1), fixed(m.after, 1), `${opened} opened, ${closedByServer} closed by the server, ${answered408} × 408`]
  }))
  printTable(
    `Hostile clients: ${values.slowloris} slowloris + ${values.readers} × ${values.depth} pipelined GET /v1/openapi.json never read; a normal client's GET /v1/wallets in ms (idle, then under attack, ${values.seconds} s each); server RSS in MB (after: ${values.after} s after the attackers left)`,
    ['server', 'round', 'idle p50', 'idle p99', 'idle max', 'answers under attack', 'attack p50', 'attack p99', 'attack max', 'p99 ÷ anchor', 'RSS before', 'RSS peak', 'RSS after', 'attackers'],
    rows,
  )
  const sorted = [...ratios].sort((a, b) => a - b)
  console.log(`p99 under attack, sandbox ÷ anchor: median ${fixed(percentile(sorted, 50), 2)}×, from ${fixed(sorted[0], 2)}× to ${fixed(sorted.at(-1), 2)}× over ${ratios.length} rounds (target ≤ 1.5×)`)
}

const sandbox = await startServer(SANDBOX_BIN, ['--quiet', '--rate-limit', '0'], '/_sandbox/health', { timeoutMs: 120_000 })
const folder = mkdtempSync(join(tmpdir(), 'bench-hostile-'))
let anchor
try {
  // The anchor serves the sandbox's own bytes (the default wallets page and the OpenAPI document).
  const agent = new Agent()
  writeFileSync(join(folder, 'wallets.json'), await get(sandbox.port, agent, '/v1/wallets'))
  writeFileSync(join(folder, 'openapi.json'), await get(sandbox.port, agent, '/v1/openapi.json'))
  agent.destroy()
  anchor = await startServer(ANCHOR, ['--wallets', join(folder, 'wallets.json'), '--openapi', join(folder, 'openapi.json')], '/v1/openapi.json')
  const results = []
  const started = { sandbox: rssMb(sandbox.child.pid), anchor: rssMb(anchor.child.pid) }
  console.log(`RSS at the start: sandbox ${fixed(started.sandbox, 1)} MB, anchor ${fixed(started.anchor, 1)} MB\n`)
  for (let i = 0; i < Number(values.rounds); i++) results.push(await round({ sandbox, anchor }))
  report(results)
  if (Number(values.websockets) > 0) await measureIdleWebSockets(sandbox, Number(values.websockets))
} finally {
  await sandbox.stop()
  await anchor?.stop()
  rmSync(folder, { recursive: true, force: true })
}

