import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { isValidAddress } from '../../src/chain/networks.js'
import { ASSETS, NETWORKS, type Network } from '../../src/model/networks.js'
import { institutionalWallet, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

const EVM_RECIPIENT = '0x52908400098527886E0F7030069857D2E4169EE7'
const PAIRS = NETWORKS.flatMap((network) => Object.keys(ASSETS[network]).map((currency) => [network, currency] as [Network, string]))
const FIXTURE = JSON.parse(readFileSync(new URL('../../fixtures/accounts.json', import.meta.url), 'utf8')) as {
  institutional_wallets: Array<{ network: string; currency: string; balance: string }>
  user_wallets: Array<{ network: string; currency: string; balance: string }>
}
const SEEDED = FIXTURE.institutional_wallets.length + FIXTURE.user_wallets.length

let sb: TestSandbox
afterEach(() => sb?.close())

interface Wallet {
  id: string
  object: 'wallet'
  type: string
  name: string
  address: string
  currency: string
  network: Network
  status: string
  balance: string
  metadata: Record<string, string>
  created_at: string
  updated_at: string
}

async function listAll(query = '', key?: string): Promise<Wallet[]> {
  const res = await sb.api.get(`/v1/wallets?limit=100${query ? `&${query}` : ''}`).set(sb.auth(key)).expect(200)
  return res.body.data
}

async function createWallet(body: Record<string, unknown> = {}, key?: string): Promise<Wallet> {
  const res = await sb.api
    .post('/v1/wallets')
    .set(sb.auth(key))
    .send({ name: 'Customer wallet', currency: 'USDC', network: 'polygon', ...body })
    .expect(201)
  return res.body.data
}

async function balance(id: string) {
  return (await sb.api.get(`/v1/wallets/${id}/balance`).set(sb.auth()).expect(200)).body.data
}

async function pay(source: string, recipient: string, amount = '1.00', currency = 'USDC') {
  return sb.api.post('/v1/payments').set(sb.auth()).send({ amount, currency, source_wallet: source, recipient })
}

describe('seeded wallets', () => {
  it('one funded institutional wallet per network/asset pair, with the fixture balance', async () => {
    sb = await startTestSandbox()
    const institutional = await listAll('type=institutional')
    expect(institutional).toHaveLength(10)
    expect(institutional.map((w) => `${w.network}/${w.currency}`).sort()).toEqual(PAIRS.map(([n, c]) => `${n}/${c}`).sort())
    for (const seed of FIXTURE.institutional_wallets) {
      const wallet = institutional.find((w) => w.network === seed.network && w.currency === seed.currency)!
      expect(wallet.status).toBe('active')
      expect(wallet.balance).toBe(seed.balance)
    }
  })

  it('user wallets with realistic names and an external_user_id each', async () => {
    sb = await startTestSandbox()
    const users = await listAll('type=user')
    expect(users).toHaveLength(FIXTURE.user_wallets.length)
    for (const wallet of users) {
      expect(wallet.metadata.external_user_id).toMatch(/^user_[a-z0-9]+$/)
      expect(wallet.name).toMatch(/^\S+ .+\((USDC|USDT|ETH|MATIC|SOL|XLM)\)$/)
    }
    expect(new Set(users.map((w) => w.metadata.external_user_id)).size).toBe(users.length)
  })

  it('every seeded address is valid for its network', async () => {
    sb = await startTestSandbox()
    const all = await listAll()
    expect(all).toHaveLength(SEEDED)
    for (const wallet of all) expect(isValidAddress(wallet.network, wallet.address), `${wallet.network} ${wallet.address}`).toBe(true)
  })
})

describe('POST /v1/wallets', () => {
  it('creates an empty active user wallet with the full wallet shape', async () => {
    sb = await startTestSandbox()
    const res = await sb.api.post('/v1/wallets').set(sb.auth()).send({ name: 'Alice', currency: 'USDC', network: 'polygon' }).expect(201)
    const wallet = res.body.data as Wallet
    expect(Object.keys(wallet).sort()).toEqual(
      ['address', 'balance', 'created_at', 'currency', 'id', 'metadata', 'name', 'network', 'object', 'status', 'type', 'updated_at'].sort(),
    )
    expect(wallet).toMatchObject({
      object: 'wallet',
      type: 'user',
      name: 'Alice',
      currency: 'USDC',
      network: 'polygon',
      status: 'active',
      balance: '0.00',
      metadata: {},
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
    })
    expect(wallet.id).toMatch(/^wal_[0-9A-Za-z]{24}$/)
  })

  it.each(PAIRS)('creates a %s %s wallet with a valid address', async (network, currency) => {
    sb = await startTestSandbox()
    const wallet = await createWallet({ network, currency })
    expect(wallet).toMatchObject({ network, currency, balance: '0.00' })
    expect(isValidAddress(network, wallet.address)).toBe(true)
    expect(await balance(wallet.id)).toEqual({ object: 'balance', wallet_id: wallet.id, available_balance: '0.00', locked_balance: '0.00', total_balance: '0.00', currency })
  })

  it.each(['institutional', 'omnibus', 'user'])('accepts type %s', async (type) => {
    sb = await startTestSandbox()
    expect((await createWallet({ type })).type).toBe(type)
  })

  it('keeps metadata, including external_user_id', async () => {
    sb = await startTestSandbox()
    const wallet = await createWallet({ metadata: { external_user_id: 'cust_42', tier: 'gold' } })
    expect(wallet.metadata).toEqual({ external_user_id: 'cust_42', tier: 'gold' })
  })

  it('gives every wallet its own id and address', async () => {
    sb = await startTestSandbox()
    const wallets = [await createWallet(), await createWallet(), await createWallet()]
    expect(new Set(wallets.map((w) => w.id)).size).toBe(3)
    expect(new Set(wallets.map((w) => w.address)).size).toBe(3)
  })
})

describe('GET /v1/wallets/{id}', () => {
  it('returns the wallet as created', async () => {
    sb = await startTestSandbox()
    const wallet = await createWallet({ metadata: { a: 'b' } })
    const res = await sb.api.get(`/v1/wallets/${wallet.id}`).set(sb.auth()).expect(200)
    expect(res.body.data).toEqual(wallet)
  })

  it('answers an unknown id with 404 resource_missing naming it', async () => {
    sb = await startTestSandbox()
    const res = await sb.api.get('/v1/wallets/wal_000000000000000000000000').set(sb.auth()).expect(404)
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'resource_missing' })
    expect(res.body.error.message).toContain('wal_000000000000000000000000')
  })
})

describe('GET /v1/wallets', () => {
  it('lists newest first', async () => {
    sb = await startTestSandbox()
    const first = await createWallet({ name: 'first' })
    const second = await createWallet({ name: 'second' })
    const third = await createWallet({ name: 'third' })
    const res = await sb.api.get('/v1/wallets?limit=3').set(sb.auth()).expect(200)
    expect(res.body.data.map((w: Wallet) => w.id)).toEqual([third.id, second.id, first.id])
  })

  it('defaults to 20 per page from offset 0', async () => {
    sb = await startTestSandbox()
    for (let i = 0; i < 8; i++) await createWallet()
    const res = await sb.api.get('/v1/wallets').set(sb.auth()).expect(200)
    expect(res.body.data).toHaveLength(20)
    expect(res.body.pagination).toEqual({ limit: 20, offset: 0, total: SEEDED + 8, has_more: true })
  })

  it('pages with limit and offset, has_more and total, and the pages add up to the whole list', async () => {
    sb = await startTestSandbox()
    const all = await listAll()
    const pages: Wallet[] = []
    for (let offset = 0; offset < all.length; offset += 5) {
      const res = await sb.api.get(`/v1/wallets?limit=5&offset=${offset}`).set(sb.auth()).expect(200)
      expect(res.body.pagination).toEqual({ limit: 5, offset, total: all.length, has_more: offset + 5 < all.length })
      pages.push(...res.body.data)
    }
    expect(pages).toEqual(all)
    const beyond = await sb.api.get('/v1/wallets?limit=5&offset=1000').set(sb.auth()).expect(200)
    expect(beyond.body).toMatchObject({ data: [], pagination: { limit: 5, offset: 1000, total: all.length, has_more: false } })
  })

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=-1', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=1.5', 'limit'],
    ['limit=', 'limit'],
    ['offset=-1', 'offset'],
    ['offset=x', 'offset'],
    ['offset=2.5', 'offset'],
  ])('refuses %s with 400 parameter_invalid, never clamping', async (query, param) => {
    sb = await startTestSandbox()
    const res = await sb.api.get(`/v1/wallets?${query}`).set(sb.auth()).expect(400)
    expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param })
  })

  it('accepts the edges limit=1 and limit=100', async () => {
    sb = await startTestSandbox()
    expect((await sb.api.get('/v1/wallets?limit=1').set(sb.auth()).expect(200)).body.data).toHaveLength(1)
    expect((await sb.api.get('/v1/wallets?limit=100').set(sb.auth()).expect(200)).body.data).toHaveLength(SEEDED)
  })

  it('filters by network, currency, type, status and external_user_id, alone and together', async () => {
    sb = await startTestSandbox()
    const frozen = await createWallet({ network: 'solana', currency: 'SOL', metadata: { external_user_id: 'cust_7' } })
    await sb.api.put(`/v1/wallets/${frozen.id}`).set(sb.auth()).send({ status: 'frozen' }).expect(200)
    const all = await listAll()
    const cases: Array<[string, (w: Wallet) => boolean]> = [
      ['network=solana', (w) => w.network === 'solana'],
      ['currency=USDC', (w) => w.currency === 'USDC'],
      ['type=user', (w) => w.type === 'user'],
      ['type=institutional', (w) => w.type === 'institutional'],
      ['type=omnibus', (w) => w.type === 'omnibus'],
      ['status=frozen', (w) => w.status === 'frozen'],
      ['status=active', (w) => w.status === 'active'],
      ['status=closed', (w) => w.status === 'closed'],
      ['external_user_id=cust_7', (w) => w.metadata.external_user_id === 'cust_7'],
      ['network=ethereum&currency=USDT', (w) => w.network === 'ethereum' && w.currency === 'USDT'],
      ['network=solana&type=user&status=frozen', (w) => w.network === 'solana' && w.type === 'user' && w.status === 'frozen'],
    ]
    for (const [query, keep] of cases) {
      const listed = await listAll(query)
      expect(listed, query).toEqual(all.filter(keep))
      const res = await sb.api.get(`/v1/wallets?${query}&limit=1`).set(sb.auth()).expect(200)
      expect(res.body.pagination.total, query).toBe(listed.length)
    }
    expect((await listAll('status=frozen')).map((w) => w.id)).toEqual([frozen.id])
    expect((await listAll('external_user_id=cust_7')).map((w) => w.id)).toEqual([frozen.id])
  })

  it('finds a seeded user wallet by its external_user_id', async () => {
    sb = await startTestSandbox()
    const [user] = await listAll('type=user')
    const found = await listAll(`external_user_id=${user!.metadata.external_user_id}`)
    expect(found).toEqual([user])
  })
})

describe('PUT /v1/wallets/{id}', () => {
  it('changes the name and nothing else, and moves updated_at on the sandbox clock', async () => {
    sb = await startTestSandbox()
    const wallet = await createWallet({ metadata: { keep: 'me' } })
    await sb.sandbox.clock.advance(60_000)
    const res = await sb.api.put(`/v1/wallets/${wallet.id}`).set(sb.auth()).send({ name: 'Renamed' }).expect(200)
    expect(res.body.data).toEqual({ ...wallet, name: 'Renamed', updated_at: '2026-01-01T00:01:00.000Z' })
  })

  it('replaces metadata as a whole', async () => {
    sb = await startTestSandbox()
    const wallet = await createWallet({ metadata: { a: '1', b: '2' } })
    const replaced = await sb.api.put(`/v1/wallets/${wallet.id}`).set(sb.auth()).send({ metadata: { c: '3' } }).expect(200)
    expect(replaced.body.data.metadata).toEqual({ c: '3' })
    const cleared = await sb.api.put(`/v1/wallets/${wallet.id}`).set(sb.auth()).send({ metadata: {} }).expect(200)
    expect(cleared.body.data.metadata).toEqual({})
  })

  it('freezes and reactivates a wallet', async () => {
    sb = await startTestSandbox()
    const wallet = await createWallet()
    expect((await sb.api.put(`/v1/wallets/${wallet.id}`).set(sb.auth()).send({ status: 'frozen' }).expect(200)).body.data.status).toBe('frozen')
    expect((await sb.api.put(`/v1/wallets/${wallet.id}`).set(sb.auth()).send({ status: 'active' }).expect(200)).body.data.status).toBe('active')
  })

  it('a frozen wallet can neither send nor receive: 422 wallet_inactive', async () => {
    sb = await startTestSandbox()
    const treasury = await institutionalWallet(sb, 'polygon', 'USDC')
    const user = (await listAll('type=user&network=polygon&currency=USDC'))[0]!
    await sb.api.put(`/v1/wallets/${user.id}`).set(sb.auth()).send({ status: 'frozen' }).expect(200)
    const send = await pay(user.id, EVM_RECIPIENT)
    expect(send.status).toBe(422)
    expect(send.body.error).toMatchObject({ code: 'wallet_inactive', param: 'source_wallet' })
    const receive = await pay(treasury.id, user.id)
    expect(receive.status).toBe(422)
    expect(receive.body.error).toMatchObject({ code: 'wallet_inactive', param: 'recipient' })
    expect(await balance(user.id)).toMatchObject({ available_balance: user.balance, locked_balance: '0.00' })
    expect(await balance(treasury.id)).toMatchObject({ locked_balance: '0.00' })
  })

  it('refuses to set status closed (that is what DELETE is for)', async () => {
    sb = await startTestSandbox()
    const wallet = await createWallet()
    const res = await sb.api.put(`/v1/wallets/${wallet.id}`).set(sb.auth()).send({ status: 'closed' }).expect(400)
    expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param: 'status' })
    expect(res.body.error.message).toContain('DELETE')
  })

  it.each([{ name: 'Reopened' }, { status: 'active' }, { metadata: { a: 'b' } }])('refuses to change a closed wallet (%j): 409 invalid_state_transition', async (change) => {
    sb = await startTestSandbox()
    const wallet = await createWallet()
    const closed = (await sb.api.delete(`/v1/wallets/${wallet.id}`).set(sb.auth()).expect(200)).body.data
    const res = await sb.api.put(`/v1/wallets/${wallet.id}`).set(sb.auth()).send(change).expect(409)
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_state_transition' })
    expect((await sb.api.get(`/v1/wallets/${wallet.id}`).set(sb.auth()).expect(200)).body.data).toEqual(closed)
  })

  it('answers an unknown id with 404', async () => {
    sb = await startTestSandbox()
    const res = await sb.api.put('/v1/wallets/wal_nope').set(sb.auth()).send({ name: 'x' }).expect(404)
    expect(res.body.error.code).toBe('resource_missing')
  })
})

describe('DELETE /v1/wallets/{id}', () => {
  it('closes an empty wallet, which stays readable as closed', async () => {
    sb = await startTestSandbox()
    const wallet = await createWallet()
    await sb.sandbox.clock.advance(1_000)
    const res = await sb.api.delete(`/v1/wallets/${wallet.id}`).set(sb.auth()).expect(200)
    expect(res.body.data).toEqual({ ...wallet, status: 'closed', updated_at: '2026-01-01T00:00:01.000Z' })
    expect((await sb.api.get(`/v1/wallets/${wallet.id}`).set(sb.auth()).expect(200)).body.data.status).toBe('closed')
    expect(await balance(wallet.id)).toMatchObject({ total_balance: '0.00' })
    expect((await listAll('status=closed')).map((w) => w.id)).toEqual([wallet.id])
  })

  it('refuses a wallet holding funds: 409 wallet_not_empty, and the wallet is unchanged', async () => {
    sb = await startTestSandbox()
    const treasury = await institutionalWallet(sb, 'polygon', 'USDC')
    const res = await sb.api.delete(`/v1/wallets/${treasury.id}`).set(sb.auth()).expect(409)
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'wallet_not_empty' })
    expect((await sb.api.get(`/v1/wallets/${treasury.id}`).set(sb.auth()).expect(200)).body.data).toMatchObject({ status: 'active', balance: '1000000.00' })
  })

  it('refuses a wallet whose only funds are locked by a pending payment', async () => {
    sb = await startTestSandbox()
    const user = (await listAll('type=user&network=polygon&currency=USDC'))[0]!
    await pay(user.id, EVM_RECIPIENT, user.balance).then((r) => expect(r.status).toBe(201))
    expect(await balance(user.id)).toMatchObject({ available_balance: '0.00', locked_balance: user.balance })
    const res = await sb.api.delete(`/v1/wallets/${user.id}`).set(sb.auth()).expect(409)
    expect(res.body.error.code).toBe('wallet_not_empty')
  })

  it('refuses an empty wallet with a payment on its way in', async () => {
    sb = await startTestSandbox()
    const treasury = await institutionalWallet(sb, 'polygon', 'USDC')
    const wallet = await createWallet()
    await pay(treasury.id, wallet.id, '5').then((r) => expect(r.status).toBe(201))
    const res = await sb.api.delete(`/v1/wallets/${wallet.id}`).set(sb.auth()).expect(409)
    expect(res.body.error.code).toBe('wallet_not_empty')
  })

  it('a closed wallet cannot send or receive: 422 wallet_inactive', async () => {
    sb = await startTestSandbox()
    const treasury = await institutionalWallet(sb, 'polygon', 'USDC')
    const wallet = await createWallet()
    await sb.api.delete(`/v1/wallets/${wallet.id}`).set(sb.auth()).expect(200)
    const send = await pay(wallet.id, EVM_RECIPIENT)
    expect(send.status).toBe(422)
    expect(send.body.error).toMatchObject({ code: 'wallet_inactive', param: 'source_wallet' })
    const receive = await pay(treasury.id, wallet.id)
    expect(receive.status).toBe(422)
    expect(receive.body.error).toMatchObject({ code: 'wallet_inactive', param: 'recipient' })
    expect(await balance(treasury.id)).toMatchObject({ available_balance: '1000000.00', locked_balance: '0.00' })
  })

  it('answers an unknown id with 404', async () => {
    sb = await startTestSandbox()
    const res = await sb.api.delete('/v1/wallets/wal_nope').set(sb.auth()).expect(404)
    expect(res.body.error.code).toBe('resource_missing')
  })
})

describe('GET /v1/wallets/{id}/balance', () => {
  it('keeps total = available + locked as payments lock funds', async () => {
    sb = await startTestSandbox()
    const treasury = await institutionalWallet(sb, 'ethereum', 'ETH')
    expect(await balance(treasury.id)).toEqual({ object: 'balance', wallet_id: treasury.id, available_balance: '250.00', locked_balance: '0.00', total_balance: '250.00', currency: 'ETH' })
    await pay(treasury.id, EVM_RECIPIENT, '0.000000000000000001', 'ETH').then((r) => expect(r.status).toBe(201))
    await pay(treasury.id, EVM_RECIPIENT, '10.5', 'ETH').then((r) => expect(r.status).toBe(201))
    expect(await balance(treasury.id)).toEqual({
      object: 'balance',
      wallet_id: treasury.id,
      available_balance: '239.499999999999999999',
      locked_balance: '10.500000000000000001',
      total_balance: '250.00',
      currency: 'ETH',
    })
    const wallet = (await sb.api.get(`/v1/wallets/${treasury.id}`).set(sb.auth()).expect(200)).body.data
    expect(wallet.balance).toBe('250.00')
  })

  it('answers an unknown id with 404', async () => {
    sb = await startTestSandbox()
    expect((await sb.api.get('/v1/wallets/wal_nope/balance').set(sb.auth()).expect(404)).body.error.code).toBe('resource_missing')
  })
})

describe('deterministic ids and addresses', () => {
  async function snapshot(seed: string, key: string) {
    sb = await startTestSandbox({ seed })
    const seeded = await listAll('', key)
    const created = await createWallet({ network: 'stellar', currency: 'XLM' }, key)
    const createdSolana = await createWallet({ network: 'solana', currency: 'SOL' }, key)
    await sb.close()
    return { seeded, created, createdSolana }
  }

  it('two sandboxes with the same seed and key give the same wallets, ids and addresses', async () => {
    const first = await snapshot('determinism', 'sk_test_same_key_twice')
    const second = await snapshot('determinism', 'sk_test_same_key_twice')
    expect(second).toEqual(first)
  })

  it('the default key is deterministic too', async () => {
    const first = await snapshot('determinism', 'sk_test_sandbox_default_key')
    const second = await snapshot('determinism', 'sk_test_sandbox_default_key')
    expect(second).toEqual(first)
  })

  it('a different seed gives different ids and addresses', async () => {
    const first = await snapshot('determinism', 'sk_test_same_key_twice')
    const other = await snapshot('another-seed', 'sk_test_same_key_twice')
    const ids = new Set(first.seeded.map((w) => w.id))
    const addresses = new Set(first.seeded.map((w) => w.address))
    expect(other.seeded.some((w) => ids.has(w.id))).toBe(false)
    expect(other.seeded.some((w) => addresses.has(w.address))).toBe(false)
    expect(other.created.id).not.toBe(first.created.id)
    expect(other.created.address).not.toBe(first.created.address)
  })

  it('a different key on the same seed gives a different account', async () => {
    const first = await snapshot('determinism', 'sk_test_same_key_twice')
    const other = await snapshot('determinism', 'sk_test_some_other_key')
    const ids = new Set(first.seeded.map((w) => w.id))
    expect(other.seeded.some((w) => ids.has(w.id))).toBe(false)
  })
})
