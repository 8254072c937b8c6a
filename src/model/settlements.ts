import type { FiatCurrency } from './currencies.js'
import type { Metadata } from './metadata.js'
import type { Network } from './networks.js'

/** Cross-border settlements (CONTRACT.md section 16). Amounts are decimal strings in their currency, as on the wire. */
export type SettlementStatus = 'pending' | 'processing' | 'completed' | 'failed' | 'refunded'
export type SettlementStepType = 'conversion' | 'bridge' | 'transfer'
export type SettlementStepStatus = 'pending' | 'processing' | 'completed' | 'failed' | 'cancelled'
export type Rail = 'ach' | 'sepa' | 'fps' | 'spei'

export type SettlementDestination =
  | { type: 'wallet'; wallet_id: string }
  | { type: 'address'; network: Network; currency: string; address: string }
  | { type: 'bank_account'; currency: FiatCurrency; rail: Rail; beneficiary: Record<string, string> }

export interface SettlementStepRecord {
  type: SettlementStepType
  status: SettlementStepStatus
  /** The network the step moves value on (bridge: the destination's; transfer: on-chain or wallet). */
  network: Network | null
  rail: Rail | null
  tx_hash: string | null
  source_tx_hash: string | null
  destination_tx_hash: string | null
  reference: string | null
  started_at: string | null
  completed_at: string | null
  failure_code: string | null
}

/** How a settlement will end, decided when it is created (metadata, magic values, screening). */
export interface SettlementOutcome {
  outcome: 'completed' | 'failed'
  fail_step: SettlementStepType | null
  failure_code: string | null
  /** 'metadata', 'magic', 'screening' or 'default'. */
  decided_by: string
}

export interface SettlementRecord {
  id: string
  /** Creation order within the account; the index is sorted on it. */
  seq: number
  status: SettlementStatus
  source_wallet: string
  source_currency: string
  amount: string
  fees: Array<{ type: 'conversion' | 'network' | 'payout'; amount: string; currency: string }>
  total_debit: string
  destination: SettlementDestination
  destination_currency: string
  destination_amount: string
  rate: string
  quote_id: string | null
  steps: SettlementStepRecord[]
  refund: { amount: string; tx_hash: string | null; completed_at: string | null } | null
  /** Whether `total_debit` has left the source wallet (a later failure is refunded, an earlier one released). */
  value_left: boolean
  failure_code: string | null
  failure_message: string | null
  description: string | null
  metadata: Metadata
  plan: SettlementOutcome
  created_at: string
  updated_at: string
  completed_at: string | null
}
