// Child process of bench/scale.bench.mjs: one sandbox (in memory, or on a data file), optionally
// seeded with N payments, then serving on port 0. Reports on stdout, one JSON line.
//
// Payments are created through the ledger as POST /v1/payments creates them, without HTTP: each
// is one change set (the payment, its source wallet and the transaction locking its amount),
// journaled with a data file, and half of them are completed (two more change sets, processing
// then completed, and one more transaction each). So the data file is what a million requests would leave, postings included.
//
// --compact: a compaction once seeded, the event loop's longest hold during it measured.
// --fill-journal: then as many more payments as the journal takes before the next compaction
// would start (99 % of its limit): the longest journal a start-up can meet.
import { closeSync, openSync, readSync, statSync } from 'node:fs'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { generateAddress } from '../dist/chain/networks.js'
import { loadConfig } from '../dist/config.js'
import { decimalsOf } from '../dist/ledger/present.js'
import { formatAmount } from '../dist/money.js'
import { createRng } from '../dist/rng.js'
import { createSandbox } from '../dist/sandbox.js'
import { journalLimits } from '../dist/store/file-store.js'

const { values } = parseArgs({ options: { seed: { type: 'string', default: '0' }, 'data-file': { type: 'string' }, compact: { type: 'boolean', default: false }, 'fill-journal': { type: 'boolean', default: false } } })
const report = (fields) => process.stdout.write(`${JSON.stringify(fields)}\n`)
const rss = () => {
  global.gc?.()
  return process.memoryUsage().rss
}

const started = performance.now()
const config = loadConfig({ flags: { port: 0, quiet: true, settle: 'manual', rateLimit: 0, clock: 'manual', ...(values['data-file'] ? { dataFile: values['data-file'] } : {}) } })
const sandbox = await createSandbox(config)
const openMs = performance.now() - started
const { store } = sandbox
const account = sandbox.accounts.ensureDefault()
const baseRss = rss()

const wallets = [...account.wallets.values()].filter((w) => w.type === 'institutional')
const rng = createRng('scale-bench')
const recipients = new Map(wallets.map((w) => [w.id, Array.from({ length: 50 }, () => generateAddress(w.network, rng))]))
let created = 0

/** `count` more payments spread over the treasury wallets, to a few hundred addresses; every other one completed. */
async function create(count) {
  const { payments } = sandbox.services
  for (let i = 0; i < count; i++, created++) {
    const source = wallets[created % wallets.length]
    const amount = formatAmount(1n + BigInt(created % 97), decimalsOf(source))
    const payment = payments.create(account, { amount, currency: source.currency, source_wallet: source.id, recipient: recipients.get(source.id)[created % 50], metadata: {} })
    if (created % 2 === 0) payments.complete(account, payment)
    // The journal's batches and a compaction's slices run between these.
    if (i % 500 === 499) await new Promise((resolve) => setImmediate(resolve))
  }
}

const total = Number(values.seed)
let seedMs = 0
if (total > 0) {
  const t = performance.now()
  await create(total)
  seedMs = performance.now() - t
  await store.flush()
}
let compactMs = 0
let compactStallMs = 0
if (values.compact) {
  // The longest the event loop was held during the compaction: what a request would have waited.
  const delay = monitorEventLoopDelay({ resolution: 1 })
  delay.enable()
  const t = performance.now()
  await store.compact()
  compactMs = performance.now() - t
  delay.disable()
  compactStallMs = delay.max / 1e6
}
let journal
if (values['fill-journal']) {
  const file = values['data-file']
  const [header] = linesAt(file, 0)
  const trailer = linesAt(file, statSync(file).size - 4096).at(-1)
  const limits = journalLimits({ bytes: statSync(file).size, records: JSON.parse(trailer).records })
  const journalFile = `${file}.journal.${JSON.parse(header).journal}`
  let lines = 0
  const full = () => statSync(journalFile).size >= 0.99 * limits.bytes - 2_000_000
  // A payment is one change set, and completing one two more (processing, then completed): 2,000 lines a thousand payments.
  while (!full() && lines < 0.99 * limits.lines - 2000) {
    await create(1000)
    lines += 2000
    await store.flush()
  }
  journal = { lines, bytes: statSync(journalFile).size, limits, limitedBy: full() ? 'bytes' : 'change sets' }
}
const { url } = await sandbox.listen()
// From the process's start to serving, and its CPU until then: before rss() below, whose forced GC is the bench's, not the sandbox's.
const servingMs = process.uptime() * 1000
const { user, system } = process.cpuUsage()
report({ url, openMs, seedMs, compactMs, compactStallMs, payments: account.payments.size, servingMs, servingCpuMs: (user + system) / 1000, rss: rss(), baseRss, journal })
process.on('SIGTERM', async () => {
  await sandbox.close()
  process.exit(0)
})

/** The whole lines in 4 KB of a file from `position` on. */
function linesAt(file, position) {
  const fd = openSync(file, 'r')
  const buffer = Buffer.alloc(4096)
  const read = readSync(fd, buffer, 0, buffer.length, Math.max(0, position))
  closeSync(fd)
  return buffer.toString('utf8', 0, read).split('\n').filter((line) => line.startsWith('{'))
}
