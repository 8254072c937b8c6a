import * as z from 'zod'
import { AccountScopeFields } from './account-scope.js'
import { AMOUNT_PATTERN } from '../money.js'
import { positiveDecimalSchema, TimestampSchema } from './common.js'
import { REQUEST_EXAMPLES } from './request-examples.js'

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

const PIN_PAIR = /^[A-Z0-9]{2,12}\/USD$/
const PinPriceSchema = positiveDecimalSchema('price', '3000.00').meta({ description: 'The mid price in USD, with no more decimals than the pair’s prices have.', example: '3000.00' })
const SpreadBpSchema = z
  .number({ error: 'spread_bp must be a whole number of basis points from 0 to 10000' })
  .int({ error: 'spread_bp must be a whole number of basis points from 0 to 10000' })
  .min(0, { error: 'spread_bp must be a whole number of basis points from 0 to 10000' })
  .max(10_000, { error: 'spread_bp must be a whole number of basis points from 0 to 10000' })

/** `POST /_sandbox/prices`: pins an `<ASSET>/USD` pair's mid (CONTRACT.md sections 15 and 19). */
export const CreatePricePinSchema = z
  .strictObject({
    pair: z.string({ error: 'pair must be an <ASSET>/USD pair such as ETH/USD' }).min(1).meta({ example: 'ETH/USD' }),
    price: PinPriceSchema,
    spread_bp: SpreadBpSchema.optional().meta({ description: 'ask − bid in basis points of the mid; 0 makes bid = ask = price. Default: the asset’s spread in the fixtures.' }),
    ...AccountScopeFields,
    api_key: AccountScopeFields.api_key.meta({ description: 'Pin the price for this key’s account only (or give account_id): its quotes, fills, conversions and stream. Without either, for every account.' }),
  })
  .meta({ id: 'CreatePricePinRequest', example: REQUEST_EXAMPLES.createPricePin })

/** A pin as `GET /_sandbox/prices` lists it, and as snapshots and the data file keep it. */
export const PricePinSchema = z
  .object({
    pair: z.string().regex(PIN_PAIR, 'expected an <ASSET>/USD pair').meta({ example: 'ETH/USD' }),
    price: z.string().regex(AMOUNT_PATTERN, 'expected a decimal string').meta({ example: '3000.00' }),
    spread_bp: z.number().int().min(0).max(10_000),
    pinned_at: TimestampSchema,
    account_id: z.string().optional().meta({ description: 'The one account the pin applies to; absent: every account.' }),
  })
  .meta({ id: 'PricePin' })

export type PricePin = z.output<typeof PricePinSchema>
export type PricePinInput = z.output<typeof CreatePricePinSchema>

/** `/_sandbox/prices/{pair}`: the pair URL-encoded (`ETH%2FUSD`); `/_sandbox/prices/{base}/{quote}` takes it unencoded. */
export const PricePinParams = z.object({ pair: z.string().meta({ example: 'ETH/USD' }) })
/** Another pair than the by-pair example, so that a run of every example has one pin for each of the two ways to remove it. */
export const PricePinLegParams = z.object({ base: z.string().meta({ example: 'SOL' }), quote: z.string().meta({ example: 'USD' }) })
