import supertest from 'supertest'
import { afterEach, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.js'
import { silentLogger } from '../../src/logger.js'
import { createSandbox, type Sandbox } from '../../src/sandbox.js'
import { institutionalWallet, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

/** Ids per account, and ids across starts (CONTRACT.md section 24). */

const A = 'sk_test_account_ids_a'
const B = 'sk_test_account_ids_b'
const EVM = '0x52908400098527886E0F7030069857D2E4169EE7'

const opened: Array<{ close(): Promise<void> }> = []
afterEach(async () => {
  for (const sandbox of opened.splice(0)) await sandbox.close()
})

/** What one account does and sees, as the raw bytes of every answer. */
async function routine(sb: TestSandbox, between: () => Promise<unknown> = async () => {}): Promise<string[]> {
  const answers: string[] = []
  const keep = async (request: PromiseLike<{ text: string }>) => {
    answers.push((await request).text)
    await between()
  }
  const as = sb.auth(A)
  await keep(sb.api.get('/v1/wallets?limit=3').set(as))
  const treasury = await institutionalWallet(sb, 'polygon', 'USDC', A)
  const payment = sb.api.post('/v1/payments').set(as).send({ amount: '1.50', currency: 'USDC', source_wallet: treasury.id, recipient: EVM })
  const paid = JSON.parse((await payment).text).data
  answers.push(JSON.stringify(paid))
  await between()
  await keep(sb.api.post('/_sandbox/clock/advance').send({ ms: 60_000, api_key: A }))
  await keep(sb.api.get(`/v1/payments/${paid.id}`).set(as))
  await keep(sb.api.post('/v1/wallets').set(as).send({ name: 'mine', currency: 'USDC', network: 'solana' }))
  await keep(sb.api.post('/v1/quotes').set(as).send({ source_currency: 'USDC', destination_currency: 'ETH', source_amount: '10' }))
  await keep(sb.api.get(`/_sandbox/events?api_key=${A}`))
  return answers
}

describe('an account’s answers', () => {
  it('are the same bytes whatever another account does at the same time', async () => {
    const alone = await startTestSandbox({ settle: 'auto', seed: 'account-ids' })
    opened.push(alone)
    const expected = await routine(alone)

    const shared = await startTestSandbox({ settle: 'auto', seed: 'account-ids' })
    opened.push(shared)
    const bTreasury = await institutionalWallet(shared, 'polygon', 'USDC', B)
    // B pays, advances its own clock and sets rules of its own between each of A's requests.
    const busy = () =>
      Promise.all([
        shared.api.post('/v1/payments').set(shared.auth(B)).send({ amount: '0.10', currency: 'USDC', source_wallet: bTreasury.id, recipient: EVM }),
        shared.api.post('/_sandbox/clock/advance').send({ ms: 7_000, api_key: B }),
        shared.api.post('/_sandbox/outcomes').send({ outcome: 'failed', api_key: B }),
        shared.api.post('/v1/wallets').set(shared.auth(B)).send({ name: 'theirs', currency: 'USDC', network: 'solana' }),
      ])
    expect(await routine(shared, busy)).toEqual(expected)
  })
})

describe('ids across starts', () => {
  async function run(flags: Record<string, unknown>): Promise<Set<string>> {
    const sandbox: Sandbox = await createSandbox(loadConfig({ flags: { port: 0, quiet: true, rateLimit: 0, settle: 'manual', ...flags } }), { logger: silentLogger })
    opened.push(sandbox)
    const { url } = await sandbox.listen()
    const api = supertest(url)
    const auth = { Authorization: 'Bearer sk_test_sandbox_default_key' }
    const ids = new Set<string>()
    const wallets = (await api.get('/v1/wallets?type=institutional&network=polygon&currency=USDC').set(auth).expect(200)).body.data
    for (let i = 0; i < 3; i++) {
      const payment = (await api.post('/v1/payments').set(auth).send({ amount: '1.00', currency: 'USDC', source_wallet: wallets[0].id, recipient: EVM }).expect(201)).body
      ids.add(payment.data.id).add(payment.request_id)
    }
    for (const event of (await api.get('/_sandbox/events?api_key=sk_test_sandbox_default_key').expect(200)).body.data) ids.add(event.id)
    ids.add((await api.post('/_sandbox/keys').send({}).expect(201)).body.data.key)
    ids.add(`seeded ${wallets[0].id}`)
    await sandbox.close()
    opened.pop()
    return ids
  }

  it('differ from one start to the next without a seed, under a real clock and in memory; seeded wallets keep theirs', async () => {
    const first = await run({ clock: 'real' })
    const second = await run({ clock: 'real' })
    const repeated = [...first].filter((id) => second.has(id))
    expect(repeated).toEqual([...first].filter((id) => id.startsWith('seeded ')))
    expect(repeated).toHaveLength(1)
  })

  it('repeat with a seed, or with a manual clock', async () => {
    expect(await run({ clock: 'real', seed: '7' })).toEqual(await run({ clock: 'real', seed: '7' }))
    expect(await run({ clock: 'manual' })).toEqual(await run({ clock: 'manual' }))
  })
})
