import * as z from 'zod'
import { NETWORKS } from '../model/networks.js'
import { CAUSES } from '../model/postings.js'
import { CurrencySchema, PageQuery, TimestampSchema } from './common.js'

/** `GET /_sandbox/accounts/{id}/postings`: the account's ledger transactions, each with its postings. */

export const ListPostingsQuery = PageQuery.extend({
  wallet_id: z.string().min(1).optional().meta({ description: 'Only the transactions with a posting on this wallet (its available or locked balance).' }),
}).strict()

export const PostingSchema = z
  .object({
    account: z.string().meta({ description: 'The ledger account: <wallet id>:available, <wallet id>:locked, external:<network>:<currency> for money outside the sandbox, trading:<network>:<currency> for the desk that order fills exchange with, fees:<network>:<currency> for taker fees.', example: 'wal_8Hn2QeR5tYw9LmK3vB7xZc1D:locked' }),
    wallet_id: z.string().nullable().meta({ description: 'The wallet of the account; null for external accounts.' }),
    bucket: z.enum(['available', 'locked', 'external', 'trading', 'fees']).meta({ description: 'The wallet balance, or the account outside the wallets: external (outside the sandbox), trading (the desk order fills exchange with), fees (taker fees).' }),
    amount: z.string().meta({ description: 'Signed decimal string: negative leaves the account, positive enters it. The postings of a transaction sum to zero.', example: '-10.00' }),
    currency: CurrencySchema,
    network: z.enum(NETWORKS),
  })
  .meta({ id: 'SandboxPosting' })

export const LedgerTransactionSchema = z
  .object({
    id: z.number().int().min(1).meta({ description: 'Position in the account’s log, from 1.' }),
    object: z.literal('ledger_transaction'),
    cause: z.enum(CAUSES),
    reference: z.string().meta({ description: 'What caused it: the payment (pay_…), payout (po_…), order (ord_…) or wallet (wal_…, opening balance) id, or the sending address of a deposit.' }),
    postings: z.array(PostingSchema).min(2),
    created_at: TimestampSchema,
  })
  .meta({ id: 'SandboxLedgerTransaction' })
