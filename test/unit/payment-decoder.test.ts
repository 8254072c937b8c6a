import { afterEach, describe, expect, it, vi } from 'vitest'
import type { PaymentRecord, SettlementPlan } from '../../src/model/records.js'
import { sharePaymentValues } from '../../src/store/payment-decoder.js'

const payment = (plan: SettlementPlan | null): PaymentRecord => ({
  id: 'pay_1', seq: 1, amount_units: 1_000_000n, amount: '1', currency: 'USDC', network: 'polygon', status: 'pending', source: 'wal_a', destination: 'wal_b',
  destination_type: 'wallet', description: null, metadata: {}, tx_hash: null, failure_code: null, failure_message: null, payout_id: null,
  created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z', completed_at: null, plan,
})

afterEach(() => vi.restoreAllMocks())

describe('the values payments share', () => {
  it('gives payments with equal plans one frozen plan, and a payment put again with it keeps it without writing its key again', () => {
    const first = payment({ outcome: 'failed', failure_code: 'insufficient_network_fee', stage: 'processing', decided_by: 'default' })
    const second = payment({ outcome: 'failed', failure_code: 'insufficient_network_fee', stage: 'processing', decided_by: 'default' })
    sharePaymentValues(first)
    sharePaymentValues(second)
    expect(second.plan).toBe(first.plan)
    expect(Object.isFrozen(first.plan)).toBe(true)
    expect(first.plan).toEqual({ outcome: 'failed', failure_code: 'insufficient_network_fee', stage: 'processing', decided_by: 'default' })

    // A status change: the record spread into the put, the plan as it was.
    const stringify = vi.spyOn(JSON, 'stringify')
    const changed = { ...first, status: 'processing' as const }
    sharePaymentValues(changed)
    expect(changed.plan).toBe(first.plan)
    expect(stringify).not.toHaveBeenCalled()

    // A plan replaced whole, even by a copy of the shared one, is shared again by its values.
    const copied = payment({ ...first.plan! })
    sharePaymentValues(copied)
    expect(copied.plan).toBe(first.plan)
    const other = payment({ outcome: 'completed', failure_code: null, stage: null, decided_by: 'metadata' })
    sharePaymentValues(other)
    expect(other.plan).not.toBe(first.plan)
    expect(other.plan).toEqual({ outcome: 'completed', failure_code: null, stage: null, decided_by: 'metadata' })
  })
})
