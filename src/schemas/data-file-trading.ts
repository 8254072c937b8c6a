import * as z from 'zod'
import type { OrderRecord, QuoteRecord } from '../model/records.js'
import { decimal, metadata, timestamp, units, type Stored } from './data-file-fields.js'

/** Orders and quotes as the data file holds them. */

const ORDER_STATUSES = ['open', 'partially_filled', 'filled', 'cancelled', 'expired', 'rejected'] as const

export const OrderDataSchema = z.object({
  id: z.string(),
  seq: z.number().int(),
  pair: z.string(),
  base: z.string(),
  quote: z.string(),
  side: z.enum(['buy', 'sell']),
  type: z.enum(['market', 'limit']),
  status: z.enum(ORDER_STATUSES),
  time_in_force: z.enum(['gtc', 'ioc', 'gtd']),
  amount_units: units,
  filled_units: units,
  limit_price: z.string().nullable(),
  expires_at: timestamp.nullable(),
  base_wallet: z.string(),
  quote_wallet: z.string(),
  base_decimals: z.number().int().min(0).max(18),
  quote_decimals: z.number().int().min(0).max(18),
  quote_id: z.string().nullable(),
  fee_bps: z.number().int().min(0).max(10_000),
  quote_num: units,
  quote_units: units,
  fee_units: units,
  locked_units: units,
  fills: z.array(z.object({ price: z.string(), amount: units, fee: units, timestamp })),
  reject_reason: z.string().nullable(),
  metadata,
  created_at: timestamp,
  updated_at: timestamp,
  completed_at: timestamp.nullable(),
}) satisfies z.ZodType<Omit<Stored<OrderRecord>, 'fills'> & { fills: Array<{ price: string; amount: string; fee: string; timestamp: string }> }>

export const QuoteDataSchema = z.object({
  id: z.string(),
  source_currency: z.string(),
  destination_currency: z.string(),
  source_amount: decimal,
  destination_amount: decimal,
  rate: decimal,
  fee_amount: decimal,
  fee_currency: z.string(),
  pair: z.string(),
  side: z.enum(['buy', 'sell']),
  price: decimal,
  expires_at: timestamp,
  created_at: timestamp,
  used_at: timestamp.nullable(),
  used_by: z.string().nullable(),
}) satisfies z.ZodType<QuoteRecord>
