import type * as z from 'zod'
import type { SettlementFailureCode } from '../model/failures.js'
import type { SettlementRecord, SettlementStepRecord } from '../model/records.js'
import type { SettlementSchema } from '../schemas/settlement.js'

type Settlement = z.input<typeof SettlementSchema>
type Step = Settlement['steps'][number]

/** A step shows the fields of its kind only: a bridge its two hashes, an on-chain transfer its hash, a bank payout its rail and reference. */
function presentStep(step: SettlementStepRecord, bank: boolean): Step {
  const base: Step = { type: step.type, status: step.status, started_at: step.started_at, completed_at: step.completed_at, failure_code: step.failure_code as SettlementFailureCode | null }
  if (step.type === 'conversion') return base
  if (step.type === 'bridge') return { ...base, network: step.network!, source_tx_hash: step.source_tx_hash, destination_tx_hash: step.destination_tx_hash }
  if (bank) return { ...base, rail: step.rail!, reference: step.reference }
  return { ...base, network: step.network!, tx_hash: step.tx_hash }
}

/** The wire shape of CONTRACT.md section 16. */
export function presentSettlement(s: SettlementRecord): Settlement {
  const bank = s.destination.type === 'bank_account'
  return {
    id: s.id,
    object: 'settlement',
    status: s.status,
    source_wallet: s.source_wallet,
    source_currency: s.source_currency,
    amount: s.amount,
    fees: s.fees.map((fee) => ({ ...fee })),
    total_debit: s.total_debit,
    destination: structuredClone(s.destination),
    destination_currency: s.destination_currency,
    destination_amount: s.destination_amount,
    rate: s.rate,
    quote_id: s.quote_id,
    steps: s.steps.map((step) => presentStep(step, bank)),
    refund: s.refund && { ...s.refund },
    failure_code: s.failure_code as SettlementFailureCode | null,
    failure_message: s.failure_message,
    description: s.description,
    metadata: { ...s.metadata },
    created_at: s.created_at,
    updated_at: s.updated_at,
    completed_at: s.completed_at,
  }
}
