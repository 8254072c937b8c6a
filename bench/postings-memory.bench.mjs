// Memory of the postings log (issue 12's budget: ~250 bytes per payment at 1,000,000 payments). Each
// payment posts what a real one does: two transactions (created, completed) of two lines each, ETH
// amounts beyond 64 bits, on ten wallets; the heap and array buffers are measured after a forced GC.
// Also shows the append rate and the time to recompute every balance from the postings.
//
// Knobs: BENCH_PAYMENTS (1,000,000), BENCH_STRICT=1 (exit 1 when the budget is missed).
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { fixed, printTable } from './lib.mjs'
import { PostingsLog } from '../dist/store/postings-log.js'

const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 1_000_000)
const BUDGET = 250

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc')
const used = () => {
  gc()
  const { heapUsed, arrayBuffers } = process.memoryUsage()
  return heapUsed + arrayBuffers
}

const wallets = Array.from({ length: 10 }, (_, i) => `wal_${String(i).padStart(24, 'w')}`)
// The payment ids exist anyway (the payment records hold them); the log only points at them.
const ids = Array.from({ length: PAYMENTS }, (_, i) => `pay_${String(i).padStart(24, '0')}`)

const before = used()
const log = new PostingsLog()
const started = performance.now()
let at = Date.parse('2026-01-01T00:00:00.000Z')
for (let i = 0; i < PAYMENTS; i++) {
  const wallet = wallets[i % wallets.length]
  const amount = 12_500_000_000_000_000_000n + BigInt(i)
  log.append('payment.created', ids[i], at, [{ account: `${wallet}:available`, amount: -amount }, { account: `${wallet}:locked`, amount }])
  log.append('payment.completed', ids[i], at + 1000, [{ account: `${wallet}:locked`, amount: -amount }, { account: 'external:ethereum:ETH', amount }])
  at += 10
}
const appendMs = performance.now() - started
const perPayment = (used() - before) / PAYMENTS

const recomputeStarted = performance.now()
log.balances()
const recomputeMs = performance.now() - recomputeStarted

const pass = perPayment <= BUDGET
printTable(`Postings log, ${PAYMENTS.toLocaleString('en')} payments (${(2 * PAYMENTS).toLocaleString('en')} transactions, ${(4 * PAYMENTS).toLocaleString('en')} postings)`, ['measure', 'value', 'target', 'result'], [
  ['bytes per payment', fixed(perPayment), `≤ ${BUDGET}`, pass ? 'pass' : 'MISS'],
  ['appends per second', Math.round((2 * PAYMENTS) / (appendMs / 1000)), '', ''],
  ['recompute every balance (ms)', fixed(recomputeMs, 0), '', ''],
])
if (!pass && process.env.BENCH_STRICT === '1') process.exit(1)
