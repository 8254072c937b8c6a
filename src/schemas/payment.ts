import * as z from 'zod'
import { AmountSchema, CurrencySchema, DescriptionSchema, MetadataSchema, NetworkSchema, PageQuery, TimestampSchema } from './common.js'
import { whenPresent } from './messages.js'
import { FAILURE_CODES, type FailureCode } from '../model/failures.js'
import { REQUEST_EXAMPLES } from './request-examples.js'
import { checkCreatePayment, SANDBOX_OUTCOMES } from './payment-fast.js'
import { withFastPath } from './validate.js'

export const PaymentStatusSchema = z.enum(['pending', 'processing', 'completed', 'failed'], {
  error: 'status must be one of pending, processing, completed, failed',
})

export const FailureCodeSchema = z.enum(FAILURE_CODES as [FailureCode, ...FailureCode[]])

export const SourceWalletSchema = z.string({ error: whenPresent('source_wallet must be a wallet id such as wal_…') }).min(1)
const RecipientSchema = z.string({ error: whenPresent('recipient must be a wallet id (wal_…) or an address on the source wallet’s network') }).min(1)

/** Sandbox-only metadata that decides the outcome (CONTRACT.md section 8). */
function checkSandboxMetadata({ metadata }: { metadata: Record<string, string> }, ctx: z.RefinementCtx): void {
  const outcome = metadata.sandbox_outcome
  if (outcome !== undefined && !SANDBOX_OUTCOMES.includes(outcome)) {
    ctx.addIssue({ code: 'custom', path: ['metadata', 'sandbox_outcome'], message: `metadata.sandbox_outcome must be one of ${SANDBOX_OUTCOMES.join(', ')}` })
  }
  const code = metadata.sandbox_failure_code
  if (code !== undefined && !(FAILURE_CODES as string[]).includes(code)) {
    ctx.addIssue({ code: 'custom', path: ['metadata', 'sandbox_failure_code'], message: `metadata.sandbox_failure_code must be one of ${FAILURE_CODES.join(', ')}` })
  }
}

/** Its fast path (payment-fast.ts) answers the bodies it is sure of as this would. */
export const CreatePaymentSchema = withFastPath(z
  .strictObject({
    amount: AmountSchema,
    currency: CurrencySchema,
    source_wallet: SourceWalletSchema,
    recipient: RecipientSchema,
    description: DescriptionSchema.nullable().optional(),
    metadata: MetadataSchema.default({}),
  })
  .superRefine(checkSandboxMetadata)
  .meta({ id: 'CreatePaymentRequest', example: REQUEST_EXAMPLES.createPayment }), checkCreatePayment)

/** One item of a bulk payout: a payment without its source and currency, which the payout gives. */
export const PayoutItemSchema = z
  .strictObject({
    amount: AmountSchema,
    recipient: RecipientSchema,
    description: DescriptionSchema.nullable().optional(),
    metadata: MetadataSchema.default({}),
  })
  .superRefine(checkSandboxMetadata)
  .meta({ description: 'One payment of the payout, from its source_wallet in its currency.' })

export const ListPaymentsQuery = PageQuery.extend({
  status: PaymentStatusSchema.optional(),
  currency: CurrencySchema.optional(),
  recipient_id: z.string().min(1).optional(),
  source_wallet: z.string().min(1).optional(),
}).strict()

export const PaymentSchema = z
  .object({
    id: z.string().meta({ example: 'pay_8Hn2QeR5tYw9LmK3vB7xZc1D' }),
    object: z.literal('payment'),
    amount: z.string(),
    currency: CurrencySchema,
    network: NetworkSchema,
    status: PaymentStatusSchema,
    source: z.string(),
    destination: z.string(),
    destination_type: z.enum(['wallet', 'address']),
    description: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    tx_hash: z.string().nullable(),
    failure_code: FailureCodeSchema.nullable(),
    failure_message: z.string().nullable(),
    payout_id: z.string().nullable(),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
    completed_at: TimestampSchema.nullable(),
  })
  .meta({ id: 'Payment' })
