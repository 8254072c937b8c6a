import { afterEach, describe, expect, it } from 'vitest'
import { institutionalWallet, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

/** One account's snapshot and restore (CONTRACT.md section 24): the account is back, every other account as it was. */

const A = 'sk_test_account_snapshot_a'
const B = 'sk_test_account_snapshot_b'
const EVM = '0x52908400098527886E0F7030069857D2E4169EE7'

const opened: TestSandbox[] = []
afterEach(async () => {
  for (const sandbox of opened.splice(0)) await sandbox.close()
})
async function start(overrides = {}) {
  const sandbox = await startTestSandbox(overrides)
  opened.push(sandbox)
  return sandbox
}

async function pay(sb: TestSandbox, key: string, amount: string) {
  const treasury = await institutionalWallet(sb, 'polygon', 'USDC', key)
  return (await sb.api.post('/v1/payments').set(sb.auth(key)).send({ amount, currency: 'USDC', source_wallet: treasury.id, recipient: EVM }).expect(201)).body.data
}

/** Everything an account shows through the API. */
async function seen(sb: TestSandbox, key: string) {
  const as = sb.auth(key)
  const wallets = (await sb.api.get('/v1/wallets?limit=100').set(as).expect(200)).body.data
  const balances = await Promise.all(wallets.map(async (w: { id: string }) => (await sb.api.get(`/v1/wallets/${w.id}/balance`).set(as).expect(200)).body.data))
  const payments = (await sb.api.get('/v1/payments?limit=100').set(as).expect(200)).body.data
  const events = (await sb.api.get(`/_sandbox/events?api_key=${key}`).expect(200)).body.data
  const clock = (await sb.api.get(`/_sandbox/clock?api_key=${key}`).expect(200)).body.data
  return { wallets, balances, payments, events, clock }
}

describe('an account’s snapshot', () => {
  it('restores that account while every other account stays as it was', async () => {
    const sb = await start()
    await pay(sb, A, '1.00')
    await pay(sb, B, '2.00')
    await sb.api.post('/_sandbox/clock/advance').send({ ms: 5000, api_key: A }).expect(200)
    const taken = (await sb.api.get(`/_sandbox/snapshot?api_key=${A}`).expect(200)).body.data
    const aBefore = await seen(sb, A)

    // A goes on; B changes too, and moves its own clock.
    await pay(sb, A, '3.00')
    await sb.api.post('/v1/wallets').set(sb.auth(A)).send({ name: 'later', currency: 'USDC', network: 'solana' }).expect(201)
    await sb.api.post('/_sandbox/clock/advance').send({ ms: 60_000, api_key: A }).expect(200)
    await pay(sb, B, '4.00')
    await sb.api.post('/_sandbox/clock/advance').send({ ms: 1000, api_key: B }).expect(200)
    const bBefore = await seen(sb, B)
    const sandboxClock = (await sb.api.get('/_sandbox/clock').expect(200)).body.data

    const restored = await sb.api.post('/_sandbox/restore').send(taken).expect(200)
    expect(restored.body.data).toMatchObject({ restored: true, account_id: taken.account_id })
    const aAfter = await seen(sb, A)
    expect({ ...aAfter, events: aAfter.events.length }).toEqual({ ...aBefore, events: aBefore.events.length })
    expect(aAfter.events.map((event: { id: string }) => event.id)).toEqual(aBefore.events.map((event: { id: string }) => event.id))
    expect(await seen(sb, B)).toEqual(bBefore)
    expect((await sb.api.get('/_sandbox/clock').expect(200)).body.data).toEqual(sandboxClock)

    // Taken again right away, it is the same document but for the generators, which moved on.
    const again = (await sb.api.get(`/_sandbox/snapshot?api_key=${A}`).expect(200)).body.data
    const withoutGenerators = (doc: typeof taken) => ({ ...doc, accounts: doc.accounts.map(({ rng_state: _, ...account }: { rng_state: unknown }) => account) })
    expect(withoutGenerators(again)).toEqual(withoutGenerators(taken))
    // New ids repeat neither the snapshot's nor those issued after it.
    const next = await pay(sb, A, '5.00')
    expect(JSON.stringify(taken)).not.toContain(next.id)
  })

  it('holds the account’s own rules, pins and screening entries, and brings them back alone', async () => {
    const sb = await start()
    await pay(sb, A, '1.00')
    await pay(sb, B, '1.00')
    await sb.api.post('/_sandbox/outcomes').send({ outcome: 'failed', api_key: A }).expect(201)
    await sb.api.post('/_sandbox/prices').send({ pair: 'ETH/USD', price: '1234', api_key: A }).expect(201)
    await sb.api.post('/_sandbox/screening').send({ network: 'polygon', address: EVM, api_key: A }).expect(200)
    const everyone = (await sb.api.post('/_sandbox/faults').send({ fault: 'latency', latency_ms: 1, match: { path: '/v1/nothing' } }).expect(201)).body.data
    const taken = (await sb.api.get(`/_sandbox/snapshot?api_key=${A}`).expect(200)).body.data
    expect(taken.control.outcome_rules).toHaveLength(1)
    expect(taken.control.price_pins).toEqual([expect.objectContaining({ pair: 'ETH/USD', price: '1234.00', account_id: taken.account_id })])
    expect(taken.control.screening_flagged).toEqual([expect.stringMatching(/^polygon:/)])
    expect(taken.control.faults).toEqual([])

    await sb.api.delete(`/_sandbox/outcomes?api_key=${A}`).expect(200)
    await sb.api.delete(`/_sandbox/prices?api_key=${A}`).expect(200)
    await sb.api.post('/_sandbox/outcomes').send({ outcome: 'completed', api_key: B }).expect(201)
    await sb.api.post('/_sandbox/restore').send(taken).expect(200)

    expect((await sb.api.get(`/_sandbox/outcomes?api_key=${A}`).expect(200)).body.data).toEqual(taken.control.outcome_rules)
    expect((await sb.api.get(`/_sandbox/outcomes?api_key=${B}`).expect(200)).body.data).toHaveLength(1)
    expect((await sb.api.get('/_sandbox/faults').expect(200)).body.data).toEqual([everyone])
    const [price] = (await sb.api.get('/v1/prices?pairs=ETH/USD').set(sb.auth(A)).expect(200)).body.data
    expect(price.price).toBe('1234.00')
  })

  it('recreates the account in a fresh sandbox, keys included', async () => {
    const sb = await start()
    const payment = await pay(sb, A, '1.00')
    const taken = (await sb.api.get(`/_sandbox/snapshot?api_key=${A}`).expect(200)).body.data
    const before = await seen(sb, A)

    const fresh = await start()
    await fresh.api.post('/_sandbox/restore').send(taken).expect(200)
    expect((await fresh.api.get(`/v1/payments/${payment.id}`).set(fresh.auth(A)).expect(200)).body.data).toEqual(payment)
    const after = await seen(fresh, A)
    expect({ ...after, events: after.events.length }).toEqual({ ...before, events: before.events.length })
    // The fresh sandbox's default account is there as before.
    await fresh.api.get('/v1/wallets').set(fresh.auth()).expect(200)
  })

  it('goes on with the payments and deliveries that were on their way, on the account’s clock', async () => {
    const sb = await start({ settle: 'auto' })
    const payment = await pay(sb, A, '1.00')
    const taken = (await sb.api.get(`/_sandbox/snapshot?api_key=${A}`).expect(200)).body.data
    await sb.api.post('/_sandbox/clock/advance').send({ ms: 60_000, api_key: A }).expect(200)
    expect((await sb.api.get(`/v1/payments/${payment.id}`).set(sb.auth(A)).expect(200)).body.data.status).toBe('completed')
    await sb.api.post('/_sandbox/restore').send(taken).expect(200)
    expect((await sb.api.get(`/v1/payments/${payment.id}`).set(sb.auth(A)).expect(200)).body.data.status).toBe('pending')
    await sb.api.post('/_sandbox/clock/advance').send({ ms: 60_000, api_key: A }).expect(200)
    expect((await sb.api.get(`/v1/payments/${payment.id}`).set(sb.auth(A)).expect(200)).body.data.status).toBe('completed')
  })

  it('refuses a document whose parts belong to another account, naming the part, and changes nothing', async () => {
    const sb = await start()
    await pay(sb, A, '1.00')
    await pay(sb, B, '1.00')
    const taken = (await sb.api.get(`/_sandbox/snapshot?api_key=${A}`).expect(200)).body.data
    const bKey = { ...taken.keys[0], key: B }
    const before = await seen(sb, A)
    const stolen = await sb.api.post('/_sandbox/restore').send({ ...taken, keys: [bKey] }).expect(400)
    expect(stolen.body.error).toMatchObject({ code: 'parameter_invalid', param: 'keys[0].key' })
    const foreign = await sb.api.post('/_sandbox/restore').send({ ...taken, keys: [{ ...bKey, account_id: 'acct_other' }] }).expect(400)
    expect(foreign.body.error).toMatchObject({ code: 'parameter_invalid', param: 'keys[0].account_id' })
    const events = await sb.api.post('/_sandbox/restore').send({ ...taken, account_id: undefined }).expect(400)
    expect(events.body.error).toMatchObject({ code: 'parameter_invalid', param: 'events' })
    expect(await seen(sb, A)).toEqual(before)
  })
})
