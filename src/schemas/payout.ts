import * as z from 'zod'
import { CurrencySchema, MetadataSchema, PageQuery, TimestampSchema } from './common.js'
import { whenPresent } from './messages.js'
import { PayoutItemSchema, SourceWalletSchema } from './payment.js'
import { REQUEST_EXAMPLES } from './request-examples.js'

/** Bulk payouts (CONTRACT.md sections 5 and 13). */

export const MAX_PAYOUT_ITEMS = 500

const ITEMS_MESSAGE = `items must be an array of 1 to ${MAX_PAYOUT_ITEMS} payments such as [{"amount": "10.00", "recipient": "0x…"}]`

export const CreatePayoutSchema = z
  .strictObject({
    source_wallet: SourceWalletSchema,
    currency: CurrencySchema,
    items: z
      .array(PayoutItemSchema, { error: whenPresent(ITEMS_MESSAGE) })
      .min(1, { error: `items must hold at least one payment (at most ${MAX_PAYOUT_ITEMS})` })
      .max(MAX_PAYOUT_ITEMS, { error: `items holds at most ${MAX_PAYOUT_ITEMS} payments; split larger batches into several payouts` }),
    metadata: MetadataSchema.default({}),
  })
  .meta({ id: 'CreatePayoutRequest', example: REQUEST_EXAMPLES.createPayout })

export const ListPayoutsQuery = PageQuery.strict()

export const PayoutStatusSchema = z.enum(['pending', 'processing', 'completed', 'partially_failed', 'failed'])

export const PayoutSchema = z
  .object({
    id: z.string().meta({ example: 'po_5Gh7KqT2mW9xLp3RbN8vYc4D' }),
    object: z.literal('payout'),
    status: PayoutStatusSchema.meta({
      description: 'pending while every item is pending; processing while some item is on its way; completed, failed or partially_failed once every item is final.',
    }),
    source: z.string(),
    currency: CurrencySchema,
    total_amount: z.string(),
    item_count: z.number().int().min(1).max(MAX_PAYOUT_ITEMS),
    payment_ids: z.array(z.string()).meta({ description: 'One payment per item, in the order of the items.' }),
    metadata: z.record(z.string(), z.string()),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .meta({ id: 'Payout' })
