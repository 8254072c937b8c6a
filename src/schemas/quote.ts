import * as z from 'zod'
import { PRICED_CURRENCIES } from '../model/currencies.js'
import { CURRENCIES } from '../model/networks.js'
import { echo } from '../errors.js'
import { positiveDecimalSchema, TimestampSchema } from './common.js'
import { REQUEST_EXAMPLES } from './request-examples.js'

/** Quotes and trading pairs (CONTRACT.md section 15). */

const currency = (field: string, codes: readonly string[], note = '') =>
  z.enum(codes as [string, ...string[]], {
    error: (issue) => (issue.input === undefined ? undefined : `${field} must be one of ${codes.join(', ')} (upper case${note}); got ${echo(issue.input)}`),
  })

const amount = (field: string) => positiveDecimalSchema(field, '10.50')

export const CreateQuoteSchema = z
  .strictObject({
    // Value leaves a wallet; fiat is a destination only (settlements pay out in it).
    source_currency: currency('source_currency', CURRENCIES, '; fiat currencies are destinations only').meta({ description: 'What the customer pays in: a wallet asset.', example: 'USDC' }),
    destination_currency: currency('destination_currency', PRICED_CURRENCIES).meta({ description: 'What the customer receives: a wallet asset, or USD, EUR, GBP or MXN (settlements).', example: 'ETH' }),
    source_amount: amount('source_amount').optional().meta({ description: 'Give this or destination_amount, not both.', example: '1000.00' }),
    destination_amount: amount('destination_amount').optional().meta({ description: 'Give this or source_amount, not both.' }),
  })
  .superRefine((body, ctx) => {
    if (body.source_currency === body.destination_currency) {
      ctx.addIssue({ code: 'custom', path: ['destination_currency'], message: `destination_currency must differ from source_currency (both are ${body.source_currency})` })
    }
    if (body.source_amount !== undefined && body.destination_amount !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['destination_amount'], message: 'give exactly one of source_amount and destination_amount, not both' })
    }
    if (body.source_amount === undefined && body.destination_amount === undefined) {
      ctx.addIssue({ code: 'invalid_type', expected: 'string', input: undefined, path: ['source_amount'], message: 'source_amount or destination_amount is required (exactly one of them)' })
    }
  })
  .meta({ id: 'CreateQuoteRequest', example: REQUEST_EXAMPLES.createQuote })

export const QuoteSchema = z
  .object({
    id: z.string().meta({ example: 'quo_M8tMrDBQ5xalOhAtDtasxSWX' }),
    object: z.literal('quote'),
    source_currency: z.enum(CURRENCIES as [string, ...string[]]),
    destination_currency: z.enum(PRICED_CURRENCIES as [string, ...string[]]),
    source_amount: z.string().meta({ description: 'What the customer pays, before the fee.' }),
    destination_amount: z.string().meta({ description: 'What the customer receives.' }),
    rate: z.string().meta({ description: 'Destination units per source unit, from the price feed on the side against the customer; no markup.', example: '0.000333' }),
    fee: z
      .object({ amount: z.string(), currency: z.enum(CURRENCIES as [string, ...string[]]) })
      .meta({ description: 'The sandbox’s charge: 0.10 % of source_amount (rounded up) in the source currency, paid on top of source_amount.' }),
    status: z.enum(['active', 'used', 'expired']),
    expires_at: TimestampSchema,
    created_at: TimestampSchema,
  })
  .meta({ id: 'Quote' })

export const TradingPairSchema = z
  .object({
    object: z.literal('pair'),
    pair: z.string().meta({ example: 'ETH/USDC' }),
    base: z.string().meta({ example: 'ETH' }),
    quote: z.string().meta({ example: 'USDC' }),
    min_amount: z.string().meta({ description: 'The smallest order amount, in the base asset.', example: '0.001' }),
    liquidity_per_tick: z.string().meta({ description: 'The most a limit order fills per price tick, in the base asset.', example: '5' }),
  })
  .meta({ id: 'Pair' })
