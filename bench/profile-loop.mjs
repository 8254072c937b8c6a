// Where one lifecycle's server CPU goes (issue 33): runs the sandbox from dist/ (the tsc output,
// one file per module, so that every sample can be named by its file) under `node --cpu-prof`,
// drives the users' loop against it (bench/loop-driver.mjs) or autocannon against one endpoint, and
// sorts the profile's samples of the measured part into the parts of a request: each sample goes to
// the innermost frame on its stack that belongs to a part (src/http/middleware/body.ts is parsing,
// zod and src/schemas/ validation, and so on: PARTS below); samples with no such frame are node's own
// HTTP server (its parser, sockets, timers), and the garbage collector is a part of its own.
//
//   node bench/profile-loop.mjs                      # 2,000 lifecycles (1 client), µs per lifecycle
//   node bench/profile-loop.mjs get 20000            # GET /v1/wallets/{id}/balance, µs per request
//   node bench/profile-loop.mjs post 20000           # POST /v1/payments, µs per request
//   PROFILE_CLIENTS=8 PROFILE_EACH=25 node bench/profile-loop.mjs   # bench:loop's 8 x 25 shape, fresh keys each 25
//   PROFILE_KEEP=/tmp/p node bench/profile-loop.mjs  # keeps the .cpuprofile (for Chrome's DevTools)
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { closeLoopClients, prepareLoopClient, runLoop, startLoopReceiver } from './loop-driver.mjs'
import { FIXTURE, ROOT, fetchJson, freePort, spawnNode, stop, waitUntilAnswering } from './lib.mjs'

const MODE = process.argv[2] ?? 'loop'
const COUNT = Number(process.argv[3] ?? (MODE === 'loop' ? 2000 : 20000))
const WARMUP = MODE === 'loop' ? 300 : 3000
const KEY = 'sk_test_sandbox_default_key'

/** The parts of a request, first match wins, tried on each frame from the innermost out. */
const PARTS = [
  ['webhook signing', (f) => /\/(standard-webhooks|events\/signing)\.js$/.test(f.url)],
  ['webhook sending', (f) => /\/events\/(webhooks|webhook-http|webhook-response|webhook-target|first-attempts|delivery-log|delivery-ids|retry-schedule|work-tracker)\.js$/.test(f.url)],
  ['event log', (f) => /\/events\/(event-log|event-ring|publisher|bus|order-json)\.js$|\/long-polls\.js$/.test(f.url)],
  ['request journal', (f) => /\/control\/(request-journal|journal-ring|request-capture|byte-segments)\.js$/.test(f.url)],
  ['logging', (f) => /\/(logger|http\/middleware\/request-log)\.js$/.test(f.url)],
  ['data file', (f) => /\/store\/(file-store|journal-writer|journal-patches|snapshot-|lines|codec|short-forms)/.test(f.url)],
  ['store indexes', (f) => /\/store\/(facet-|payment-index|id-table|route-cache|ordinal-list|order-index|resting-book|settlement-index)/.test(f.url)],
  ['store (apply, postings log)', (f) => /\/store\//.test(f.url)],
  ['validation (zod, schemas)', (f) => /\/node_modules\/zod\/|\/schemas\//.test(f.url)],
  ['parsing (body, JSON)', (f) => /\/http\/middleware\/body\.js$/.test(f.url)],
  ['authentication', (f) => /\/access\//.test(f.url)],
  ['idempotency, faults, rate limit', (f) => /\/http\/middleware\/(idempotency|faults|rate-limit|signature)\.js$|\/ledger\/idempotency-records\.js$/.test(f.url)],
  ['presenting (records → wire)', (f) => /\/ledger\/present/.test(f.url)],
  ['ledger and lifecycle', (f) => /\/(ledger|lifecycle|market)\//.test(f.url)],
  ['answering (serialise, headers, write)', (f) => /\/http\/respond\.js$/.test(f.url)],
  ['routing and pipeline (src/http)', (f) => /\/http\/|\/node_modules\/express\/|\/node_modules\/router\//.test(f.url)],
  ['clock, ids, rng', (f) => /\/(clock|ids|rng|errors)\.js$/.test(f.url)],
  ['the limit (bench/fixtures)', (f) => f.url.includes('/bench/fixtures/')],
  ['other sandbox code', (f) => f.url.startsWith('file://') && !f.url.includes('/node_modules/')],
  ['other packages', (f) => f.url.includes('/node_modules/')],
]
const GC = 'garbage collector'
const KERNEL_WRITES = 'socket writes (writev: the kernel, loopback TCP)'
const NATIVE = 'native, outside JavaScript (libuv, llhttp, syscalls)'
const NODE = 'node:http itself (parser, sockets, timers)'

const profileDir = process.env.PROFILE_KEEP ?? mkdtempSync(join(tmpdir(), 'wallet-sandbox-profile-'))
const port = await freePort()
const entry = `import('${ROOT}dist/cli/main.js').then((cli) => cli.main(['node', 'wallet-sandbox', ...process.argv.slice(1).filter((arg) => arg !== '--')]))`
// PROFILE_LIMIT=1: the limit instead, for comparison: the loop's floor (bench/fixtures/loop-floor.mjs),
// or for get and post the bare node:http server (bench/fixtures/bare-http.mjs).
const child = process.env.PROFILE_LIMIT
  ? spawnNode('--cpu-prof', ['--cpu-prof-dir', profileDir, FIXTURE(MODE === 'loop' ? 'loop-floor.mjs' : 'bare-http.mjs'), '--port', String(port)])
  : spawnNode('--cpu-prof', ['--cpu-prof-dir', profileDir, '--input-type=module', '-e', entry, '--', '--port', String(port), '--clock', 'manual', '--settle', 'manual', '--rate-limit', '0', '--quiet'])
await waitUntilAnswering(child, port, '/_sandbox/health', { intervalMs: 20 })
const base = `http://127.0.0.1:${port}`

/** The driver for the mode; resolves with the [start, end] windows of the measured part on the monotonic clock, in µs. */
async function drive() {
  if (MODE === 'loop') {
    // PROFILE_CLIENTS=n: n clients on n fresh keys in parallel (bench:loop's 8 × 25 shape), each doing
    // PROFILE_EACH lifecycles (default: COUNT / n), again on fresh keys until COUNT are done; only the
    // lifecycles are in the measured windows, not the keys' accounts and endpoints made before them.
    const clientCount = Number(process.env.PROFILE_CLIENTS ?? 1)
    const each = Number(process.env.PROFILE_EACH ?? Math.ceil(COUNT / clientCount))
    const receiver = await startLoopReceiver()
    let keys = 0
    const windows = []
    const run = async (n, measured) => {
      for (let done = 0; done < n; done += clientCount * each) {
        const clients = await Promise.all(Array.from({ length: clientCount }, () => keys++).map((key) => prepareLoopClient(base, receiver, key, `sk_test_profile_${key}`)))
        try {
          const started = monotonicMicros()
          await runLoop(clients, Math.min(each, Math.ceil((n - done) / clientCount)))
          if (measured) windows.push([started, monotonicMicros()])
        } finally {
          closeLoopClients(clients)
        }
      }
    }
    await run(WARMUP, false)
    await run(COUNT, true)
    await receiver.close()
    return windows
  }
  const auth = { authorization: `Bearer ${KEY}` }
  const wallets = await fetchJson(port, '/v1/wallets?type=institutional&network=polygon&currency=USDC', { headers: auth })
  const source = process.env.PROFILE_LIMIT ? 'wal_bare' : wallets.body.data[0].id
  const request = MODE === 'get'
    ? { url: `${base}/v1/wallets/${source}/balance`, headers: auth }
    : { url: `${base}/v1/payments`, method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ amount: '0.000001', currency: 'USDC', source_wallet: source, recipient: '0x52908400098527886e0f7030069857d2e4169ee7', description: 'bench' }) }
  await autocannon({ ...request, connections: 10, amount: WARMUP })
  const started = monotonicMicros()
  const result = await autocannon({ ...request, connections: 10, amount: COUNT })
  const ended = monotonicMicros()
  if (result.non2xx + result.errors > 0) throw new Error(`${result.non2xx} non-2xx answers, ${result.errors} errors`)
  return [[started, ended]]
}

/** V8's profile timestamps are CLOCK_MONOTONIC in µs, as is process.hrtime here. */
const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n)

const windows = await drive()
const inWindows = (at) => windows.some(([from, to]) => at >= from && at <= to)
await stop(child)
const file = readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'))
const profile = JSON.parse(readFileSync(join(profileDir, file), 'utf8'))
if (!process.env.PROFILE_KEEP) rmSync(profileDir, { recursive: true, force: true })

const nodes = new Map(profile.nodes.map((node) => [node.id, node]))
for (const node of profile.nodes) for (const childId of node.children ?? []) nodes.get(childId).parent = node
const partOf = new Map()
function classify(node) {
  if (partOf.has(node.id)) return partOf.get(node.id)
  const frame = node.callFrame
  let part
  if (frame.functionName === '(garbage collector)') part = GC
  else if (frame.functionName === '(idle)') part = null
  else if (frame.functionName === '(program)') part = NATIVE
  else if (frame.url === '' && /^(writev|writeUtf8String|writeLatin1String|writeBuffer)$/.test(frame.functionName)) part = KERNEL_WRITES
  else part = PARTS.find(([, test]) => test(frame))?.[0] ?? (node.parent ? classify(node.parent) : NODE)
  if (part === undefined) part = NODE
  partOf.set(node.id, part)
  return part
}

const micros = new Map()
/** PROFILE_DETAIL=n: the n functions with the most self time, with their part. */
const selfMicros = new Map()
/** PROFILE_ENTRIES=n: the n ways into a part (its outermost frame and that frame's caller) with the most time under them. */
const entryMicros = new Map()
const label = (frame) => `${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*\/(dist|node_modules)\//, '')}:${frame.lineNumber + 1}`
let at = profile.startTime
let inWindow = 0
for (let i = 0; i < profile.samples.length; i++) {
  at += profile.timeDeltas[i]
  if (!inWindows(at)) continue
  const delta = profile.timeDeltas[i + 1] ?? 0
  const part = classify(nodes.get(profile.samples[i]))
  if (part === null) continue
  micros.set(part, (micros.get(part) ?? 0) + delta)
  inWindow += delta
  const node = nodes.get(profile.samples[i])
  const name = `${part} | ${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.replace(/^.*\/(dist|node_modules)\//, '')}:${node.callFrame.lineNumber + 1}`
  selfMicros.set(name, (selfMicros.get(name) ?? 0) + delta)
  // Where the part was entered: the outermost frame of the run of frames in this part, and its caller.
  let top = node
  while (top.parent && classify(top.parent) === part) top = top.parent
  const caller = top.parent?.callFrame
  const entry = `${part} | ${label(top.callFrame)} ← ${caller ? label(caller) : '(root)'}`
  entryMicros.set(entry, (entryMicros.get(entry) ?? 0) + delta)
}
if (inWindow === 0) throw new Error('no samples fell in the measured window: the profile clock is not the monotonic clock here')
const unit = MODE === 'loop' ? 'lifecycle' : 'request'
const rows = [...micros].sort((a, b) => b[1] - a[1])
console.log(`${MODE === 'loop' ? `${COUNT} lifecycles` : `${COUNT} ${MODE.toUpperCase()} requests`}: ${(inWindow / 1000).toFixed(0)} ms of server CPU, ${(inWindow / COUNT).toFixed(1)} µs per ${unit}`)
for (const [part, us] of rows) console.log(`${part.padEnd(40)} ${(us / COUNT).toFixed(1).padStart(7)} µs  ${((us / inWindow) * 100).toFixed(1).padStart(5)} %`)
if (process.env.PROFILE_DETAIL) {
  console.log('\nfunctions with the most self time:')
  for (const [name, us] of [...selfMicros].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.PROFILE_DETAIL))) console.log(`${(us / COUNT).toFixed(1).padStart(7)} µs  ${name}`)
}
if (process.env.PROFILE_ENTRIES) {
  console.log('\nways into each part (outermost frame ← its caller):')
  for (const [name, us] of [...entryMicros].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.PROFILE_ENTRIES))) console.log(`${(us / COUNT).toFixed(1).padStart(7)} µs  ${name}`)
}
