// Kill -9 rounds against the real CLI on one data file (CONTRACT.md section 18): a stream of
// concurrent payments, SIGKILL at a random moment, restart on the same file, and check that every
// acknowledged payment (201 received) is there with a status it could have reached, and that the
// balances add up. Used by test/e2e/kill.test.ts (short) and bench/reliability.mjs (long).
import { spawn } from 'node:child_process'
import { Agent } from 'node:http'
import { fetchJson, ROOT, SANDBOX_BIN } from './lib.mjs'

const KEY = 'sk_test_sandbox_default_key'
const EXTERNAL = '0x52908400098527886E0F7030069857D2E4169EE7'
/** Where each status may have gone since it was acknowledged. */
const REACHABLE = { pending: ['pending', 'processing', 'completed', 'failed'], processing: ['processing', 'completed', 'failed'], completed: ['completed'], failed: ['failed'] }

function startCli(dataFile, durability) {
  const args = [SANDBOX_BIN, '--port', '0', '--data-file', dataFile, '--durability', durability, '--rate-limit', '0', '--settle', 'instant', '--log-format', 'pretty']
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, WALLET_SANDBOX_QUIET: 'false' } })
  let output = ''
  return new Promise((resolve, reject) => {
    const onData = (chunk) => {
      output += chunk
      const match = /listening on (http:\/\/\S+)/.exec(output)
      if (match) {
        child.stdout.off('data', onData)
        child.stdout.resume()
        resolve({ child, url: match[1], output: () => output })
      }
    }
    child.stdout.setEncoding('utf8').on('data', onData)
    child.stderr.setEncoding('utf8').on('data', (chunk) => (output += chunk))
    child.once('exit', (code, signal) => reject(new Error(`the sandbox exited (code ${code}, signal ${signal}) before listening:\n${output}`)))
  })
}

const call = (url, agent, method, path, body) =>
  fetchJson(Number(new URL(url).port), path, { method, agent, body, headers: { authorization: `Bearer ${KEY}` } })

const exited = (child) => (child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', resolve)))

/**
 * The ledger as the snapshot endpoint shows it, checked for conservation and by `checkAccount` (each
 * account's data, e.g. balances recomputed from its postings); answers the default account's payments by id.
 */
async function checkLedger(url, agent, initial, checkAccount) {
  const { body } = await call(url, agent, 'GET', '/_sandbox/snapshot')
  const account = body.data.accounts.find((a) => a.wallets.some((w) => w.id === initial.walletId))
  const wallet = account.wallets.find((w) => w.id === initial.walletId)
  const payments = new Map(account.payments.map((p) => [p.id, p]))
  let open = 0n
  let gone = 0n
  for (const p of account.payments) {
    if (p.source !== wallet.id) continue
    if (p.status === 'pending' || p.status === 'processing') open += BigInt(p.amount_units)
    if (p.status === 'completed') gone += BigInt(p.amount_units)
  }
  const problems = body.data.accounts.flatMap((data) => checkAccount(data).map((problem) => `account ${data.account.id}: ${problem}`))
  if (BigInt(wallet.locked) !== open) problems.push(`wallet ${wallet.id} has ${wallet.locked} locked but its open payments hold ${open}`)
  if (BigInt(wallet.available) + BigInt(wallet.locked) + gone !== initial.units) {
    problems.push(`wallet ${wallet.id}: available ${wallet.available} + locked ${wallet.locked} + completed ${gone} is not the ${initial.units} it started with`)
  }
  return { payments, problems }
}

/**
 * Runs `rounds` rounds; answers what was acknowledged and lost. `strict` losses are failures; under
 * `batched` a lost payment's age (ms between its 201 and the kill) is kept.
 */
export async function runKillRounds({ dataFile, durability, rounds, concurrency = 6, trafficMs = [50, 300], log = () => {}, checkAccount = () => [] }) {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency })
  const known = new Map()
  const result = { rounds, acknowledged: 0, lost: [], problems: [] }
  let initial

  async function verify(url, round, killedAt) {
    const { payments, problems } = await checkLedger(url, agent, initial, checkAccount)
    for (const problem of problems) result.problems.push(`after round ${round}: ${problem}`)
    for (const [id, ack] of known) {
      const stored = payments.get(id)
      if (!stored) {
        result.lost.push({ id, round, ageMs: killedAt - ack.at })
        known.delete(id)
      } else if (!REACHABLE[ack.status].includes(stored.status)) {
        result.problems.push(`after round ${round}: ${id} was acknowledged ${ack.status} but is ${stored.status}`)
      }
    }
  }

  let killedAt = 0
  for (let round = 1; round <= rounds + 1; round++) {
    const { child, url } = await startCli(dataFile, durability)
    try {
      if (!initial) {
        const wallets = (await call(url, agent, 'GET', '/v1/wallets?currency=USDC&type=institutional&limit=100')).body.data
        const treasury = wallets.find((w) => w.network === 'polygon')
        initial = { walletId: treasury.id, units: BigInt(Math.round(Number(treasury.balance) * 100)) * 10_000n }
      } else await verify(url, round - 1, killedAt)
      if (round > rounds) break

      let stopping = false
      const worker = async () => {
        while (!stopping) {
          try {
            const res = await call(url, agent, 'POST', '/v1/payments', { amount: '0.01', currency: 'USDC', source_wallet: initial.walletId, recipient: EXTERNAL })
            if (res.status === 201) {
              known.set(res.body.data.id, { status: res.body.data.status, at: performance.now() })
              result.acknowledged++
            } else if (res.status !== 201) throw new Error(`POST /v1/payments answered ${res.status}: ${JSON.stringify(res.body)}`)
          } catch (error) {
            if (!stopping) throw error
          }
        }
      }
      const workers = Array.from({ length: concurrency }, worker)
      const [min, max] = trafficMs
      await new Promise((resolve) => setTimeout(resolve, min + Math.random() * (max - min)))
      stopping = true
      killedAt = performance.now()
      child.kill('SIGKILL')
      await Promise.all(workers)
      log(`round ${round}: ${known.size} acknowledged so far, ${result.lost.length} lost`)
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill(round > rounds ? 'SIGTERM' : 'SIGKILL')
      }
      await exited(child)
      agent.destroy()
    }
  }
  return result
}
