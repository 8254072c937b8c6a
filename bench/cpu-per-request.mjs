// Server CPU per request, of two builds side by side (issue 33): each optimisation's figure.
// Starts the CLI of each checkout given (its bin/wallet-sandbox.js, built), then, in turns, drives
// a fixed number of GET /v1/wallets/{id}/balance, POST /v1/payments and payment lifecycles
// (bench/loop-driver.mjs) at each and reads the server's CPU time from /proc before and after.
// CPU time moves far less than requests per second on a shared machine; the turns make drift hit
// both alike. Prints the median, p99 and max of the rounds per build and the medians' ratio.
//
//   node bench/cpu-per-request.mjs /work/before /work/after   # ratio after/before
//   node bench/cpu-per-request.mjs .                            # one build
// Knobs: CPU_ROUNDS (7), CPU_REQUESTS (5,000 per GET or POST round), CPU_LIFECYCLES (300 per round),
// CPU_KINDS (get,post,loop: which of the three to measure), CPU_WARM_LIFECYCLES (50: a sandbox's JIT
// warms up over its first thousand or two lifecycles, so 2000 compares the builds' steady states).
import { loadavg } from 'node:os'
import { resolve } from 'node:path'
import autocannon from 'autocannon'
import { closeLoopClients, LOOP_RECIPIENT, prepareLoopClient, runLoop, startLoopReceiver } from './loop-driver.mjs'
import { cpuMs, fetchJson, percentile, printTable, startServer } from './lib.mjs'

const ROUNDS = Number(process.env.CPU_ROUNDS ?? 7)
const REQUESTS = Number(process.env.CPU_REQUESTS ?? 5000)
const LIFECYCLES = Number(process.env.CPU_LIFECYCLES ?? 300)
const WARM_LIFECYCLES = Number(process.env.CPU_WARM_LIFECYCLES ?? 50)
const KEY = 'sk_test_sandbox_default_key'
const checkouts = process.argv.slice(2).map((dir) => resolve(dir))
if (checkouts.length === 0) throw new Error('usage: node bench/cpu-per-request.mjs <checkout> [<checkout>]')

const receiver = await startLoopReceiver()
const builds = []
for (const dir of checkouts) {
  const server = await startServer(`${dir}/bin/wallet-sandbox.js`, ['--clock', 'manual', '--settle', 'manual', '--rate-limit', '0', '--quiet'], '/_sandbox/health')
  const auth = { authorization: `Bearer ${KEY}` }
  const wallets = await fetchJson(server.port, '/v1/wallets?type=institutional&network=polygon&currency=USDC', { headers: auth })
  const source = wallets.body.data[0].id
  const base = `http://127.0.0.1:${server.port}`
  builds.push({
    dir,
    server,
    get: { url: `${base}/v1/wallets/${source}/balance`, headers: auth },
    post: { url: `${base}/v1/payments`, method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ amount: '0.000001', currency: 'USDC', source_wallet: source, recipient: LOOP_RECIPIENT, description: 'bench' }) },
    base,
  })
}

let run = 0
/** CPU µs per operation of one round. */
async function round(build, kind, warm = false) {
  const count = kind === 'loop' ? LIFECYCLES : REQUESTS
  if (kind === 'loop') {
    const clients = [await prepareLoopClient(build.base, receiver, run, `sk_test_cpu_round_${run++}`)]
    const before = cpuMs(build.server.child.pid)
    await runLoop(clients, warm ? WARM_LIFECYCLES : count)
    const after = cpuMs(build.server.child.pid)
    closeLoopClients(clients)
    return ((after - before) * 1000) / count
  }
  const before = cpuMs(build.server.child.pid)
  const result = await autocannon({ ...build[kind], connections: 10, amount: warm ? 1000 : count })
  const after = cpuMs(build.server.child.pid)
  if (result.non2xx + result.errors > 0) throw new Error(`${kind} at ${build.dir}: ${result.non2xx} non-2xx, ${result.errors} errors`)
  return ((after - before) * 1000) / count
}

const KINDS = (process.env.CPU_KINDS ?? 'get,post,loop').split(',')
const samples = new Map(builds.map((b) => [b, new Map(KINDS.map((k) => [k, []]))]))
const load = loadavg()[0]
try {
  for (const build of builds) for (const kind of KINDS) await round(build, kind, true)
  for (let i = 0; i < ROUNDS; i++) {
    for (const kind of KINDS) {
      for (const build of i % 2 === 0 ? builds : [...builds].reverse()) samples.get(build).get(kind).push(await round(build, kind))
    }
  }
} finally {
  await Promise.all(builds.map((b) => b.server.stop()))
  await receiver.close()
}

const NAMES = { get: 'GET /v1/wallets/{id}/balance', post: 'POST /v1/payments', loop: 'lifecycle (create, complete, 3 webhooks)' }
printTable(
  `Server CPU µs per request (${ROUNDS} rounds, taking turns; ${REQUESTS} requests or ${LIFECYCLES} lifecycles a round; load ${load.toFixed(1)} → ${loadavg()[0].toFixed(1)})`,
  ['what', ...builds.flatMap((b, i) => [`${i === 0 ? 'A' : 'B'} p50`, 'p99', 'max']), ...(builds.length === 2 ? ['B/A (p50)'] : [])],
  KINDS.map((kind) => {
    const cells = builds.flatMap((b) => {
      const list = samples.get(b).get(kind)
      return [percentile(list, 50), percentile(list, 99), Math.max(...list)].map((v) => v.toFixed(0))
    })
    const ratio = builds.length === 2 ? [`${(percentile(samples.get(builds[1]).get(kind), 50) / percentile(samples.get(builds[0]).get(kind), 50)).toFixed(2)}×`] : []
    return [NAMES[kind], ...cells, ...ratio]
  }),
)
console.log(builds.map((b, i) => `${i === 0 ? 'A' : 'B'}: ${b.dir}`).join('\n'))
