import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_KEY, institutionalWallet, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

const EVM = '0x52908400098527886E0F7030069857D2E4169EE7'
const OTHER_EVM = '0xde709f2102306220921060314715629080e2fb77'
const SOLANA = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'
const STELLAR = 'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7'

let sb: TestSandbox
afterEach(() => sb?.close())

const add = (body: Record<string, unknown>) => sb.api.post('/v1/whitelisted_addresses').set(sb.auth()).send(body)
const pay = (source: string, recipient: string, amount = '10.00') =>
  sb.api.post('/v1/payments').set(sb.auth()).send({ amount, currency: 'USDC', source_wallet: source, recipient })

async function balance(id: string) {
  return (await sb.api.get(`/v1/wallets/${id}/balance`).set(sb.auth()).expect(200)).body.data
}

describe('POST /v1/whitelisted_addresses', () => {
  it('adds an entry with the full shape; label defaults to null', async () => {
    sb = await startTestSandbox()
    const res = await add({ address: EVM, network: 'polygon' }).expect(201)
    expect(res.body.data).toEqual({
      id: expect.stringMatching(/^wla_[0-9A-Za-z]{24}$/),
      object: 'whitelisted_address',
      address: EVM,
      network: 'polygon',
      label: null,
      created_at: '2026-01-01T00:00:00.000Z',
    })
  })

  it.each([
    ['polygon', EVM, 'Exchange'],
    ['ethereum', OTHER_EVM, 'Cold storage'],
    ['stellar', STELLAR, null],
    ['solana', SOLANA, 'Market maker'],
  ])('accepts a valid %s address', async (network, address, label) => {
    sb = await startTestSandbox()
    const res = await add({ address, network, label }).expect(201)
    expect(res.body.data).toMatchObject({ address, network, label })
  })

  it('refuses the same address twice on a network, EVM case-insensitively', async () => {
    sb = await startTestSandbox()
    await add({ address: EVM, network: 'polygon' }).expect(201)
    const res = await add({ address: EVM.toLowerCase(), network: 'polygon' }).expect(400)
    expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param: 'address' })
    // The same address on another network is another entry.
    await add({ address: EVM, network: 'ethereum' }).expect(201)
  })
})

describe('GET /v1/whitelisted_addresses', () => {
  it('lists newest first, filters by network and pages', async () => {
    sb = await startTestSandbox()
    const a = (await add({ address: EVM, network: 'polygon' }).expect(201)).body.data
    const b = (await add({ address: SOLANA, network: 'solana' }).expect(201)).body.data
    const c = (await add({ address: OTHER_EVM, network: 'polygon' }).expect(201)).body.data
    const all = await sb.api.get('/v1/whitelisted_addresses').set(sb.auth()).expect(200)
    expect(all.body.data.map((e: { id: string }) => e.id)).toEqual([c.id, b.id, a.id])
    expect(all.body.pagination).toEqual({ limit: 20, offset: 0, total: 3, has_more: false })
    const polygon = await sb.api.get('/v1/whitelisted_addresses?network=polygon').set(sb.auth()).expect(200)
    expect(polygon.body.data.map((e: { id: string }) => e.id)).toEqual([c.id, a.id])
    const page = await sb.api.get('/v1/whitelisted_addresses?limit=1&offset=1').set(sb.auth()).expect(200)
    expect(page.body).toMatchObject({ data: [b], pagination: { limit: 1, offset: 1, total: 3, has_more: true } })
  })

  it.each(['limit=0', 'limit=101', 'offset=-1', 'network=bitcoin'])('refuses %s with 400 parameter_invalid', async (query) => {
    sb = await startTestSandbox()
    const res = await sb.api.get(`/v1/whitelisted_addresses?${query}`).set(sb.auth()).expect(400)
    expect(res.body.error.code).toBe('parameter_invalid')
    expect(res.body.error.param).toBe(query.split('=')[0])
  })
})

describe('DELETE /v1/whitelisted_addresses/{id}', () => {
  it('answers {id, object, deleted: true}, and the entry is gone', async () => {
    sb = await startTestSandbox()
    const entry = (await add({ address: EVM, network: 'polygon' }).expect(201)).body.data
    const res = await sb.api.delete(`/v1/whitelisted_addresses/${entry.id}`).set(sb.auth()).expect(200)
    expect(res.body.data).toEqual({ id: entry.id, object: 'whitelisted_address', deleted: true })
    expect((await sb.api.get('/v1/whitelisted_addresses').set(sb.auth()).expect(200)).body.data).toEqual([])
    const again = await sb.api.delete(`/v1/whitelisted_addresses/${entry.id}`).set(sb.auth()).expect(404)
    expect(again.body.error.code).toBe('resource_missing')
  })
})

describe('enforcement', () => {
  it('is off by default: any valid external address can be paid', async () => {
    sb = await startTestSandbox()
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    await pay(source.id, EVM).expect(201)
  })

  it('with --whitelist-enforced, a payment to an unlisted address is 422 recipient_not_whitelisted and moves nothing', async () => {
    sb = await startTestSandbox({ whitelistEnforced: true })
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    const res = await pay(source.id, EVM).expect(422)
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'recipient_not_whitelisted', param: 'recipient' })
    expect(res.body.error.message).toContain('/v1/whitelisted_addresses')
    expect(await balance(source.id)).toMatchObject({ available_balance: '1000000.00', locked_balance: '0.00' })
    expect((await sb.api.get('/v1/payments').set(sb.auth()).expect(200)).body.pagination.total).toBe(0)
  })

  it('with --whitelist-enforced, a listed address can be paid, whatever the case of its EVM letters', async () => {
    sb = await startTestSandbox({ whitelistEnforced: true })
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    await add({ address: EVM.toLowerCase(), network: 'polygon' }).expect(201)
    await pay(source.id, EVM).expect(201)
    await pay(source.id, EVM.toLowerCase()).expect(201)
  })

  it('with --whitelist-enforced, an entry for another network does not count', async () => {
    sb = await startTestSandbox({ whitelistEnforced: true })
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    await add({ address: EVM, network: 'ethereum' }).expect(201)
    expect((await pay(source.id, EVM).expect(422)).body.error.code).toBe('recipient_not_whitelisted')
  })

  it('with --whitelist-enforced, a removed entry stops counting', async () => {
    sb = await startTestSandbox({ whitelistEnforced: true })
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    const entry = (await add({ address: EVM, network: 'polygon' }).expect(201)).body.data
    await pay(source.id, EVM).expect(201)
    await sb.api.delete(`/v1/whitelisted_addresses/${entry.id}`).set(sb.auth()).expect(200)
    expect((await pay(source.id, EVM).expect(422)).body.error.code).toBe('recipient_not_whitelisted')
  })

  it('with --whitelist-enforced, payments between wallets of the account need no entry', async () => {
    sb = await startTestSandbox({ whitelistEnforced: true })
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    const inner = (await sb.api.post('/v1/wallets').set(sb.auth()).send({ name: 'Inner', currency: 'USDC', network: 'polygon' }).expect(201)).body.data
    await pay(source.id, inner.id).expect(201)
  })

  it('with --whitelist-enforced, insufficient funds to a listed address is still insufficient_funds', async () => {
    sb = await startTestSandbox({ whitelistEnforced: true })
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    await add({ address: EVM, network: 'polygon' }).expect(201)
    expect((await pay(source.id, EVM, '1000000.01').expect(422)).body.error.code).toBe('insufficient_funds')
  })

  it('is per account: an account with enforcement on refuses, another one does not', async () => {
    sb = await startTestSandbox()
    const account = sb.sandbox.store.accounts.get(sb.sandbox.store.keys.get(DEFAULT_KEY)!.account_id)!
    account.account.whitelist_enforced = true
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    expect((await pay(source.id, EVM).expect(422)).body.error.code).toBe('recipient_not_whitelisted')
    const otherKey = 'sk_test_whitelist_not_enforced'
    const otherSource = await institutionalWallet(sb, 'polygon', 'USDC', otherKey)
    await sb.api.post('/v1/payments').set(sb.auth(otherKey)).send({ amount: '1', currency: 'USDC', source_wallet: otherSource.id, recipient: EVM }).expect(201)
  })
})
