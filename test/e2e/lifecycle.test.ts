import { afterEach, describe, expect, it } from 'vitest'
import { isValidSolanaSignature } from '../../src/chain/solana.js'
import type { SandboxEvent } from '../../src/model/events.js'
import { institutionalWallet, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'
import magic from '../../fixtures/magic.json' with { type: 'json' }
import screening from '../../fixtures/screening.json' with { type: 'json' }

const EXTERNAL: Record<string, string> = {
  polygon: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  ethereum: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
  stellar: 'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7',
  solana: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
}
const CURRENCY: Record<string, string> = { polygon: 'USDC', ethereum: 'USDC', stellar: 'XLM', solana: 'SOL' }

let sb: TestSandbox
afterEach(() => sb?.close())

async function pay(recipient: string, network = 'polygon', extra: Record<string, unknown> = {}) {
  const wallet = await institutionalWallet(sb, network, CURRENCY[network]!)
  const res = await sb.api.post('/v1/payments').set(sb.auth()).send({ amount: '1.00', currency: CURRENCY[network], source_wallet: wallet.id, recipient, ...extra }).expect(201)
  return { payment: res.body.data as { id: string; status: string }, wallet }
}
const getPayment = async (id: string) => (await sb.api.get(`/v1/payments/${id}`).set(sb.auth()).expect(200)).body.data
const advance = (ms: number) => sb.api.post('/_sandbox/clock/advance').send({ ms }).expect(200)
function recordEvents() {
  const events: SandboxEvent[] = []
  sb.sandbox.bus.on('event', (event) => events.push(event))
  return events
}
const typesOf = (events: SandboxEvent[], paymentId: string) => events.filter((e) => (e.data.object as { id: string }).id === paymentId).map((e) => e.type)

describe('settle auto on a manual clock', () => {
  it('moves pending → processing after the screening delay and completes after the network delay', async () => {
    sb = await startTestSandbox({ settle: 'auto' })
    const { payment, wallet } = await pay(EXTERNAL.polygon!)
    await advance(49)
    expect((await getPayment(payment.id)).status).toBe('pending')
    await advance(1)
    expect((await getPayment(payment.id)).status).toBe('processing')
    await advance(599)
    expect((await getPayment(payment.id)).status).toBe('processing')
    await advance(1)
    const done = await getPayment(payment.id)
    expect(done).toMatchObject({ status: 'completed', completed_at: '2026-01-01T00:00:00.650Z' })
    expect(done.tx_hash).toMatch(/^0x[0-9a-f]{64}$/)
    const balance = (await sb.api.get(`/v1/wallets/${wallet.id}/balance`).set(sb.auth())).body.data
    expect(balance).toMatchObject({ available_balance: '999999.00', locked_balance: '0.00', total_balance: '999999.00' })
  })

  it('uses --settle-delay for every network', async () => {
    sb = await startTestSandbox({ settle: 'auto', settleDelay: 10 })
    const { payment } = await pay(EXTERNAL.ethereum!, 'ethereum')
    await advance(60)
    expect((await getPayment(payment.id)).status).toBe('completed')
  })

  it.each([
    ['solana', (hash: string) => isValidSolanaSignature(hash)],
    ['stellar', (hash: string) => /^[0-9a-f]{64}$/.test(hash)],
  ])('gives a completed %s payment a tx_hash in its network format', async (network, isValid) => {
    sb = await startTestSandbox({ settle: 'auto' })
    const { payment } = await pay(EXTERNAL[network]!, network)
    await advance(5000)
    expect(isValid((await getPayment(payment.id)).tx_hash)).toBe(true)
  })
})

describe('settle instant', () => {
  it('settles right after the create response, with the three events in order', async () => {
    sb = await startTestSandbox({ settle: 'instant' })
    const events = recordEvents()
    const succeeded = new Promise<void>((resolve) => sb.sandbox.bus.on('event', (e) => e.type === 'payment.succeeded' && resolve()))
    const { payment } = await pay(EXTERNAL.polygon!)
    await succeeded
    expect(typesOf(events, payment.id)).toEqual(['payment.created', 'payment.processing', 'payment.succeeded'])
    expect((await getPayment(payment.id)).status).toBe('completed')
  })
})

describe('settle manual and control calls', () => {
  it('keeps payments pending however far the clock moves', async () => {
    sb = await startTestSandbox({ settle: 'manual' })
    const { payment } = await pay(EXTERNAL.polygon!)
    await advance(3_600_000)
    expect((await getPayment(payment.id)).status).toBe('pending')
  })

  it('complete on a pending payment passes through processing, and a final payment refuses every control call', async () => {
    sb = await startTestSandbox()
    const events = recordEvents()
    const { payment } = await pay(EXTERNAL.polygon!)
    const res = await sb.api.post(`/_sandbox/payments/${payment.id}/complete`).expect(200)
    expect(res.body.data.status).toBe('completed')
    expect(typesOf(events, payment.id)).toEqual(['payment.created', 'payment.processing', 'payment.succeeded'])
    for (const action of ['process', 'complete', 'fail']) {
      const refused = await sb.api.post(`/_sandbox/payments/${payment.id}/${action}`).expect(409)
      expect(refused.body.error.code).toBe('invalid_state_transition')
    }
  })

  it('process twice is an invalid transition; fail without a body uses network_congestion and releases the funds', async () => {
    sb = await startTestSandbox()
    const { payment, wallet } = await pay(EXTERNAL.polygon!)
    await sb.api.post(`/_sandbox/payments/${payment.id}/process`).expect(200)
    expect((await sb.api.post(`/_sandbox/payments/${payment.id}/process`).expect(409)).body.error.code).toBe('invalid_state_transition')
    const failed = (await sb.api.post(`/_sandbox/payments/${payment.id}/fail`).expect(200)).body.data
    expect(failed).toMatchObject({ status: 'failed', failure_code: 'network_congestion' })
    expect(failed.failure_message).toMatch(/congested/)
    const balance = (await sb.api.get(`/v1/wallets/${wallet.id}/balance`).set(sb.auth())).body.data
    expect(balance).toMatchObject({ available_balance: '1000000.00', locked_balance: '0.00' })
  })

  it('fail takes a failure code and message', async () => {
    sb = await startTestSandbox()
    const { payment } = await pay(EXTERNAL.polygon!)
    const res = await sb.api.post(`/_sandbox/payments/${payment.id}/fail`).send({ failure_code: 'recipient_rejected', failure_message: 'nope' }).expect(200)
    expect(res.body.data).toMatchObject({ failure_code: 'recipient_rejected', failure_message: 'nope' })
    const bad = await sb.api.post(`/_sandbox/payments/${payment.id}/fail`).send({ failure_code: 'bogus' }).expect(400)
    expect(bad.body.error).toMatchObject({ code: 'parameter_invalid', param: 'failure_code' })
  })

  it('answers 404 for an unknown payment', async () => {
    sb = await startTestSandbox()
    expect((await sb.api.post('/_sandbox/payments/pay_unknown/complete').expect(404)).body.error.code).toBe('resource_missing')
  })
})

describe('outcome layers, first match wins', () => {
  const settle = async (id: string) => {
    await advance(10_000)
    return getPayment(id)
  }

  it('metadata sandbox_outcome failed uses network_congestion by default, or sandbox_failure_code', async () => {
    sb = await startTestSandbox({ settle: 'auto' })
    const a = await pay(EXTERNAL.polygon!, 'polygon', { metadata: { sandbox_outcome: 'failed' } })
    const b = await pay(EXTERNAL.polygon!, 'polygon', { metadata: { sandbox_outcome: 'failed', sandbox_failure_code: 'insufficient_network_fee' } })
    expect(await settle(a.payment.id)).toMatchObject({ status: 'failed', failure_code: 'network_congestion' })
    expect(await getPayment(b.payment.id)).toMatchObject({ status: 'failed', failure_code: 'insufficient_network_fee' })
  })

  it('metadata sandbox_outcome pending stays pending until a control call', async () => {
    sb = await startTestSandbox({ settle: 'auto' })
    const { payment } = await pay(EXTERNAL.polygon!, 'polygon', { metadata: { sandbox_outcome: 'pending' } })
    expect((await settle(payment.id)).status).toBe('pending')
    await sb.api.post(`/_sandbox/payments/${payment.id}/complete`).expect(200)
    expect((await getPayment(payment.id)).status).toBe('completed')
  })

  it('rejects an unknown sandbox_outcome', async () => {
    sb = await startTestSandbox({ settle: 'auto' })
    const wallet = await institutionalWallet(sb, 'polygon', 'USDC')
    const res = await sb.api.post('/v1/payments').set(sb.auth())
      .send({ amount: '1.00', currency: 'USDC', source_wallet: wallet.id, recipient: EXTERNAL.polygon, metadata: { sandbox_outcome: 'maybe' } }).expect(400)
    expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param: 'metadata.sandbox_outcome' })
  })

  it('an outcome rule with times applies that many times, then payments complete again', async () => {
    sb = await startTestSandbox({ settle: 'auto' })
    const rule = (await sb.api.post('/_sandbox/outcomes').send({ match: { recipient: EXTERNAL.polygon!.toLowerCase() }, outcome: 'failed', times: 2 }).expect(201)).body.data
    expect(rule).toMatchObject({ outcome: 'failed', failure_code: 'network_congestion', times: 2, remaining: 2 })
    const ids = []
    for (let i = 0; i < 3; i++) ids.push((await pay(EXTERNAL.polygon!)).payment.id)
    await advance(10_000)
    const statuses = await Promise.all(ids.map(async (id) => (await getPayment(id)).status))
    expect(statuses).toEqual(['failed', 'failed', 'completed'])
    expect((await sb.api.get('/_sandbox/outcomes').expect(200)).body.data[0].remaining).toBe(0)
  })

  it('rules match amount ranges inclusively and can be deleted', async () => {
    sb = await startTestSandbox({ settle: 'auto' })
    const rule = (await sb.api.post('/_sandbox/outcomes').send({ match: { amount_min: '1.00', amount_max: '1' }, outcome: 'pending' }).expect(201)).body.data
    const { payment } = await pay(EXTERNAL.polygon!)
    expect((await settle(payment.id)).status).toBe('pending')
    await sb.api.delete(`/_sandbox/outcomes/${rule.id}`).expect(200)
    await sb.api.delete(`/_sandbox/outcomes/${rule.id}`).expect(404)
    const next = await pay(EXTERNAL.polygon!)
    expect((await settle(next.payment.id)).status).toBe('completed')
  })

  it('metadata beats a rule, a rule beats a magic address, a magic address beats the screening list', async () => {
    sb = await startTestSandbox({ settle: 'auto' })
    const magicCongestion = magic.find((m) => m.network === 'polygon' && m.failure_code === 'network_congestion')!.address
    await sb.api.post('/_sandbox/screening').send({ network: 'polygon', address: magicCongestion }).expect(200)
    await sb.api.post('/_sandbox/outcomes').send({ match: { network: 'polygon' }, outcome: 'completed', times: 1 }).expect(201)
    const byMetadata = await pay(magicCongestion, 'polygon', { metadata: { sandbox_outcome: 'failed', sandbox_failure_code: 'recipient_rejected' } })
    const byRule = await pay(magicCongestion)
    const byMagic = await pay(magicCongestion)
    await advance(10_000)
    expect(await getPayment(byMetadata.payment.id)).toMatchObject({ status: 'failed', failure_code: 'recipient_rejected' })
    expect(await getPayment(byRule.payment.id)).toMatchObject({ status: 'completed' })
    expect(await getPayment(byMagic.payment.id)).toMatchObject({ status: 'failed', failure_code: 'network_congestion' })
  })

  it('a control call beats the metadata', async () => {
    sb = await startTestSandbox({ settle: 'auto' })
    const { payment } = await pay(EXTERNAL.polygon!, 'polygon', { metadata: { sandbox_outcome: 'failed' } })
    await sb.api.post(`/_sandbox/payments/${payment.id}/complete`).expect(200)
    expect((await settle(payment.id)).status).toBe('completed')
  })

  it.each(magic.map((m) => [m.network, m.failure_code ?? 'never settles', m] as const))('magic address on %s: %s', async (network, _label, entry) => {
    sb = await startTestSandbox({ settle: 'auto' })
    const events = recordEvents()
    const { payment } = await pay(entry.address, network)
    const settled = await settle(payment.id)
    if (entry.outcome === 'pending') {
      expect(settled.status).toBe('pending')
      return
    }
    expect(settled).toMatchObject({ status: 'failed', failure_code: entry.failure_code })
    const expected = entry.stage === 'pending' ? ['payment.created', 'payment.failed'] : ['payment.created', 'payment.processing', 'payment.failed']
    expect(typesOf(events, payment.id)).toEqual(expected)
  })

  it('GET /_sandbox/magic lists every magic address with never-settling ones as pending', async () => {
    sb = await startTestSandbox()
    const list = (await sb.api.get('/_sandbox/magic').expect(200)).body.data.filter((m: { applies_to: string }) => m.applies_to === 'payments')
    expect(list).toHaveLength(magic.length)
    expect(list.filter((m: { outcome: string }) => m.outcome === 'pending')).toHaveLength(4)
  })

  it('the screening list (fixtures and POST /_sandbox/screening) fails payments with screening_rejected; DELETE unflags', async () => {
    sb = await startTestSandbox({ settle: 'auto' })
    const fixture = screening.find((s) => s.network === 'solana')!
    const flagged = await pay(fixture.address, 'solana')
    await sb.api.post('/_sandbox/screening').send({ network: 'ethereum', address: EXTERNAL.ethereum }).expect(200)
    const added = await pay(EXTERNAL.ethereum!.toLowerCase(), 'ethereum')
    await advance(10_000)
    expect(await getPayment(flagged.payment.id)).toMatchObject({ status: 'failed', failure_code: 'screening_rejected' })
    expect(await getPayment(added.payment.id)).toMatchObject({ status: 'failed', failure_code: 'screening_rejected' })
    await sb.api.delete('/_sandbox/screening').send({ network: 'ethereum', address: EXTERNAL.ethereum }).expect(200)
    const after = await pay(EXTERNAL.ethereum!, 'ethereum')
    expect((await settle(after.payment.id)).status).toBe('completed')
  })
})

describe('deposits, reset, accounts and keys', () => {
  it('a deposit credits the available balance', async () => {
    sb = await startTestSandbox()
    const wallet = (await sb.api.post('/v1/wallets').set(sb.auth()).send({ name: 'new', currency: 'SOL', network: 'solana' }).expect(201)).body.data
    const res = await sb.api.post(`/_sandbox/wallets/${wallet.id}/deposit`).send({ amount: '2.123456789' }).expect(200)
    expect(res.body.data.balance).toBe('2.123456789')
    const tooPrecise = await sb.api.post(`/_sandbox/wallets/${wallet.id}/deposit`).send({ amount: '0.0000000001' }).expect(400)
    expect(tooPrecise.body.error.param).toBe('amount')
    await sb.api.post('/_sandbox/wallets/wal_nope/deposit').send({ amount: '1' }).expect(404)
  })

  it('reset of one account brings back its seeded wallets and leaves other accounts alone', async () => {
    sb = await startTestSandbox()
    const other = 'sk_test_other_account_1'
    const before = (await sb.api.get('/v1/wallets').set(sb.auth()).expect(200)).body.data
    await sb.api.post('/v1/wallets').set(sb.auth()).send({ name: 'extra', currency: 'SOL', network: 'solana' }).expect(201)
    await sb.api.post('/v1/wallets').set(sb.auth(other)).send({ name: 'kept', currency: 'SOL', network: 'solana' }).expect(201)
    await sb.api.post('/_sandbox/outcomes').send({ match: {}, outcome: 'failed' }).expect(201)
    await sb.api.post('/_sandbox/reset').send({ api_key: 'sk_test_sandbox_default_key' }).expect(200)
    expect((await sb.api.get('/v1/wallets').set(sb.auth()).expect(200)).body.data).toEqual(before)
    expect((await sb.api.get('/v1/wallets').set(sb.auth(other)).expect(200)).body.pagination.total).toBe(before.length + 1)
    await sb.api.post('/_sandbox/reset').send({ api_key: 'sk_test_never_seen_key' }).expect(404)
  })

  it('reset of everything removes outcome rules, screening additions and extra accounts', async () => {
    sb = await startTestSandbox()
    await sb.api.post('/_sandbox/outcomes').send({ outcome: 'failed' }).expect(201)
    await sb.api.post('/_sandbox/screening').send({ network: 'ethereum', address: EXTERNAL.ethereum }).expect(200)
    await sb.api.get('/v1/wallets').set(sb.auth('sk_test_someone_else')).expect(200)
    expect((await sb.api.get('/_sandbox/accounts')).body.data).toHaveLength(2)
    await sb.api.post('/_sandbox/reset').expect(200)
    expect((await sb.api.get('/_sandbox/outcomes')).body.data).toEqual([])
    expect((await sb.api.get('/_sandbox/accounts')).body.data).toHaveLength(1)
    await sb.api.delete('/_sandbox/screening').send({ network: 'ethereum', address: EXTERNAL.ethereum }).expect(404)
  })

  it('a reset cancels the account’s pending settlements', async () => {
    sb = await startTestSandbox({ settle: 'auto' })
    const events = recordEvents()
    await pay(EXTERNAL.polygon!)
    await sb.api.post('/_sandbox/reset').expect(200)
    await advance(10_000)
    expect(events.map((e) => e.type)).toEqual(['payment.created'])
  })

  it('PATCH /_sandbox/accounts/{id} turns whitelist enforcement on', async () => {
    sb = await startTestSandbox()
    const [account] = (await sb.api.get('/_sandbox/accounts?api_key=sk_test_sandbox_default_key').expect(200)).body.data
    await sb.api.patch(`/_sandbox/accounts/${account.id}`).send({ whitelist_enforced: true }).expect(200)
    const wallet = await institutionalWallet(sb, 'polygon', 'USDC')
    const res = await sb.api.post('/v1/payments').set(sb.auth()).send({ amount: '1', currency: 'USDC', source_wallet: wallet.id, recipient: EXTERNAL.polygon }).expect(422)
    expect(res.body.error.code).toBe('recipient_not_whitelisted')
    await sb.api.patch('/_sandbox/accounts/acct_nope').send({ whitelist_enforced: true }).expect(404)
  })

  it('POST /_sandbox/keys creates restricted keys that work in strict mode', async () => {
    sb = await startTestSandbox({ auth: 'strict' })
    await sb.api.get('/v1/wallets').set(sb.auth('sk_test_not_in_fixtures')).expect(401)
    const created = (await sb.api.post('/_sandbox/keys').send({ type: 'restricted', scopes: ['payments:read'] }).expect(201)).body.data
    expect(created.key).toMatch(/^rk_test_/)
    await sb.api.get('/v1/payments').set(sb.auth(created.key)).expect(200)
    const denied = await sb.api.get('/v1/wallets').set(sb.auth(created.key)).expect(403)
    expect(denied.body.error.message).toContain('wallets:read')
    const missing = await sb.api.post('/_sandbox/keys').send({ type: 'restricted' }).expect(400)
    expect(missing.body.error).toMatchObject({ code: 'parameter_missing', param: 'scopes' })
  })

  it('--control-token guards the control API but not health', async () => {
    sb = await startTestSandbox({ controlToken: 'secret-token' })
    expect((await sb.api.get('/_sandbox/clock').expect(401)).body.error.code).toBe('control_token_invalid')
    await sb.api.get('/_sandbox/clock').set('Authorization', 'Bearer secret-token').expect(200)
    await sb.api.get('/_sandbox/health').expect(200)
  })
})

describe('the sandbox clock', () => {
  it('reports and advances the manual clock from --clock-start', async () => {
    sb = await startTestSandbox({ clockStart: '2030-05-01T00:00:00.000Z' })
    expect((await sb.api.get('/_sandbox/clock').expect(200)).body.data).toEqual({ mode: 'manual', now: '2030-05-01T00:00:00.000Z', offset_ms: 0, account_id: null })
    const res = await advance(90_000)
    expect(res.body.data).toEqual({ mode: 'manual', now: '2030-05-01T00:01:30.000Z', offset_ms: 90_000, account_id: null })
    expect((await sb.api.post('/_sandbox/clock/advance').send({ ms: -1 }).expect(400)).body.error.param).toBe('ms')
  })

  it('same seed, manual clock and requests give byte-identical responses', async () => {
    const run = async () => {
      sb = await startTestSandbox({ seed: 'determinism', settle: 'auto' })
      const bodies: string[] = []
      const wallet = await institutionalWallet(sb, 'solana', 'USDC')
      bodies.push((await sb.api.post('/v1/wallets').set(sb.auth()).send({ name: 'w', currency: 'SOL', network: 'solana' })).text)
      bodies.push((await sb.api.post('/v1/payments').set(sb.auth()).send({ amount: '3', currency: 'USDC', source_wallet: wallet.id, recipient: EXTERNAL.solana })).text)
      await advance(5000)
      bodies.push((await sb.api.get('/v1/payments').set(sb.auth())).text)
      bodies.push((await sb.api.get('/v1/wallets').set(sb.auth('sk_test_second_tenant'))).text)
      await sb.close()
      return bodies
    }
    expect(await run()).toEqual(await run())
  })
})

describe('a restart on the data file', () => {
  it('resumes automatic settlement of payments on their way, and leaves payments a control call took over', async () => {
    const { mkdtempSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const { join } = await import('node:path')
    const dataFile = join(mkdtempSync(join(tmpdir(), 'ws-resume-')), 'ledger.json')
    sb = await startTestSandbox({ settle: 'auto', dataFile })
    const onTheWay = await pay(EXTERNAL.polygon!)
    const takenOver = await pay(EXTERNAL.polygon!)
    await sb.api.post(`/_sandbox/payments/${takenOver.payment.id}/process`).expect(200)
    await sb.close()

    sb = await startTestSandbox({ settle: 'auto', dataFile })
    await advance(10_000)
    expect((await getPayment(onTheWay.payment.id)).status).toBe('completed')
    expect((await getPayment(takenOver.payment.id)).status).toBe('processing')
  })
})
