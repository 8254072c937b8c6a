import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { institutionalWallet, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

/** Two accounts on one server: nothing of one is visible to the other, through any endpoint. */

const ALICE = 'sk_test_isolation_alice'
const BOB = 'sk_test_isolation_bob'
const EVM = '0x52908400098527886E0F7030069857D2E4169EE7'
const UNKNOWN = { wallet: 'wal_000000000000000000000000', payment: 'pay_000000000000000000000000', whitelisted: 'wla_000000000000000000000000' }

let sb: TestSandbox
let alice: { treasury: { id: string }; wallet: { id: string }; payment: { id: string }; whitelisted: { id: string }; user: { id: string; metadata: Record<string, string> } }

beforeEach(async () => {
  sb = await startTestSandbox()
  const as = sb.auth(ALICE)
  const treasury = await institutionalWallet(sb, 'polygon', 'USDC', ALICE)
  const wallet = (await sb.api.post('/v1/wallets').set(as).send({ name: 'Alice savings', currency: 'USDC', network: 'polygon', metadata: { external_user_id: 'shared_user' } }).expect(201)).body.data
  const payment = (await sb.api.post('/v1/payments').set(as).send({ amount: '10', currency: 'USDC', source_wallet: treasury.id, recipient: EVM }).expect(201)).body.data
  const whitelisted = (await sb.api.post('/v1/whitelisted_addresses').set(as).send({ address: EVM, network: 'polygon', label: 'Alice exchange' }).expect(201)).body.data
  const user = (await sb.api.get('/v1/wallets?type=user').set(as).expect(200)).body.data[0]
  alice = { treasury, wallet, payment, whitelisted, user }
})
afterEach(() => sb.close())

/** Everything Alice has, as she sees it. */
async function aliceState() {
  const as = sb.auth(ALICE)
  const wallets = (await sb.api.get('/v1/wallets?limit=100').set(as).expect(200)).body.data
  const balances = await Promise.all(wallets.map(async (w: { id: string }) => (await sb.api.get(`/v1/wallets/${w.id}/balance`).set(as).expect(200)).body.data))
  const payments = (await sb.api.get('/v1/payments?limit=100').set(as).expect(200)).body.data
  const whitelist = (await sb.api.get('/v1/whitelisted_addresses?limit=100').set(as).expect(200)).body.data
  return { wallets, balances, payments, whitelist }
}

/** The answer with the id replaced, so a foreign id and an unknown one can be compared. */
function shape(res: { status: number; body: any }, id: string) {
  return { status: res.status, error: JSON.parse(JSON.stringify(res.body.error).replaceAll(id, '<id>')) }
}

describe('a foreign id answers exactly like an unknown id', () => {
  type Request = (id: string, bob: Record<string, string>, bobTreasury: string) => any
  const cases: Array<[string, keyof typeof UNKNOWN, () => string, Request, string | undefined]> = [
    ['GET /v1/wallets/{id}', 'wallet', () => alice.wallet.id, (id, bob) => sb.api.get(`/v1/wallets/${id}`).set(bob), undefined],
    ['GET /v1/wallets/{id} (seeded treasury)', 'wallet', () => alice.treasury.id, (id, bob) => sb.api.get(`/v1/wallets/${id}`).set(bob), undefined],
    ['PUT /v1/wallets/{id}', 'wallet', () => alice.wallet.id, (id, bob) => sb.api.put(`/v1/wallets/${id}`).set(bob).send({ name: 'Taken over', status: 'frozen' }), undefined],
    ['DELETE /v1/wallets/{id}', 'wallet', () => alice.wallet.id, (id, bob) => sb.api.delete(`/v1/wallets/${id}`).set(bob), undefined],
    ['GET /v1/wallets/{id}/balance', 'wallet', () => alice.treasury.id, (id, bob) => sb.api.get(`/v1/wallets/${id}/balance`).set(bob), undefined],
    ['GET /v1/payments/{id}', 'payment', () => alice.payment.id, (id, bob) => sb.api.get(`/v1/payments/${id}`).set(bob), undefined],
    ['DELETE /v1/whitelisted_addresses/{id}', 'whitelisted', () => alice.whitelisted.id, (id, bob) => sb.api.delete(`/v1/whitelisted_addresses/${id}`).set(bob), undefined],
    [
      'POST /v1/payments with source_wallet',
      'wallet',
      () => alice.treasury.id,
      (id, bob) => sb.api.post('/v1/payments').set(bob).send({ amount: '1', currency: 'USDC', source_wallet: id, recipient: EVM }),
      'source_wallet',
    ],
    [
      'POST /v1/payments with a wal_ recipient',
      'wallet',
      () => alice.wallet.id,
      (id, bob, bobTreasury) => sb.api.post('/v1/payments').set(bob).send({ amount: '1', currency: 'USDC', source_wallet: bobTreasury, recipient: id }),
      'recipient',
    ],
  ]

  it.each(cases)('%s', async (_name, kind, foreignId, request, param) => {
    const bob = sb.auth(BOB)
    const bobTreasury = await institutionalWallet(sb, 'polygon', 'USDC', BOB)
    const before = await aliceState()
    const bobBefore = (await sb.api.get(`/v1/wallets/${bobTreasury.id}/balance`).set(bob).expect(200)).body.data

    const foreign = await request(foreignId(), bob, bobTreasury.id)
    const unknown = await request(UNKNOWN[kind], bob, bobTreasury.id)
    expect(foreign.status).toBe(404)
    expect(foreign.body.error.code).toBe('resource_missing')
    expect(foreign.body.error.param).toBe(param)
    expect(shape(foreign, foreignId())).toEqual(shape(unknown, UNKNOWN[kind]))

    expect(await aliceState()).toEqual(before)
    expect((await sb.api.get(`/v1/wallets/${bobTreasury.id}/balance`).set(bob).expect(200)).body.data).toEqual(bobBefore)
    expect((await sb.api.get('/v1/payments').set(bob).expect(200)).body.pagination.total).toBe(0)
  })
})

describe('lists show only the caller’s own resources', () => {
  it('Bob’s wallet list has none of Alice’s wallets', async () => {
    const bob = (await sb.api.get('/v1/wallets?limit=100').set(sb.auth(BOB)).expect(200)).body
    const aliceIds = new Set((await aliceState()).wallets.map((w: { id: string }) => w.id))
    expect(bob.pagination.total).toBe(14)
    expect(bob.data.filter((w: { id: string }) => aliceIds.has(w.id))).toEqual([])
  })

  it.each([
    ['/v1/wallets?external_user_id=shared_user', 0],
    ['/v1/payments', 0],
    ['/v1/whitelisted_addresses', 0],
  ])('Bob sees nothing of Alice in GET %s', async (url, total) => {
    const res = await sb.api.get(url).set(sb.auth(BOB)).expect(200)
    expect(res.body.pagination.total).toBe(total)
    expect(res.body.data).toEqual([])
  })

  it('Bob cannot find Alice’s user wallet by her external_user_id', async () => {
    const res = await sb.api.get(`/v1/wallets?external_user_id=${alice.user.metadata.external_user_id}`).set(sb.auth(BOB)).expect(200)
    expect(res.body.data).toEqual([])
  })

  it('filtering payments by Alice’s wallets finds nothing for Bob', async () => {
    for (const query of [`source_wallet=${alice.treasury.id}`, `recipient_id=${alice.wallet.id}`, `recipient_id=${EVM}`]) {
      const res = await sb.api.get(`/v1/payments?${query}`).set(sb.auth(BOB)).expect(200)
      expect(res.body.pagination.total, query).toBe(0)
    }
    const mine = await sb.api.get(`/v1/payments?source_wallet=${alice.treasury.id}`).set(sb.auth(ALICE)).expect(200)
    expect(mine.body.data.map((p: { id: string }) => p.id)).toEqual([alice.payment.id])
  })

  it('whitelisting the same address in both accounts keeps two separate entries', async () => {
    const bobs = (await sb.api.post('/v1/whitelisted_addresses').set(sb.auth(BOB)).send({ address: EVM, network: 'polygon' }).expect(201)).body.data
    expect(bobs.id).not.toBe(alice.whitelisted.id)
    await sb.api.delete(`/v1/whitelisted_addresses/${bobs.id}`).set(sb.auth(BOB)).expect(200)
    expect((await aliceState()).whitelist.map((e: { id: string }) => e.id)).toEqual([alice.whitelisted.id])
  })

  it('the default key’s account sees none of them either', async () => {
    const res = await sb.api.get('/v1/payments').set(sb.auth()).expect(200)
    expect(res.body.pagination.total).toBe(0)
    expect((await sb.api.get(`/v1/wallets/${alice.wallet.id}`).set(sb.auth()).expect(404)).body.error.code).toBe('resource_missing')
  })
})
