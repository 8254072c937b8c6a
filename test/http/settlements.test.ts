import { afterEach, describe, expect, it } from 'vitest'
import { networksForAddress } from '../../src/chain/networks.js'
import { findLedgerViolations } from '../../src/ledger/ledger-check.js'
import { startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'
import {
  advanceClock, balanceOf, bankDestination, createSettlement, EXTERNAL, getSettlement, institutionalWallet, recordSettlementEvents, show, units,
} from '../helpers/settlements.js'

let sb: TestSandbox
afterEach(async () => {
  for (const account of sb.sandbox.store.accounts.values()) expect(findLedgerViolations(account)).toEqual([])
  await sb.close()
})

const advance = (id: string) => sb.api.post(`/_sandbox/settlements/${id}/advance`).send({})
const stepTypes = (s: { steps: Array<{ type: string }> }) => s.steps.map((step) => step.type)

describe('settlement steps by destination', () => {
  it.each([
    ['a USD bank account (ACH)', 'USD', 'ach'],
    ['a EUR bank account (SEPA)', 'EUR', 'sepa'],
    ['a GBP bank account (Faster Payments)', 'GBP', 'fps'],
    ['a MXN bank account (SPEI)', 'MXN', 'spei'],
  ] as const)('to %s: conversion, then the payout over its rail with a reference; the total debit leaves the source', async (_name, currency, rail) => {
    sb = await startTestSandbox({ settle: 'auto' })
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    const { data } = await createSettlement(sb, { source_wallet: source.id, amount: '100.00', destination: bankDestination(currency) })
    expect(stepTypes(data)).toEqual(['conversion', 'transfer'])
    expect(data.destination).toMatchObject({ type: 'bank_account', currency, rail })
    expect(data.fees).toEqual([
      { type: 'conversion', amount: '0.20', currency: 'USDC' },
      { type: 'payout', amount: '0.25', currency: 'USDC' },
    ])
    expect(data.total_debit).toBe('100.45')
    expect(await balanceOf(sb, source.id)).toMatchObject({ available_balance: '999899.55', locked_balance: '100.45' })
    await advanceClock(sb, 60_000)
    const done = await getSettlement(sb, data.id)
    expect(done.status).toBe('completed')
    expect(done.steps[1]).toMatchObject({ status: 'completed', rail, reference: expect.any(String) })
    expect(await balanceOf(sb, source.id)).toMatchObject({ available_balance: '999899.55', locked_balance: '0.00', total_balance: '999899.55' })
  })

  it('to a wallet on the same network and currency: one transfer, no fee, credited exactly', async () => {
    sb = await startTestSandbox()
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    const target = (await sb.api.post('/v1/wallets').set(sb.auth()).send({ name: 'target', currency: 'USDC', network: 'polygon' }).expect(201)).body.data
    const { data } = await createSettlement(sb, { source_wallet: source.id, amount: '25.50', destination: { type: 'wallet', wallet_id: target.id } })
    expect(stepTypes(data)).toEqual(['transfer'])
    expect(data).toMatchObject({ fees: [], total_debit: '25.50', destination_amount: '25.50', rate: '1' })
    const done = (await advance(data.id).expect(200)).body.data
    expect(done.status).toBe('completed')
    expect(done.steps[0].tx_hash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(await balanceOf(sb, target.id)).toMatchObject({ available_balance: '25.50' })
    expect(await balanceOf(sb, source.id)).toMatchObject({ available_balance: '999974.50', locked_balance: '0.00' })
  })

  it('to a wallet on another network: bridge (hashes in each network’s format), then transfer', async () => {
    sb = await startTestSandbox()
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    const target = await institutionalWallet(sb, 'stellar', 'USDC')
    const before = await balanceOf(sb, target.id)
    const { data } = await createSettlement(sb, { source_wallet: source.id, amount: '10.00', destination: { type: 'wallet', wallet_id: target.id } })
    expect(stepTypes(data)).toEqual(['bridge', 'transfer'])
    expect(data.fees).toEqual([{ type: 'network', amount: '0.01', currency: 'USDC' }])
    const bridged = (await advance(data.id).expect(200)).body.data
    expect(bridged.steps[0]).toMatchObject({ status: 'completed', network: 'stellar' })
    expect(bridged.steps[0].source_tx_hash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(bridged.steps[0].destination_tx_hash).toMatch(/^[0-9a-f]{64}$/)
    expect(bridged.steps[1].status).toBe('processing')
    const done = (await advance(data.id).expect(200)).body.data
    expect(done.status).toBe('completed')
    expect(done.steps[1].tx_hash).toMatch(/^[0-9a-f]{64}$/)
    expect((await balanceOf(sb, target.id)).available_balance).toBe(show(units(before.available_balance, 7) + units('10.00', 7), 7))
  })

  it('to an address in another asset on another network: conversion, bridge, transfer', async () => {
    sb = await startTestSandbox()
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    const { data } = await createSettlement(sb, { source_wallet: source.id, amount: '300.00', destination: { type: 'address', network: 'solana', currency: 'SOL', address: EXTERNAL.solana } })
    expect(stepTypes(data)).toEqual(['conversion', 'bridge', 'transfer'])
    expect(data.fees.map((fee: { type: string }) => fee.type)).toEqual(['conversion', 'network'])
    for (let i = 0; i < 3; i++) await advance(data.id).expect(200)
    const done = await getSettlement(sb, data.id)
    expect(done.status).toBe('completed')
    expect(networksForAddress(done.steps[2].tx_hash)).toEqual([])
    expect(done.steps[2].tx_hash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,90}$/)
  })

  it('destination_amount gives the smallest amount that yields it', async () => {
    sb = await startTestSandbox()
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    const { data } = await createSettlement(sb, { source_wallet: source.id, destination_amount: '250.00', destination: bankDestination('USD') })
    expect(data.destination_amount).toBe('250.00')
    const rate = units(data.rate, 8)
    const amount = units(data.amount, 6)
    const yields = (a: bigint) => (a * rate * 100n) / (10n ** 6n * 10n ** 8n)
    expect(yields(amount)).toBe(25_000n)
    expect(yields(amount - 1n)).toBeLessThan(25_000n)
  })
})

describe('settlement events and states', () => {
  it('sends created, processing, one step_completed per step and completed, in order', async () => {
    sb = await startTestSandbox({ settle: 'auto' })
    const events = recordSettlementEvents(sb)
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    const { data } = await createSettlement(sb, { source_wallet: source.id, amount: '5.00', destination: { type: 'address', network: 'ethereum', currency: 'USDC', address: EXTERNAL.ethereum } })
    await advanceClock(sb, 10_000)
    expect(events.filter((e) => e.id === data.id).map((e) => e.type)).toEqual([
      'settlement.created', 'settlement.processing', 'settlement.step_completed', 'settlement.step_completed', 'settlement.completed',
    ])
  })

  it('takes the documented delays: 0.5 s to start, 3 s to bridge, 1 s to transfer on-chain', async () => {
    sb = await startTestSandbox({ settle: 'auto' })
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    const { data } = await createSettlement(sb, { source_wallet: source.id, amount: '5.00', destination: { type: 'address', network: 'ethereum', currency: 'USDC', address: EXTERNAL.ethereum } })
    await advanceClock(sb, 499)
    expect((await getSettlement(sb, data.id)).status).toBe('pending')
    await advanceClock(sb, 1)
    expect((await getSettlement(sb, data.id)).steps[0].status).toBe('processing')
    await advanceClock(sb, 3000)
    expect((await getSettlement(sb, data.id)).steps.map((s: { status: string }) => s.status)).toEqual(['completed', 'processing'])
    await advanceClock(sb, 1000)
    expect((await getSettlement(sb, data.id)).completed_at).toBe('2026-01-01T00:00:04.500Z')
  })

  it('under --settle instant runs every step right after the answer', async () => {
    sb = await startTestSandbox({ settle: 'instant' })
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    const { data } = await createSettlement(sb, { source_wallet: source.id, amount: '5.00', destination: bankDestination('EUR') })
    await expect.poll(async () => (await getSettlement(sb, data.id)).status).toBe('completed')
  })

  it('under --settle manual waits for advance, one step per call; advance on a final settlement is 409', async () => {
    sb = await startTestSandbox()
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    const { data } = await createSettlement(sb, { source_wallet: source.id, amount: '5.00', destination: bankDestination('GBP') })
    await advanceClock(sb, 600_000)
    expect((await getSettlement(sb, data.id)).status).toBe('pending')
    expect((await advance(data.id).expect(200)).body.data.steps.map((s: { status: string }) => s.status)).toEqual(['completed', 'processing'])
    expect((await advance(data.id).expect(200)).body.data.status).toBe('completed')
    const refused = await advance(data.id).expect(409)
    expect(refused.body.error.code).toBe('invalid_state_transition')
    expect((await sb.api.post(`/_sandbox/settlements/${data.id}/fail`).send({}).expect(409)).body.error.code).toBe('invalid_state_transition')
    expect((await advance('stl_unknown').expect(404)).body.error.code).toBe('resource_missing')
  })
})

describe('listing settlements', () => {
  it('filters by status and destination_type, newest first, paginated', async () => {
    sb = await startTestSandbox()
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    const bank = await createSettlement(sb, { source_wallet: source.id, amount: '1.00', destination: bankDestination('USD') })
    const address = await createSettlement(sb, { source_wallet: source.id, amount: '1.00', destination: { type: 'address', network: 'polygon', currency: 'USDC', address: EXTERNAL.polygon } })
    await advance(address.data.id).expect(200)
    const list = async (query: string) => (await sb.api.get(`/v1/settlements${query}`).set(sb.auth()).expect(200)).body
    expect((await list('')).data.map((s: { id: string }) => s.id)).toEqual([address.data.id, bank.data.id])
    expect((await list('?status=completed')).data.map((s: { id: string }) => s.id)).toEqual([address.data.id])
    expect((await list('?destination_type=bank_account')).data.map((s: { id: string }) => s.id)).toEqual([bank.data.id])
    expect((await list('?status=completed&destination_type=bank_account')).data).toEqual([])
    expect((await list('?limit=1&offset=1')).pagination).toEqual({ limit: 1, offset: 1, total: 2, has_more: false })
    const bad = await sb.api.get('/v1/settlements?status=done').set(sb.auth()).expect(400)
    expect(bad.body.error).toMatchObject({ code: 'parameter_invalid', param: 'status' })
  })
})
