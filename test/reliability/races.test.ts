import { afterEach, describe, expect, it } from 'vitest'
import { findLedgerViolations } from '../../src/ledger/ledger-check.js'
import { race, tally, type RaceRequest } from '../helpers/race.js'
import { DEFAULT_KEY, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

/** Concurrent clients against one wallet and one Idempotency-Key (issue 16, races), through the race harness. */

const EXTERNAL = '0x52908400098527886E0F7030069857D2E4169EE7'
const AUTH = { authorization: `Bearer ${DEFAULT_KEY}` }

let sb: TestSandbox
afterEach(() => sb?.close())

const account = () => sb.sandbox.store.accounts.get(sb.sandbox.store.keys.get(DEFAULT_KEY)!.account_id)!

/** A fresh polygon USDC wallet holding exactly `amount`. */
async function walletHolding(amount: string): Promise<string> {
  const wallet = (await sb.api.post('/v1/wallets').set(sb.auth()).send({ name: 'race target', currency: 'USDC', network: 'polygon' }).expect(201)).body.data
  await sb.api.post(`/_sandbox/wallets/${wallet.id}/deposit`).send({ amount }).expect(200)
  return wallet.id
}

const balanceOf = async (walletId: string) => (await sb.api.get(`/v1/wallets/${walletId}/balance`).set(sb.auth()).expect(200)).body.data
const paymentsFrom = async (walletId: string) => (await sb.api.get(`/v1/payments?source_wallet=${walletId}&limit=1`).set(sb.auth()).expect(200)).body.pagination.total

describe('1,000 concurrent payments against one wallet', () => {
  it('exactly the N it can afford succeed (N = 37), the rest are insufficient_funds, and nothing is overdrawn', async () => {
    sb = await startTestSandbox()
    const walletId = await walletHolding('37.50')
    const payment: RaceRequest = { method: 'POST', path: '/v1/payments', headers: AUTH, body: { amount: '1.00', currency: 'USDC', source_wallet: walletId, recipient: EXTERNAL } }

    const answers = await race(sb.url, Array.from({ length: 1000 }, () => payment))

    expect(tally(answers)).toEqual({ '201': 37, '422 insufficient_funds': 963 })
    expect(await balanceOf(walletId)).toMatchObject({ available_balance: '0.50', locked_balance: '37.00', total_balance: '37.50' })
    expect(await paymentsFrom(walletId)).toBe(37)
    expect(new Set(answers.filter((a) => a.status === 201).map((a) => a.body.data.id)).size).toBe(37)
    expect(findLedgerViolations(account())).toEqual([])
  }, 60_000)

  it('with payments of different sizes: what succeeds never sums to more than the balance, and the books balance', async () => {
    sb = await startTestSandbox()
    const walletId = await walletHolding('100.00')
    const amounts = Array.from({ length: 400 }, (_, i) => `${(i % 7) + 1}.${String(i % 100).padStart(2, '0')}`)
    const answers = await race(sb.url, amounts.map((amount) => ({ method: 'POST', path: '/v1/payments', headers: AUTH, body: { amount, currency: 'USDC', source_wallet: walletId, recipient: EXTERNAL } })))

    const counts = tally(answers)
    expect(Object.keys(counts).sort()).toEqual(['201', '422 insufficient_funds'])
    const spentCents = answers.filter((a) => a.status === 201).reduce((sum, a) => sum + Math.round(Number(a.body.data.amount) * 100), 0)
    expect(spentCents).toBeLessThanOrEqual(10_000)
    const balance = await balanceOf(walletId)
    expect(Math.round(Number(balance.locked_balance) * 100)).toBe(spentCents)
    expect(Math.round(Number(balance.available_balance) * 100)).toBe(10_000 - spentCents)
    // No completion gives funds back here, so what was available only shrank: every refused amount
    // exceeds what is left at the end, or it would have fitted when it was refused.
    const smallestRefused = Math.min(...amounts.filter((_, i) => answers[i]!.status === 422).map((amount) => Math.round(Number(amount) * 100)))
    expect(smallestRefused).toBeGreaterThan(10_000 - spentCents)
    expect(findLedgerViolations(account())).toEqual([])
  }, 60_000)
})

describe('50 concurrent identical requests under one Idempotency-Key', () => {
  it('create exactly one payment; every other answer is a byte-identical replay or 409 idempotency_key_in_use', async () => {
    sb = await startTestSandbox()
    const walletId = await walletHolding('10.00')
    const request: RaceRequest = {
      method: 'POST',
      path: '/v1/payments',
      headers: { ...AUTH, 'idempotency-key': 'race-key-1' },
      body: { amount: '1.00', currency: 'USDC', source_wallet: walletId, recipient: EXTERNAL },
    }

    const answers = await race(sb.url, Array.from({ length: 50 }, () => request))

    const counts = tally(answers)
    expect(Object.keys(counts).every((label) => label === '201' || label === '409 idempotency_key_in_use'), JSON.stringify(counts)).toBe(true)
    const created = answers.filter((a) => a.status === 201)
    const first = created.filter((a) => a.headers['idempotent-replayed'] === undefined)
    expect(first).toHaveLength(1)
    for (const replay of created.filter((a) => a !== first[0])) {
      expect(replay.headers['idempotent-replayed']).toBe('true')
      expect(replay.text).toBe(first[0]!.text)
      expect(replay.headers['x-request-id']).toBe(first[0]!.headers['x-request-id'])
    }
    expect(await paymentsFrom(walletId)).toBe(1)
    expect(await balanceOf(walletId)).toMatchObject({ available_balance: '9.00', locked_balance: '1.00' })
    // A retry after the race is a replay of the one payment.
    const again = await sb.api.post('/v1/payments').set(sb.auth()).set('Idempotency-Key', 'race-key-1').send(request.body as object).expect(201)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.body.data.id).toBe(first[0]!.body.data.id)
    expect(findLedgerViolations(account())).toEqual([])
  })

  it('under one key, racing bodies that differ: one payment, the others are replays, 409 or 422 idempotency_key_reused', async () => {
    sb = await startTestSandbox()
    const walletId = await walletHolding('100.00')
    const answers = await race(
      sb.url,
      Array.from({ length: 50 }, (_, i) => ({
        method: 'POST',
        path: '/v1/payments',
        headers: { ...AUTH, 'idempotency-key': 'race-key-2' },
        body: { amount: i % 2 === 0 ? '1.00' : '2.00', currency: 'USDC', source_wallet: walletId, recipient: EXTERNAL },
      })),
    )
    const counts = tally(answers)
    expect(Object.keys(counts).every((label) => ['201', '409 idempotency_key_in_use', '422 idempotency_key_reused'].includes(label)), JSON.stringify(counts)).toBe(true)
    expect(answers.filter((a) => a.status === 201 && a.headers['idempotent-replayed'] === undefined)).toHaveLength(1)
    expect(await paymentsFrom(walletId)).toBe(1)
    expect(findLedgerViolations(account())).toEqual([])
  })
})
