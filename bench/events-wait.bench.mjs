// Events without a receiver (issue 23's target): how soon `GET /_sandbox/events?wait=` answers once
// the event it waits for exists, under a manual and a real clock (target: within 50 ms). The sandbox
// runs as the CLI in a child process; each round opens a long poll for a payment's failure, then fails
// the payment with a control call, and times from the control call's answer to the long poll's.
// Knob: BENCH_ROUNDS (200).
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { Agent } from 'node:http'
import { fetchJson, fixed, percentile, printTable, SANDBOX_BIN } from './lib.mjs'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200)
const LIMIT_MS = 50
const KEY = 'sk_test_sandbox_default_key'
const auth = { authorization: `Bearer ${KEY}` }

async function startSandbox(args) {
  const child = spawn(process.execPath, [SANDBOX_BIN, '--ready-json', '--quiet', '--port', '0', '--rate-limit', '0', '--settle', 'manual', ...args], { stdio: ['ignore', 'pipe', 'inherit'] })
  const [line] = await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next().then(({ value }) => [value])
  return { child, port: JSON.parse(line).port }
}

async function measure(clock) {
  const { child, port } = await startSandbox(['--clock', clock])
  const agent = new Agent({ keepAlive: true })
  const wallets = await fetchJson(port, '/v1/wallets?currency=USDC&network=polygon&limit=1', { headers: auth, agent })
  const source = wallets.body.data[0].id
  const delays = []
  for (let round = 0; round < ROUNDS; round++) {
    const payment = (await fetchJson(port, '/v1/payments', { method: 'POST', headers: auth, agent, body: { amount: '0.01', currency: 'USDC', source_wallet: source, recipient: '0x52908400098527886E0F7030069857D2E4169EE7' } })).body.data
    let answered
    const poll = fetchJson(port, `/_sandbox/events?api_key=${KEY}&type=payment.failed&object_id=${payment.id}&wait=30000`, { agent: false }).then((res) => {
      answered = performance.now()
      return res
    })
    // The poll is waiting by now: give it a moment to reach the sandbox before the event exists.
    await new Promise((resolve) => setTimeout(resolve, 5))
    await fetchJson(port, `/_sandbox/payments/${payment.id}/fail`, { method: 'POST', agent, body: {} })
    const failedAt = performance.now()
    const res = await poll
    if (res.body.data[0]?.data.object.id !== payment.id) throw new Error(`the long poll answered ${JSON.stringify(res.body).slice(0, 200)}`)
    delays.push(Math.max(0, answered - failedAt))
  }
  agent.destroy()
  child.kill('SIGTERM')
  return delays
}

const rows = []
for (const clock of ['manual', 'real']) {
  const delays = await measure(clock)
  const p99 = percentile(delays, 99)
  rows.push([clock, ROUNDS, fixed(percentile(delays, 50), 2), fixed(p99, 2), fixed(Math.max(...delays), 2), `≤ ${LIMIT_MS}`, Math.max(...delays) <= LIMIT_MS ? 'ok' : 'MISSED'])
}
printTable(
  `Events without a receiver: from a control call's answer to the waiting GET /_sandbox/events answer (node ${process.version})`,
  ['clock', 'rounds', 'p50 ms', 'p99 ms', 'max ms', 'target (max)', 'result'],
  rows,
)
