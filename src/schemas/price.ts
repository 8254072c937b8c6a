import * as z from 'zod'
import { TimestampSchema } from './common.js'

/** One quote of one pair, as `GET /v1/prices` and the stream's `price` messages carry it. */
export const PriceSchema = z
  .object({
    pair: z.string().meta({ description: 'BASE/QUOTE', example: 'ETH/USD' }),
    price: z.string().meta({ description: 'Mid price, a decimal string with the pair’s fixed decimals.', example: '2987.41' }),
    bid: z.string().meta({ description: 'Always below price.', example: '2986.81' }),
    ask: z.string().meta({ description: 'Always above price.', example: '2988.01' }),
    timestamp: TimestampSchema,
  })
  .meta({ id: 'Price' })

export const PricesQuery = z.strictObject({
  pairs: z
    .string({ error: 'pairs must be one comma-separated list such as ETH/USD,SOL/USD' })
    .optional()
    .meta({ description: 'Comma-separated pairs, such as ETH/USD,SOL/USD. Leave it out for every pair.' }),
})

/** The `prices` answer: every pair asked for, in the order asked (pagination-free: the set is small and fixed). */
export const PriceListSchema = z.array(PriceSchema).meta({ id: 'PriceList' })
