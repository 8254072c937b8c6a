import { monitorEventLoopDelay } from 'node:perf_hooks'
// Child process of bench/scale.bench.mjs: one sandbox (in memory, or on a data file), optionally
// seeded with N payments through the store's bulk path (change sets of 1,000 payments, as the
// ledger would journal them), then serving on port 0. Reports on stdout, one JSON line per step.
import { parseArgs } from 'node:util'
import { generateAddress } from '../dist/chain/networks.js'
import { loadConfig } from '../dist/config.js'
import { formatAmount } from '../dist/money.js'
import { createRng } from '../dist/rng.js'
import { createSandbox } from '../dist/sandbox.js'
import { put } from '../dist/store/changes.js'

const { values } = parseArgs({ options: { seed: { type: 'string', default: '0' }, 'data-file': { type: 'string' }, compact: { type: 'boolean', default: false } } })
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

/** Payments spread over the treasury wallets, half of them completed, to a few hundred addresses. */
function seed(total) {
  const rng = createRng('scale-bench')
  const wallets = [...account.wallets.values()].filter((w) => w.type === 'institutional')
  const recipients = new Map(wallets.map((w) => [w.id, Array.from({ length: 50 }, () => generateAddress(w.network, rng))]))
  let seq = account.payments.nextSeq()
  const at = sandbox.clock.nowIso()
  for (let done = 0; done < total; ) {
    const changes = []
    const next = new Map()
    for (let i = 0; i < 1000 && done < total; i++, done++) {
      const source = wallets[seq % wallets.length]
      const wallet = next.get(source.id) ?? { ...source }
      const units = 1n + BigInt(seq % 97)
      const completed = seq % 2 === 0
      wallet.available -= units
      if (!completed) wallet.locked += units
      next.set(wallet.id, wallet)
      const id = `pay_${String(seq).padStart(24, '0')}`
      changes.push(put('payment', account.account.id, id, {
        id, seq, amount_units: units, amount: formatAmount(units, decimalsOf(source)), currency: source.currency, network: source.network,
        status: completed ? 'completed' : 'pending', source: source.id, destination: recipients.get(source.id)[seq % 50], destination_type: 'address',
        description: null, metadata: {}, tx_hash: null, failure_code: null, failure_message: null, payout_id: null,
        created_at: at, updated_at: at, completed_at: completed ? at : null, plan: null,
      }))
      seq++
    }
    for (const wallet of next.values()) changes.push(put('wallet', account.account.id, wallet.id, wallet))
    store.apply(changes)
  }
}

function decimalsOf(wallet) {
  return { USDC: wallet.network === 'stellar' ? 7 : 6, USDT: 6, MATIC: 18, ETH: 18, XLM: 7, SOL: 9 }[wallet.currency]
}

const total = Number(values.seed)
let seedMs = 0
if (total > 0) {
  const t = performance.now()
  seed(total)
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
const { url } = await sandbox.listen()
report({ url, openMs, seedMs, compactMs, compactStallMs, payments: account.payments.size, rss: rss(), baseRss })
process.on('SIGTERM', async () => {
  await sandbox.close()
  process.exit(0)
})
