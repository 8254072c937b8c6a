import { afterEach, describe, expect, it } from 'vitest'
import { createControlClient, SandboxControlError } from '../../src/client/control-client.js'
import { findLedgerViolations } from '../../src/ledger/ledger-check.js'
import { startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

const ACCOUNT = 'acct_sandboxDefaultAccount000'
const EXTERNAL = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'
const SENDER = '0x52908400098527886E0F7030069857D2E4169EE7'

let sb: TestSandbox
afterEach(() => sb?.close())

async function userWallet(network = 'polygon', currency = 'USDC') {
  const res = await sb.api.get(`/v1/wallets?type=user&network=${network}&currency=${currency}`).set(sb.auth()).expect(200)
  return res.body.data[0] as { id: string }
}
const pay = async (source: string, amount: string, metadata = {}) =>
  (await sb.api.post('/v1/payments').set(sb.auth()).send({ amount, currency: 'USDC', source_wallet: source, recipient: EXTERNAL, metadata }).expect(201)).body.data as { id: string }
const postings = (query = '', account = ACCOUNT) => sb.api.get(`/_sandbox/accounts/${account}/postings${query}`)
const snapshot = async () => (await sb.api.get('/_sandbox/snapshot').expect(200)).body.data
const checkBooks = () => {
  for (const account of sb.sandbox.store.accounts.values()) expect(findLedgerViolations(account)).toEqual([])
}

describe('GET /_sandbox/accounts/{id}/postings', () => {
  it('shows every movement of a wallet’s money as balanced transactions, newest first (the documented example)', async () => {
    sb = await startTestSandbox()
    const wallet = await userWallet() // seeded with 250.00 USDC
    await sb.api.post(`/_sandbox/wallets/${wallet.id}/deposit`).send({ amount: '25.00', from_address: SENDER }).expect(200)
    await sb.api.post('/_sandbox/clock/advance').send({ ms: 1000 }).expect(200)
    const sent = await pay(wallet.id, '10.00')
    await sb.api.post(`/_sandbox/payments/${sent.id}/complete`).expect(200)
    const failed = await pay(wallet.id, '5.00')
    await sb.api.post(`/_sandbox/payments/${failed.id}/fail`).send({}).expect(200)

    const res = await postings(`?wallet_id=${wallet.id}`).expect(200)
    const available = `${wallet.id}:available`
    const locked = `${wallet.id}:locked`
    const line = (account: string, amount: string) => ({
      account, wallet_id: account.startsWith('wal_') ? wallet.id : null, bucket: account.split(':').at(-1) === 'USDC' ? 'external' : account.split(':')[1], amount, currency: 'USDC', network: 'polygon',
    })
    const at0 = '2026-01-01T00:00:00.000Z'
    const at1 = '2026-01-01T00:00:01.000Z'
    expect(res.body.data.map(({ id: _id, ...tx }: { id: number }) => tx)).toEqual([
      { object: 'ledger_transaction', cause: 'payment.failed', reference: failed.id, created_at: at1, postings: [line(locked, '-5.00'), line(available, '5.00')] },
      { object: 'ledger_transaction', cause: 'payment.created', reference: failed.id, created_at: at1, postings: [line(available, '-5.00'), line(locked, '5.00')] },
      { object: 'ledger_transaction', cause: 'payment.completed', reference: sent.id, created_at: at1, postings: [line(locked, '-10.00'), line('external:polygon:USDC', '10.00')] },
      { object: 'ledger_transaction', cause: 'payment.created', reference: sent.id, created_at: at1, postings: [line(available, '-10.00'), line(locked, '10.00')] },
      { object: 'ledger_transaction', cause: 'deposit', reference: SENDER, created_at: at0, postings: [line('external:polygon:USDC', '-25.00'), line(available, '25.00')] },
      { object: 'ledger_transaction', cause: 'opening_balance', reference: wallet.id, created_at: at0, postings: [line('external:polygon:USDC', '-250.00'), line(available, '250.00')] },
    ])
    const ids = res.body.data.map((tx: { id: number }) => tx.id)
    expect(ids).toEqual([...ids].sort((a, b) => b - a))
    expect(res.body.pagination).toEqual({ limit: 20, offset: 0, total: 6, has_more: false })
    const balance = (await sb.api.get(`/v1/wallets/${wallet.id}/balance`).set(sb.auth()).expect(200)).body.data
    expect(balance).toMatchObject({ available_balance: '265.00', locked_balance: '0.00' })
  })

  it('pages through the whole log, opening balances included', async () => {
    sb = await startTestSandbox()
    const all = (await postings('?limit=100').expect(200)).body
    const funded = (await sb.api.get('/v1/wallets?limit=100').set(sb.auth()).expect(200)).body.data.filter((w: { balance: string }) => w.balance !== '0.00')
    expect(all.pagination.total).toBe(funded.length)
    expect(all.data.every((tx: { cause: string }) => tx.cause === 'opening_balance')).toBe(true)
    const page = await postings('?limit=2&offset=3').expect(200)
    expect(page.body.data).toEqual(all.data.slice(3, 5))
    expect(page.body.pagination).toEqual({ limit: 2, offset: 3, total: funded.length, has_more: true })
    expect((await postings(`?offset=${funded.length}`).expect(200)).body.data).toEqual([])
  })

  it('answers 404 for an unknown account or a wallet that is not the account’s, and 400 for a bad page', async () => {
    sb = await startTestSandbox()
    expect((await postings('', 'acct_nobody').expect(404)).body.error).toMatchObject({ code: 'resource_missing', message: "No such account: 'acct_nobody'." })
    expect((await postings('?wallet_id=wal_nobody').expect(404)).body.error).toMatchObject({ code: 'resource_missing', param: 'wallet_id', message: "No such wallet: 'wal_nobody'." })
    const other = (await sb.api.post('/_sandbox/keys').send({}).expect(201)).body.data
    const foreign = (await sb.api.get('/v1/wallets?type=institutional&limit=1').set(sb.auth(other.key)).expect(200)).body.data[0]
    expect((await postings(`?wallet_id=${foreign.id}`).expect(404)).body.error).toMatchObject({ code: 'resource_missing', param: 'wallet_id' })
    expect((await postings(`?wallet_id=${foreign.id}`, other.account_id).expect(200)).body.data.length).toBe(1)
    expect((await postings('?limit=0').expect(400)).body.error).toMatchObject({ code: 'parameter_invalid', param: 'limit' })
    expect((await postings('?wallet=wal_x').expect(400)).body.error.code).toBe('parameter_invalid')
  })

  it('is read through the typed control client', async () => {
    sb = await startTestSandbox()
    const wallet = await userWallet()
    const control = createControlClient({ baseUrl: sb.url })
    await control.deposit(wallet.id, '1.50')
    const [latest] = await control.postings(ACCOUNT, { wallet_id: wallet.id, limit: 1 })
    expect(latest).toMatchObject({ cause: 'deposit', postings: [{ amount: '-1.50', bucket: 'external' }, { amount: '1.50', bucket: 'available', wallet_id: wallet.id }] })
    await expect(control.postings('acct_nobody')).rejects.toBeInstanceOf(SandboxControlError)
  })

  it('starts again from the opening balances after a reset', async () => {
    sb = await startTestSandbox()
    const before = (await postings('?limit=100').expect(200)).body.data
    await pay((await userWallet()).id, '1.00')
    await sb.api.post('/_sandbox/reset').send({}).expect(200)
    expect((await postings('?limit=100').expect(200)).body.data).toEqual(before)
  })
})

describe('postings in snapshots and restores', () => {
  it('are part of the snapshot, and come back with a restore', async () => {
    sb = await startTestSandbox()
    const wallet = await userWallet()
    const payment = await pay(wallet.id, '3.00')
    const taken = await snapshot()
    expect(taken.accounts[0].postings.at(-1)).toEqual({
      cause: 'payment.created', ref: payment.id, at: '2026-01-01T00:00:00.000Z',
      lines: [{ account: `${wallet.id}:available`, amount: '-3000000' }, { account: `${wallet.id}:locked`, amount: '3000000' }],
    })
    const listed = (await postings('?limit=100').expect(200)).body.data
    await sb.api.post(`/_sandbox/payments/${payment.id}/complete`).expect(200)
    await sb.api.post('/_sandbox/restore').send(taken).expect(200)
    expect((await postings('?limit=100').expect(200)).body.data).toEqual(listed)
    checkBooks()
  })

  it('refuses a snapshot whose postings do not add up to its balances, naming the wallet, and changes nothing', async () => {
    sb = await startTestSandbox()
    const wallet = await userWallet()
    await pay(wallet.id, '3.00')
    const before = await snapshot()
    const w = before.accounts[0].wallets.findIndex((entry: { id: string }) => entry.id === wallet.id)
    const restore = (body: unknown) => sb.api.post('/_sandbox/restore').send(body as object).expect(400)

    const richer = structuredClone(before)
    richer.accounts[0].wallets[w].available = String(BigInt(richer.accounts[0].wallets[w].available) + 1_000_000n)
    const richerError = (await restore(richer)).body.error
    expect(richerError).toMatchObject({ type: 'invalid_request_error', code: 'parameter_invalid', param: `accounts[0].wallets[${w}].available` })
    expect(richerError.message).toContain(`The snapshot is inconsistent: wallet ${wallet.id} has available 248.00 USDC but its postings add up to 247.00 USDC`)

    const t = before.accounts[0].postings.length - 1
    const unbalanced = structuredClone(before)
    unbalanced.accounts[0].postings[t].lines[1].amount = '4000000'
    const refused = (await restore(unbalanced)).body.error
    expect(refused).toMatchObject({ code: 'parameter_invalid', param: `accounts[0].postings[${t}]` })
    expect(refused.message).toContain(`transaction ${t + 1} (payment.created `)
    expect(refused.message).toContain('polygon USDC lines sum to 1000000 base units, not 0')

    const unknown = structuredClone(before)
    unknown.accounts[0].postings[t].lines[1].account = 'wal_nobody:locked'
    expect((await restore(unknown)).body.error).toMatchObject({ code: 'parameter_invalid', param: `accounts[0].postings[${t}].lines[1].account` })

    const zero = structuredClone(before)
    zero.accounts[0].postings[t].lines[1].amount = '0'
    expect((await restore(zero)).body.error).toMatchObject({ code: 'parameter_invalid', param: `accounts[0].postings[${t}].lines[1].amount` })

    const { taken_at: _a, ...state } = before
    const { taken_at: _b, ...after } = await snapshot()
    expect(after).toEqual(state)
  })

  it('migrates a snapshot without postings: one opening balance per funded wallet, locked money included', async () => {
    sb = await startTestSandbox()
    const wallet = await userWallet()
    const payment = await pay(wallet.id, '3.00')
    await sb.api.post('/_sandbox/clock/advance').send({ ms: 5000 }).expect(200)
    const old = await snapshot()
    for (const account of old.accounts) delete account.postings
    await sb.api.post('/_sandbox/restore').send(old).expect(200)

    const log = (await postings(`?wallet_id=${wallet.id}`).expect(200)).body.data
    expect(log).toEqual([
      {
        id: log[0].id, object: 'ledger_transaction', cause: 'opening_balance', reference: wallet.id, created_at: '2026-01-01T00:00:00.000Z',
        postings: [
          { account: 'external:polygon:USDC', wallet_id: null, bucket: 'external', amount: '-250.00', currency: 'USDC', network: 'polygon' },
          { account: `${wallet.id}:available`, wallet_id: wallet.id, bucket: 'available', amount: '247.00', currency: 'USDC', network: 'polygon' },
          { account: `${wallet.id}:locked`, wallet_id: wallet.id, bucket: 'locked', amount: '3.00', currency: 'USDC', network: 'polygon' },
        ],
      },
    ])
    checkBooks()
    await sb.api.post(`/_sandbox/payments/${payment.id}/complete`).expect(200)
    checkBooks()
    expect((await snapshot()).accounts[0].postings.at(-1)).toMatchObject({ cause: 'payment.completed', ref: payment.id })
  })
})
