import { afterEach, describe, expect, it } from 'vitest'
import magic from '../../fixtures/settlements.json' with { type: 'json' }
import { findLedgerViolations } from '../../src/ledger/ledger-check.js'
import { startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'
import { advanceClock, balanceOf, bankDestination, createSettlement, EXTERNAL, getSettlement, institutionalWallet, recordSettlementEvents } from '../helpers/settlements.js'

let sb: TestSandbox
afterEach(async () => {
  for (const account of sb.sandbox.store.accounts.values()) expect(findLedgerViolations(account)).toEqual([])
  await sb.close()
})

const START = '1000000.00'
const statuses = (s: { steps: Array<{ status: string }> }) => s.steps.map((step) => step.status)

/** USDC on polygon to an ETH address on ethereum: conversion, bridge, transfer. */
async function threeStepSettlement(metadata: Record<string, string> = {}) {
  const source = await institutionalWallet(sb, 'polygon', 'USDC')
  const { data } = await createSettlement(sb, {
    source_wallet: source.id, amount: '100.00', metadata,
    destination: { type: 'address', network: 'ethereum', currency: 'ETH', address: EXTERNAL.ethereum },
  })
  return { source, settlement: data }
}

describe('each failure point', () => {
  it('a conversion failure ends failed before value left: the lock released, no refund', async () => {
    sb = await startTestSandbox({ settle: 'auto' })
    const events = recordSettlementEvents(sb)
    const { source, settlement } = await threeStepSettlement({ sandbox_outcome: 'failed', sandbox_fail_step: 'conversion' })
    await advanceClock(sb, 60_000)
    const done = await getSettlement(sb, settlement.id)
    expect(done).toMatchObject({ status: 'failed', failure_code: 'conversion_failed', refund: null })
    expect(statuses(done)).toEqual(['failed', 'cancelled', 'cancelled'])
    expect(done.failure_message).toContain('released')
    expect(await balanceOf(sb, source.id)).toMatchObject({ available_balance: START, locked_balance: '0.00' })
    expect(events.map((e) => e.type)).toEqual(['settlement.created', 'settlement.processing', 'settlement.failed'])
  })

  it.each([
    ['bridge', ['completed', 'failed', 'cancelled'], 'bridge_failed'],
    ['transfer', ['completed', 'completed', 'failed'], 'transfer_failed'],
  ] as const)('a %s failure happens after value left: refunded after 5 s with its own tx_hash', async (step, steps, code) => {
    sb = await startTestSandbox({ settle: 'auto' })
    const events = recordSettlementEvents(sb)
    const { source, settlement } = await threeStepSettlement({ sandbox_outcome: 'failed', sandbox_fail_step: step })
    const failsAt = step === 'bridge' ? 500 + 1000 + 3000 : 500 + 1000 + 3000 + 1000
    await advanceClock(sb, failsAt)
    const failed = await getSettlement(sb, settlement.id)
    expect(failed).toMatchObject({ status: 'processing', failure_code: code, refund: { amount: '100.30', tx_hash: null, completed_at: null } })
    expect(statuses(failed)).toEqual(steps)
    // The value left the wallet: neither available nor locked holds it while the refund is under way.
    expect(await balanceOf(sb, source.id)).toMatchObject({ available_balance: '999899.70', locked_balance: '0.00' })
    await advanceClock(sb, 4999)
    expect((await getSettlement(sb, settlement.id)).status).toBe('processing')
    await advanceClock(sb, 1)
    const refunded = await getSettlement(sb, settlement.id)
    expect(refunded.status).toBe('refunded')
    expect(refunded.refund.tx_hash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(await balanceOf(sb, source.id)).toMatchObject({ available_balance: START, locked_balance: '0.00' })
    expect(events.map((e) => e.type).at(-1)).toBe('settlement.refunded')
    expect(events.map((e) => e.type)).not.toContain('settlement.failed')
  })

  it('control fail on the current step; the refund still comes by itself under --settle manual', async () => {
    sb = await startTestSandbox()
    const { source, settlement } = await threeStepSettlement()
    await sb.api.post(`/_sandbox/settlements/${settlement.id}/advance`).send({}).expect(200)
    const failed = (await sb.api.post(`/_sandbox/settlements/${settlement.id}/fail`).send({ failure_code: 'bridge_failed' }).expect(200)).body.data
    expect(failed).toMatchObject({ status: 'processing', failure_code: 'bridge_failed' })
    expect((await sb.api.post(`/_sandbox/settlements/${settlement.id}/advance`).send({}).expect(409)).body.error.code).toBe('invalid_state_transition')
    await advanceClock(sb, 5000)
    expect((await getSettlement(sb, settlement.id)).status).toBe('refunded')
    expect(await balanceOf(sb, source.id)).toMatchObject({ available_balance: START })
  })

  it('control fail on a pending settlement fails its first step before it starts; without a code it uses the step’s own', async () => {
    sb = await startTestSandbox()
    const { source, settlement } = await threeStepSettlement()
    const failed = (await sb.api.post(`/_sandbox/settlements/${settlement.id}/fail`).send({}).expect(200)).body.data
    expect(failed).toMatchObject({ status: 'failed', failure_code: 'conversion_failed' })
    expect(failed.steps[0]).toMatchObject({ status: 'failed', started_at: null })
    expect(await balanceOf(sb, source.id)).toMatchObject({ available_balance: START, locked_balance: '0.00' })
  })
})

describe('magic destinations', () => {
  const cases = magic.map((entry) => [entry.failure_code, entry.destination_type === 'address' ? entry.network : entry.currency, entry] as const)
  it.each(cases)('%s (%s) ends as documented', async (code, _where, entry) => {
    sb = await startTestSandbox({ settle: 'auto' })
    // From solana for polygon, ethereum and stellar addresses (a bridge), from polygon for solana ones.
    const fromNetwork = entry.destination_type === 'address' && entry.network !== 'solana' ? 'solana' : 'polygon'
    const source = await institutionalWallet(sb, fromNetwork, 'USDC')
    const destination =
      entry.destination_type === 'address'
        ? { type: 'address', network: entry.network, currency: 'USDC', address: entry.address }
        : bankDestination(entry.currency as 'USD', { [entry.field as string]: entry.value as string })
    const { data } = await createSettlement(sb, { source_wallet: source.id, amount: '10.00', destination })
    await advanceClock(sb, 60_000)
    const done = await getSettlement(sb, data.id)
    const refunded = code !== 'compliance_rejected'
    expect(done).toMatchObject({ status: refunded ? 'refunded' : 'failed', failure_code: code })
    expect(done.steps.find((s: { status: string }) => s.status === 'failed').type).toBe(code === 'compliance_rejected' ? done.steps[0].type : code === 'bridge_failed' ? 'bridge' : 'transfer')
    expect(await balanceOf(sb, source.id)).toMatchObject({ locked_balance: '0.00', total_balance: START })
  })

  it('GET /_sandbox/magic lists the settlement magic values after the payment addresses', async () => {
    sb = await startTestSandbox()
    const list = (await sb.api.get('/_sandbox/magic').expect(200)).body.data as Array<{ applies_to: string }>
    expect(list.filter((entry) => entry.applies_to === 'settlements')).toHaveLength(magic.length)
  })
})

describe('screening and the whitelist on address destinations', () => {
  it('a screened address: created (201), the first step fails with screening_rejected, failed, no refund', async () => {
    sb = await startTestSandbox({ settle: 'auto' })
    const events = recordSettlementEvents(sb)
    await sb.api.post('/_sandbox/screening').send({ network: 'ethereum', address: EXTERNAL.ethereum }).expect(200)
    const { source, settlement } = await threeStepSettlement()
    await advanceClock(sb, 60_000)
    const done = await getSettlement(sb, settlement.id)
    expect(done).toMatchObject({ status: 'failed', failure_code: 'screening_rejected', refund: null })
    expect(statuses(done)).toEqual(['failed', 'cancelled', 'cancelled'])
    expect(events.map((e) => e.type)).toEqual(['settlement.created', 'settlement.failed'])
    expect(await balanceOf(sb, source.id)).toMatchObject({ available_balance: START, locked_balance: '0.00' })
  })

  it('an enforced whitelist refuses an address not on it at creation (422), and nothing changes', async () => {
    sb = await startTestSandbox({ whitelistEnforced: true })
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    const body = { source_wallet: source.id, amount: '1.00', destination: { type: 'address', network: 'polygon', currency: 'USDC', address: EXTERNAL.polygon } }
    const refused = await createSettlement(sb, body, 422)
    expect(refused.error).toMatchObject({ code: 'recipient_not_whitelisted', param: 'destination.address' })
    expect((await sb.api.get('/v1/settlements').set(sb.auth()).expect(200)).body.data).toEqual([])
    await sb.api.post('/v1/whitelisted_addresses').set(sb.auth()).send({ network: 'polygon', address: EXTERNAL.polygon.toLowerCase() }).expect(201)
    await createSettlement(sb, body, 201)
    // Bank accounts and wallets are not addresses: the whitelist does not apply to them.
    await createSettlement(sb, { source_wallet: source.id, amount: '1.00', destination: bankDestination('EUR') }, 201)
  })
})

describe('quotes', () => {
  async function quote(body: Record<string, string>) {
    return (await sb.api.post('/v1/quotes').set(sb.auth()).send(body).expect(201)).body.data
  }

  it('a settlement with a quote takes its amounts, rate and fee, and uses it once', async () => {
    sb = await startTestSandbox()
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    const q = await quote({ source_currency: 'USDC', destination_currency: 'EUR', source_amount: '500.00' })
    const { data } = await createSettlement(sb, { source_wallet: source.id, quote_id: q.id, destination: bankDestination('EUR') })
    expect(data).toMatchObject({ quote_id: q.id, amount: q.source_amount, destination_amount: q.destination_amount, rate: q.rate })
    expect(data.fees[0]).toEqual({ type: 'conversion', amount: q.fee.amount, currency: 'USDC' })
    const again = await createSettlement(sb, { source_wallet: source.id, quote_id: q.id, destination: bankDestination('EUR') }, 422)
    expect(again.error).toMatchObject({ code: 'quote_already_used', param: 'quote_id' })
  })

  it('an expired quote is 422 quote_expired; a quote of other currencies 400; nothing is locked', async () => {
    sb = await startTestSandbox()
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    const q = await quote({ source_currency: 'USDC', destination_currency: 'GBP', destination_amount: '20.00' })
    const other = await quote({ source_currency: 'USDC', destination_currency: 'EUR', source_amount: '20.00' })
    expect((await createSettlement(sb, { source_wallet: source.id, quote_id: other.id, destination: bankDestination('GBP') }, 400)).error).toMatchObject({ code: 'parameter_invalid', param: 'quote_id' })
    expect((await createSettlement(sb, { source_wallet: source.id, quote_id: q.id, amount: '1.00', destination: bankDestination('GBP') }, 400)).error.param).toBe('amount')
    await advanceClock(sb, 30_000)
    expect((await createSettlement(sb, { source_wallet: source.id, quote_id: q.id, destination: bankDestination('GBP') }, 422)).error.code).toBe('quote_expired')
    expect(await balanceOf(sb, source.id)).toMatchObject({ available_balance: START, locked_balance: '0.00' })
  })
})

describe('funds', () => {
  it('locks the total debit at creation; too little available is 422 insufficient_funds and creates nothing', async () => {
    sb = await startTestSandbox()
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    const refused = await createSettlement(sb, { source_wallet: source.id, amount: '999999.00', destination: bankDestination('USD') }, 422)
    expect(refused.error).toMatchObject({ code: 'insufficient_funds', param: 'amount' })
    expect(refused.error.message).toContain('plus fees')
    expect(await balanceOf(sb, source.id)).toMatchObject({ available_balance: START, locked_balance: '0.00' })
    expect((await sb.api.get('/v1/settlements').set(sb.auth()).expect(200)).body.pagination.total).toBe(0)
  })
})
