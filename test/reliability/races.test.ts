import { afterEach, describe, expect, it } from 'vitest'
import { findLedgerViolations } from '../../src/ledger/ledger-check.js'
import { tradingWallets } from '../helpers/orders.js'
import { race, tally, type RaceRequest } from '../helpers/race.js'
import { units } from '../helpers/settlements.js'
import { DEFAULT_KEY, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

/** Concurrent clients against one wallet, one Idempotency-Key, one order and one settlement (issue 16, races), through the race harness. */

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

describe('an order cancelled and filled by control at the same moment', () => {
  it('ends one way only: one call wins, every other is 409 invalid_state_transition, and the books balance', async () => {
    sb = await startTestSandbox()
    const { eth, usdc } = await tradingWallets(sb, { USDC: '100.00' })
    for (let round = 0; round < 5; round++) {
      // Far below the market, so nothing but the control call fills it.
      const order = (await sb.api.post('/v1/orders').set(sb.auth()).send({ pair: 'ETH/USDC', side: 'buy', type: 'limit', amount: '0.01', limit_price: '1000.00', base_wallet: eth, quote_wallet: usdc }).expect(201)).body.data
      const before = { eth: await balanceOf(eth), usdc: await balanceOf(usdc) }
      const cancel: RaceRequest = { method: 'POST', path: `/v1/orders/${order.id}/cancel`, headers: AUTH }
      const fill: RaceRequest = { method: 'POST', path: `/_sandbox/orders/${order.id}/fill`, body: { price: '1000.00' } }

      const answers = await race(sb.url, Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? cancel : fill)))

      expect(tally(answers)).toEqual({ '200': 1, '409 invalid_state_transition': 19 })
      const winner = answers.find((a) => a.status === 200)!.body.data
      const final = (await sb.api.get(`/v1/orders/${order.id}`).set(sb.auth()).expect(200)).body.data
      expect(final).toMatchObject({ status: winner.status, filled_amount: winner.filled_amount })
      const after = { eth: await balanceOf(eth), usdc: await balanceOf(usdc) }
      if (winner.status === 'cancelled') {
        expect(after).toEqual({ eth: before.eth, usdc: { ...before.usdc, available_balance: before.usdc.total_balance, locked_balance: '0.00' } })
      } else {
        expect(winner).toMatchObject({ status: 'filled', filled_amount: '0.01', quote_amount: '10.00' })
        expect(units(after.eth.total_balance, 18)).toBe(units(before.eth.total_balance, 18) + units('0.01', 18))
        expect(units(after.usdc.total_balance, 6)).toBe(units(before.usdc.total_balance, 6) - units(winner.quote_amount, 6) - units(winner.fee, 6))
        expect(after.usdc.locked_balance).toBe('0.00')
      }
      expect(findLedgerViolations(account())).toEqual([])
    }
  })
})

describe('a settlement advanced and failed by control at the same moment', () => {
  it('ends one way only: one call wins, every other is 409 invalid_state_transition, and the source wallet is debited or whole', async () => {
    sb = await startTestSandbox()
    const walletId = await walletHolding('100.00')
    for (let round = 0; round < 5; round++) {
      // Same currency to an address: one transfer step, so one advance completes it and one fail ends it.
      const settlement = (await sb.api.post('/v1/settlements').set(sb.auth()).send({ source_wallet: walletId, amount: '1.00', destination: { type: 'address', network: 'polygon', currency: 'USDC', address: EXTERNAL } }).expect(201)).body.data
      expect(settlement.steps).toHaveLength(1)
      const before = await balanceOf(walletId)
      const advance: RaceRequest = { method: 'POST', path: `/_sandbox/settlements/${settlement.id}/advance` }
      const fail: RaceRequest = { method: 'POST', path: `/_sandbox/settlements/${settlement.id}/fail`, body: {} }

      const answers = await race(sb.url, Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? advance : fail)))

      expect(tally(answers)).toEqual({ '200': 1, '409 invalid_state_transition': 19 })
      const winner = answers.find((a) => a.status === 200)!.body.data
      expect((await sb.api.get(`/v1/settlements/${settlement.id}`).set(sb.auth()).expect(200)).body.data.status).toBe(winner.status)
      const after = await balanceOf(walletId)
      expect(after.locked_balance).toBe('0.00')
      if (winner.status === 'completed') expect(units(after.total_balance, 6)).toBe(units(before.total_balance, 6) - units(settlement.total_debit, 6))
      else {
        expect(winner.status).toBe('failed')
        expect(after.total_balance).toBe(before.total_balance)
      }
      expect(findLedgerViolations(account())).toEqual([])
    }
  })
})
