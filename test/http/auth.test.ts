import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_KEY, institutionalWallet, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

const READ_ONLY = 'rk_test_sandbox_read_only'
const PAYMENTS_LOOPBACK = 'rk_test_sandbox_payments_loopback'
const EVM_RECIPIENT = '0x52908400098527886E0F7030069857D2E4169EE7'
const DEFAULT_ACCOUNT = 'acct_sandboxDefaultAccount000'

let sb: TestSandbox
afterEach(() => sb?.close())

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` })

function expectAuthError(res: { status: number; body: any; headers: Record<string, string> }, status: number, code: string) {
  expect(res.status).toBe(status)
  expect(res.body.error.code).toBe(code)
  expect(res.body.error.type).toBe(status === 401 ? 'authentication_error' : 'permission_error')
  expect(res.body.request_id).toBe(res.headers['x-request-id'])
}

describe('authentication errors', () => {
  it.each<[string, Record<string, string>, string]>([
    ['no Authorization header', {}, 'api_key_missing'],
    ['an empty Authorization header', { Authorization: '' }, 'api_key_missing'],
    ['a header that is not Bearer', { Authorization: `Basic ${DEFAULT_KEY}` }, 'api_key_invalid'],
    ['a bare key without Bearer', { Authorization: DEFAULT_KEY }, 'api_key_invalid'],
    ['Bearer with nothing after it', { Authorization: 'Bearer ' }, 'api_key_invalid'],
    ['a key that is not a sandbox key', { Authorization: 'Bearer hello' }, 'api_key_invalid'],
    ['an sk_test_ key shorter than 8 characters', { Authorization: 'Bearer sk_test_short' }, 'api_key_invalid'],
    ['an sk_test_ key with a forbidden character', { Authorization: 'Bearer sk_test_abcdefgh-ij' }, 'api_key_invalid'],
    ['an unknown restricted key', { Authorization: 'Bearer rk_test_nobody_knows_me' }, 'api_key_invalid'],
  ])('answers %s with 401 %s', async (_name, headers, code) => {
    sb = await startTestSandbox()
    expectAuthError(await sb.api.get('/v1/wallets').set(headers), 401, code)
  })

  it('refuses a live key, telling the user to use an sk_test_ key', async () => {
    sb = await startTestSandbox()
    const res = await sb.api.get('/v1/wallets').set(bearer('sk_live_abcdefghijklmnop'))
    expectAuthError(res, 401, 'live_key_in_sandbox')
    expect(res.body.error.message).toContain('sk_test_')
  })

  it('checks the key before the route’s resources and body', async () => {
    sb = await startTestSandbox()
    expectAuthError(await sb.api.get('/v1/wallets/wal_doesnotexist'), 401, 'api_key_missing')
    expectAuthError(await sb.api.post('/v1/payments').send({ amount: 'lots' }), 401, 'api_key_missing')
    expectAuthError(await sb.api.post('/v1/payments').set('Content-Type', 'application/json').send('{not json'), 401, 'api_key_missing')
  })
})

describe('open auth (the default)', () => {
  it('gives any well-formed sk_test_ key its own freshly seeded account', async () => {
    sb = await startTestSandbox()
    const mine = await sb.api.get('/v1/wallets?limit=100').set(bearer('sk_test_auth_open_first')).expect(200)
    const theirs = await sb.api.get('/v1/wallets?limit=100').set(bearer('sk_test_auth_open_second')).expect(200)
    expect(mine.body.pagination.total).toBe(14)
    expect(theirs.body.pagination.total).toBe(14)
    const mineIds = new Set(mine.body.data.map((w: { id: string }) => w.id))
    expect(theirs.body.data.some((w: { id: string }) => mineIds.has(w.id))).toBe(false)
    expect(sb.sandbox.store.keys.get('sk_test_auth_open_first')!.account_id).not.toBe(DEFAULT_ACCOUNT)
  })

  it('keeps giving the same account to the same key', async () => {
    sb = await startTestSandbox()
    const key = bearer('sk_test_auth_same_account')
    const created = await sb.api.post('/v1/wallets').set(key).send({ name: 'Mine', currency: 'USDC', network: 'polygon' }).expect(201)
    await sb.api.get(`/v1/wallets/${created.body.data.id}`).set(key).expect(200)
  })
})

describe('strict auth', () => {
  it('accepts the keys from the fixtures', async () => {
    sb = await startTestSandbox({ auth: 'strict' })
    await sb.api.get('/v1/wallets').set(bearer(DEFAULT_KEY)).expect(200)
    await sb.api.get('/v1/wallets').set(bearer(READ_ONLY)).expect(200)
  })

  it('refuses a well-formed key it does not know, saying why', async () => {
    sb = await startTestSandbox({ auth: 'strict' })
    const res = await sb.api.get('/v1/wallets').set(bearer('sk_test_never_provisioned'))
    expectAuthError(res, 401, 'api_key_invalid')
    expect(res.body.error.message).toMatch(/strict/)
    expect(sb.sandbox.store.keys.has('sk_test_never_provisioned')).toBe(false)
  })

  it('still refuses a live key as live_key_in_sandbox', async () => {
    sb = await startTestSandbox({ auth: 'strict' })
    expectAuthError(await sb.api.get('/v1/wallets').set(bearer('sk_live_abcdefghijklmnop')), 401, 'live_key_in_sandbox')
  })
})

describe('restricted keys', () => {
  it('a read-only key reads wallets, payments and the whitelist', async () => {
    sb = await startTestSandbox()
    await sb.api.get('/v1/wallets').set(bearer(READ_ONLY)).expect(200)
    const wallet = await institutionalWallet(sb, 'polygon', 'USDC', READ_ONLY)
    await sb.api.get(`/v1/wallets/${wallet.id}`).set(bearer(READ_ONLY)).expect(200)
    await sb.api.get(`/v1/wallets/${wallet.id}/balance`).set(bearer(READ_ONLY)).expect(200)
    await sb.api.get('/v1/payments').set(bearer(READ_ONLY)).expect(200)
    await sb.api.get('/v1/whitelisted_addresses').set(bearer(READ_ONLY)).expect(200)
  })

  it('sees the same account as the default secret key', async () => {
    sb = await startTestSandbox()
    const mine = await sb.api.get('/v1/wallets?limit=100').set(bearer(DEFAULT_KEY)).expect(200)
    const readOnly = await sb.api.get('/v1/wallets?limit=100').set(bearer(READ_ONLY)).expect(200)
    expect(readOnly.body.data).toEqual(mine.body.data)
  })

  it.each<[string, (sb: TestSandbox, walletId: string) => any, string]>([
    ['create a wallet', (s) => s.api.post('/v1/wallets').send({ name: 'x', currency: 'USDC', network: 'polygon' }), 'wallets:write'],
    ['update a wallet', (s, id) => s.api.put(`/v1/wallets/${id}`).send({ name: 'renamed' }), 'wallets:write'],
    ['delete a wallet', (s, id) => s.api.delete(`/v1/wallets/${id}`), 'wallets:write'],
    ['create a payment', (s, id) => s.api.post('/v1/payments').send({ amount: '1', currency: 'USDC', source_wallet: id, recipient: EVM_RECIPIENT }), 'payments:write'],
    ['whitelist an address', (s) => s.api.post('/v1/whitelisted_addresses').send({ address: EVM_RECIPIENT, network: 'polygon' }), 'whitelist:write'],
    ['remove a whitelisted address', (s) => s.api.delete('/v1/whitelisted_addresses/wla_x'), 'whitelist:write'],
  ])('a read-only key cannot %s: 403 insufficient_permissions naming %s', async (_name, request, scope) => {
    sb = await startTestSandbox()
    const wallet = await institutionalWallet(sb, 'polygon', 'USDC')
    const res = await request(sb, wallet.id).set(bearer(READ_ONLY))
    expectAuthError(res, 403, 'insufficient_permissions')
    expect(res.body.error.message).toContain(scope)
    const after = await sb.api.get(`/v1/wallets/${wallet.id}/balance`).set(sb.auth()).expect(200)
    expect(after.body.data.total_balance).toBe('1000000.00')
    expect(after.body.data.locked_balance).toBe('0.00')
  })

  it('checks the scope before the body', async () => {
    sb = await startTestSandbox()
    const res = await sb.api.post('/v1/wallets').set(bearer(READ_ONLY)).set('Content-Type', 'application/json').send('{oops')
    expectAuthError(res, 403, 'insufficient_permissions')
  })

  it('a payments:write key may also read payments (a :write scope includes its :read)', async () => {
    sb = await startTestSandbox()
    const wallet = await institutionalWallet(sb, 'polygon', 'USDC', PAYMENTS_LOOPBACK)
    const created = await sb.api
      .post('/v1/payments')
      .set(bearer(PAYMENTS_LOOPBACK))
      .send({ amount: '1', currency: 'USDC', source_wallet: wallet.id, recipient: EVM_RECIPIENT })
      .expect(201)
    await sb.api.get('/v1/payments').set(bearer(PAYMENTS_LOOPBACK)).expect(200)
    await sb.api.get(`/v1/payments/${created.body.data.id}`).set(bearer(PAYMENTS_LOOPBACK)).expect(200)
  })

  it('a payments:write key has no other scope', async () => {
    sb = await startTestSandbox()
    const whitelist = await sb.api.get('/v1/whitelisted_addresses').set(bearer(PAYMENTS_LOOPBACK))
    expectAuthError(whitelist, 403, 'insufficient_permissions')
    expect(whitelist.body.error.message).toContain('whitelist:read')
    const create = await sb.api.post('/v1/wallets').set(bearer(PAYMENTS_LOOPBACK)).send({ name: 'x', currency: 'USDC', network: 'polygon' })
    expectAuthError(create, 403, 'insufficient_permissions')
    expect(create.body.error.message).toContain('wallets:write')
  })

  it('a key limited to loopback addresses works from 127.0.0.1', async () => {
    sb = await startTestSandbox()
    await sb.api.get('/v1/wallets').set(bearer(PAYMENTS_LOOPBACK)).expect(200)
  })

  it('a key whose allowed_ips exclude the caller gets 403 ip_not_allowed', async () => {
    sb = await startTestSandbox()
    const { key } = sb.sandbox.accounts.createKey({ accountId: DEFAULT_ACCOUNT, type: 'restricted', scopes: ['*'], allowedIps: ['10.0.0.0/8', '192.0.2.7'] })
    const res = await sb.api.get('/v1/wallets').set(bearer(key))
    expectAuthError(res, 403, 'ip_not_allowed')
    expect(res.body.error.message).toContain('127.0.0.1')
  })

  it('a key whose allowed_ips include the caller by CIDR is let in', async () => {
    sb = await startTestSandbox()
    const { key } = sb.sandbox.accounts.createKey({ accountId: DEFAULT_ACCOUNT, type: 'restricted', scopes: ['wallets:read'], allowedIps: ['127.0.0.0/8'] })
    await sb.api.get('/v1/wallets').set(bearer(key)).expect(200)
  })
})
