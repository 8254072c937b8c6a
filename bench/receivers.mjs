// `npm run bench:receivers [-- --events N --timeout MS]`: the hostile receivers of
// bench/receivers-driver.mjs at full length (1,000 events, an hour of sandbox time) against the CLI
// in a child process, and the API's latency (GET /v1/wallets/{id}/balance, one request at a time)
// while nothing is delivered, while the receivers misbehave, and after they recovered.
// Hanging and slow receivers cost the webhook timeout in real time per attempt (attempts to one
// endpoint go one at a time), hence the short --webhook-timeout: 1,000 events × 5 attempts × 2 such
// receivers × 20 ms is over three minutes already.
import { parseArgs } from 'node:util'
import { runHostileReceivers } from './receivers-driver.mjs'
import { fixed, maximum, percentile, printTable, SANDBOX_BIN, startServer } from './lib.mjs'

const { values } = parseArgs({ options: { events: { type: 'string', default: '1000' }, timeout: { type: 'string', default: '20' } } })
const events = Number(values.events)
const SCHEDULE = [5_000, 30_000, 120_000, 600_000, 3_600_000, 3_600_000, 3_600_000]
const args = ['--clock', 'manual', '--settle', 'manual', '--rate-limit', '0', '--quiet', '--webhook-timeout', values.timeout, '--webhook-retries', '5s,30s,2m,10m,1h,1h,1h', '--delivery-log-limit', String(events * 10)]
const server = await startServer(SANDBOX_BIN, args, '/_sandbox/health')
const base = `http://127.0.0.1:${server.port}`
const KEY = 'sk_test_latency_probe'

async function balanceUrl() {
  const res = await fetch(`${base}/v1/wallets?type=institutional&limit=1`, { headers: { authorization: `Bearer ${KEY}` } })
  return `${base}/v1/wallets/${(await res.json()).data[0].id}/balance`
}

/** One request at a time until `stopped()` (or `count` requests), each timed. */
async function measure(url, stopped, count = Infinity) {
  const latencies = []
  while (!stopped() && latencies.length < count) {
    const started = performance.now()
    const res = await fetch(url, { headers: { authorization: `Bearer ${KEY}` } })
    await res.arrayBuffer()
    if (res.status !== 200) throw new Error(`latency probe answered ${res.status}`)
    latencies.push(performance.now() - started)
  }
  return latencies
}

const rows = []
const row = (phase, latencies) => rows.push([phase, latencies.length, fixed(percentile(latencies, 50), 2), fixed(percentile(latencies, 99), 2), fixed(maximum(latencies), 1)])
let report
const started = performance.now()
try {
  const url = await balanceUrl()
  await measure(url, () => false, 200) // warm-up
  row('no deliveries', await measure(url, () => false, 1000))
  report = await runHostileReceivers({
    base,
    events,
    schedule: SCHEDULE,
    during: async (phase, stopped) => {
      if (phase !== 'quiet') row(phase === 'misbehaving' ? 'receivers misbehaving (events, the hour)' : 'receivers recovered (redeliveries)', await measure(url, stopped))
    },
  })
} finally {
  await server.stop()
}
const seconds = fixed((performance.now() - started) / 1000, 0)
printTable(`API latency while webhook receivers misbehave (GET /v1/wallets/{id}/balance, one at a time, ms)`, ['phase', 'requests', 'p50', 'p99', 'max'], rows)
printTable(
  `${events} events × 6 receivers (healthy, down, 500, hang, 1 byte/s, 410) for an hour of sandbox time, then recovered; --webhook-timeout ${values.timeout}; ${seconds} s`,
  ['events', 'endpoints', 'attempts', 'delivered', 'lost', 'duplicated', 'late 2xx redelivered', 'beyond schedule', 'log mismatches'],
  [[report.events, report.endpoints, report.attempts, report.delivered, report.lost, report.duplicated, report.lateAnswersRedelivered, report.beyondSchedule, report.logMismatches]],
)
for (const problem of report.problems) console.error(problem)
if (report.problems.length > 0 || report.lost > 0 || report.duplicated > 0 || report.beyondSchedule > 0 || report.logMismatches > 0) process.exit(1)
