import * as z from 'zod'
import { NETWORKS } from '../model/networks.js'
import type { SettlementRecord } from '../model/records.js'
import { metadata, nullableText, timestamp } from './data-file-fields.js'

/** Cross-border settlements as the data file holds them. */

const SettlementStepDataSchema = z.object({
  type: z.enum(['conversion', 'bridge', 'transfer']),
  status: z.enum(['pending', 'processing', 'completed', 'failed', 'cancelled']),
  network: z.enum(NETWORKS).nullable(),
  rail: z.enum(['ach', 'sepa', 'fps', 'spei']).nullable(),
  tx_hash: nullableText,
  source_tx_hash: nullableText,
  destination_tx_hash: nullableText,
  reference: nullableText,
  started_at: timestamp.nullable(),
  completed_at: timestamp.nullable(),
  failure_code: nullableText,
})

export const SettlementDataSchema = z.object({
  id: z.string(),
  seq: z.number().int(),
  status: z.enum(['pending', 'processing', 'completed', 'failed', 'refunded']),
  source_wallet: z.string(),
  source_currency: z.string(),
  amount: z.string(),
  fees: z.array(z.object({ type: z.enum(['conversion', 'network', 'payout']), amount: z.string(), currency: z.string() })),
  total_debit: z.string(),
  destination: z.discriminatedUnion('type', [
    z.object({ type: z.literal('wallet'), wallet_id: z.string() }),
    z.object({ type: z.literal('address'), network: z.enum(NETWORKS), currency: z.string(), address: z.string() }),
    z.object({ type: z.literal('bank_account'), currency: z.enum(['USD', 'EUR', 'GBP', 'MXN']), rail: z.enum(['ach', 'sepa', 'fps', 'spei']), beneficiary: z.record(z.string(), z.string()) }),
  ]),
  destination_currency: z.string(),
  destination_amount: z.string(),
  rate: z.string(),
  quote_id: nullableText,
  steps: z.array(SettlementStepDataSchema),
  refund: z.object({ amount: z.string(), tx_hash: nullableText, completed_at: timestamp.nullable() }).nullable(),
  value_left: z.boolean(),
  failure_code: nullableText,
  failure_message: nullableText,
  description: nullableText,
  metadata,
  plan: z.object({
    outcome: z.enum(['completed', 'failed']),
    fail_step: z.enum(['conversion', 'bridge', 'transfer']).nullable(),
    failure_code: nullableText,
    decided_by: z.string(),
  }),
  created_at: timestamp,
  updated_at: timestamp,
  completed_at: timestamp.nullable(),
}) satisfies z.ZodType<SettlementRecord>
