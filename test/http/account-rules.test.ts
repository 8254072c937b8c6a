import { afterEach, describe, expect, it } from 'vitest'
import { institutionalWallet, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

/** Outcome rules, fault rules, screening entries and price pins of one account (CONTRACT.md section 24). */

const A = 'sk_test_account_rules_a'
const B = 'sk_test_account_rules_b'
const EVM = '0x52908400098527886E0F7030069857D2E4169EE7'

let sb: TestSandbox
afterEach(() => sb?.close())

async function settledPayment(key: string) {
  const treasury = await institutionalWallet(sb, 'polygon', 'USDC', key)
  const payment = (await sb.api.post('/v1/payments').set(sb.auth(key)).send({ amount: '1.00', currency: 'USDC', source_wallet: treasury.id, recipient: EVM }).expect(201)).body.data
  await sb.api.post('/_sandbox/clock/advance').send({ ms: 60_000, api_key: key }).expect(200)
  return (await sb.api.get(`/v1/payments/${payment.id}`).set(sb.auth(key)).expect(200)).body.data
}

async function bothAccounts() {
  sb = await startTestSandbox({ settle: 'auto' })
  for (const key of [A, B]) await sb.api.get('/v1/wallets').set(sb.auth(key)).expect(200)
}

describe('rules of one account', () => {
  it('an outcome rule given api_key decides that account’s payments only, and is listed and cleared with it', async () => {
    await bothAccounts()
    const rule = (await sb.api.post('/_sandbox/outcomes').send({ outcome: 'failed', failure_code: 'insufficient_network_fee', api_key: A }).expect(201)).body.data
    expect(rule.match.account_id).toBe(sb.sandbox.store.keys.get(A)!.account_id)
    expect(await settledPayment(A)).toMatchObject({ status: 'failed', failure_code: 'insufficient_network_fee' })
    expect(await settledPayment(B)).toMatchObject({ status: 'completed' })
    expect((await sb.api.get(`/_sandbox/outcomes?api_key=${B}`).expect(200)).body.data).toEqual([])
    expect((await sb.api.get(`/_sandbox/outcomes?api_key=${A}`).expect(200)).body.data).toEqual([rule])
    expect((await sb.api.delete(`/_sandbox/outcomes?api_key=${B}`).expect(200)).body.data).toEqual({ deleted: 0 })
    expect((await sb.api.delete(`/_sandbox/outcomes?api_key=${A}`).expect(200)).body.data).toEqual({ deleted: 1 })
  })

  it('refuses an outcome rule whose match names another account than its api_key', async () => {
    await bothAccounts()
    const res = await sb.api.post('/_sandbox/outcomes').send({ outcome: 'failed', api_key: A, match: { account_id: sb.sandbox.store.keys.get(B)!.account_id } }).expect(400)
    expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param: 'match.account_id' })
    expect((await sb.api.get('/_sandbox/outcomes').expect(200)).body.data).toEqual([])
  })

  it('a fault given api_key hits that account’s requests, with any of its keys, and no one else’s', async () => {
    await bothAccounts()
    const accountId = sb.sandbox.store.keys.get(A)!.account_id
    const restricted = (await sb.api.post('/_sandbox/keys').send({ account_id: accountId, type: 'restricted', scopes: ['wallets:read'] }).expect(201)).body.data.key
    await sb.api.post('/_sandbox/faults').send({ fault: 'error', status: 503, match: { path: '/v1/wallets' }, api_key: A }).expect(201)
    await sb.api.get('/v1/wallets').set(sb.auth(A)).expect(503)
    await sb.api.get('/v1/wallets').set(sb.auth(restricted)).expect(503)
    await sb.api.get('/v1/wallets').set(sb.auth(B)).expect(200)
    expect((await sb.api.get(`/_sandbox/faults?api_key=${B}`).expect(200)).body.data).toEqual([])
  })

  it('an address screened for one account fails that account’s payments to it only', async () => {
    await bothAccounts()
    const flagged = (await sb.api.post('/_sandbox/screening').send({ network: 'polygon', address: EVM, api_key: A }).expect(200)).body.data
    expect(flagged).toEqual({ network: 'polygon', address: EVM, flagged: true, account_id: sb.sandbox.store.keys.get(A)!.account_id })
    expect(await settledPayment(A)).toMatchObject({ status: 'failed', failure_code: 'screening_rejected' })
    expect(await settledPayment(B)).toMatchObject({ status: 'completed' })
    // Unflagging for every account does not touch the account's own entry.
    await sb.api.delete('/_sandbox/screening').send({ network: 'polygon', address: EVM }).expect(404)
    await sb.api.delete('/_sandbox/screening').send({ network: 'polygon', address: EVM, api_key: A }).expect(200)
  })

  it('a price pinned for one account moves its prices only, and its own pin wins over one for every account', async () => {
    await bothAccounts()
    await sb.api.post('/_sandbox/prices').send({ pair: 'ETH/USD', price: '1000', spread_bp: 0 }).expect(201)
    await sb.api.post('/_sandbox/prices').send({ pair: 'ETH/USD', price: '2000', spread_bp: 0, api_key: A }).expect(201)
    const price = async (key: string) => (await sb.api.get('/v1/prices?pairs=ETH/USD').set(sb.auth(key)).expect(200)).body.data[0].price
    expect([await price(A), await price(B)]).toEqual(['2000.00', '1000.00'])
    expect((await sb.api.get(`/_sandbox/prices?api_key=${A}`).expect(200)).body.data).toEqual([expect.objectContaining({ price: '2000.00' })])
    expect((await sb.api.get('/_sandbox/prices').expect(200)).body.data).toHaveLength(2)
    await sb.api.delete(`/_sandbox/prices/ETH%2FUSD?api_key=${A}`).expect(200)
    expect([await price(A), await price(B)]).toEqual(['1000.00', '1000.00'])
  })

  it('an account’s reset removes its own rules, pins and entries, and leaves those of every account', async () => {
    await bothAccounts()
    await sb.api.post('/_sandbox/outcomes').send({ outcome: 'failed', api_key: A }).expect(201)
    await sb.api.post('/_sandbox/faults').send({ fault: 'latency', latency_ms: 1, api_key: A }).expect(201)
    await sb.api.post('/_sandbox/prices').send({ pair: 'ETH/USD', price: '2000', api_key: A }).expect(201)
    await sb.api.post('/_sandbox/screening').send({ network: 'polygon', address: EVM, api_key: A }).expect(200)
    const shared = (await sb.api.post('/_sandbox/outcomes').send({ outcome: 'pending' }).expect(201)).body.data
    await sb.api.post('/_sandbox/reset').send({ api_key: A }).expect(200)
    for (const path of ['outcomes', 'faults', 'prices']) expect((await sb.api.get(`/_sandbox/${path}?api_key=${A}`).expect(200)).body.data).toEqual([])
    expect((await sb.api.get('/_sandbox/outcomes').expect(200)).body.data).toEqual([shared])
    expect(sb.sandbox.store.control.screening_flagged).toEqual([])
  })
})
