import * as z from 'zod'
import { echo } from '../errors.js'
import { AMOUNT_PATTERN } from '../money.js'
import { AmountSchema, CurrencySchema, MetadataSchema, PageQuery, TimestampSchema } from './common.js'
import { whenPresent } from './messages.js'
import { REQUEST_EXAMPLES } from './request-examples.js'

/** Orders (CONTRACT.md sections 15 and 19): the request, the filters and the resource. */

export const ORDER_STATUSES = ['open', 'partially_filled', 'filled', 'cancelled', 'expired', 'rejected'] as const
const enumOf = (field: string, values: readonly string[]) =>
  (issue: { input?: unknown }) => (issue.input === undefined ? undefined : `${field} must be one of ${values.join(', ')}; got ${echo(issue.input)}`)

export const OrderStatusSchema = z.enum(ORDER_STATUSES, { error: enumOf('status', ORDER_STATUSES) })
export const OrderSideSchema = z.enum(['buy', 'sell'], { error: enumOf('side', ['buy', 'sell']) })
export const OrderTypeSchema = z.enum(['market', 'limit'], { error: enumOf('type', ['market', 'limit']) })
export const TimeInForceSchema = z.enum(['gtc', 'ioc', 'gtd'], { error: enumOf('time_in_force', ['gtc', 'ioc', 'gtd']) })
export const PairNameSchema = z
  .string({ error: whenPresent('pair must be a trading pair such as "ETH/USDC"') })
  .regex(/^[A-Z0-9]{2,12}\/[A-Z0-9]{2,12}$/, { error: 'pair must be a trading pair such as "ETH/USDC" (BASE/QUOTE, upper case); see GET /v1/pairs' })
  .meta({ example: 'ETH/USDC' })

export const PriceSchema = z
  .string({ error: whenPresent('limit_price must be a decimal string such as "3000.50"') })
  .regex(AMOUNT_PATTERN, { error: 'limit_price must be a decimal string such as "3000.50" (digits, one optional point, no sign or exponent)' })
  .refine((value) => /[1-9]/.test(value), { error: 'limit_price must be greater than zero' })
  .refine((value) => !value.includes('.') || value.length - value.indexOf('.') - 1 <= 18, { error: 'limit_price has at most 18 decimals' })
  .meta({ description: 'Quote currency per unit of base, a decimal string.', example: '3000.50' })

const walletId = (field: string) => z.string({ error: whenPresent(`${field} must be a wallet id such as wal_…`) }).min(1)

const SANDBOX_OUTCOMES = ['rejected']

export const CreateOrderSchema = z
  .strictObject({
    pair: PairNameSchema,
    side: OrderSideSchema,
    // A quote makes the order a market order; without one the type is required.
    type: OrderTypeSchema.optional(),
    amount: AmountSchema.optional().meta({ description: 'In the base asset. Required unless quote_id gives it.' }),
    limit_price: PriceSchema.optional(),
    time_in_force: TimeInForceSchema.default('gtc'),
    expires_at: z.iso.datetime({ offset: true, error: whenPresent('expires_at must be an ISO 8601 timestamp such as "2026-01-01T00:05:00.000Z"') }).optional(),
    base_wallet: walletId('base_wallet'),
    quote_wallet: walletId('quote_wallet'),
    quote_id: z.string({ error: whenPresent('quote_id must be a quote id such as quo_…') }).min(1).optional(),
    metadata: MetadataSchema.default({}),
  })
  .superRefine((order, ctx) => {
    const issue = (path: string, message: string, code: 'custom' = 'custom') => ctx.addIssue({ code, path: [path], message })
    const outcome = order.metadata.sandbox_outcome
    if (outcome !== undefined && !SANDBOX_OUTCOMES.includes(outcome)) issue('metadata', `metadata.sandbox_outcome of an order must be "rejected"; got ${echo(outcome)}`)
    if (order.quote_id === undefined && order.type === undefined) ctx.addIssue({ code: 'invalid_type', expected: 'string', input: undefined, path: ['type'], message: 'type is required: market or limit' })
    if (order.quote_id === undefined && order.amount === undefined) ctx.addIssue({ code: 'invalid_type', expected: 'string', input: undefined, path: ['amount'], message: 'amount is required: a decimal string in the base asset, such as "0.50"' })
    if (order.quote_id !== undefined && order.type === 'limit') issue('type', 'an order with quote_id is a market order at the quote’s rate; leave type out or send "market"')
    if (order.quote_id !== undefined && order.limit_price !== undefined) issue('limit_price', 'an order with quote_id fills at the quote’s rate and takes no limit_price')
    const market = order.type === 'market' || order.quote_id !== undefined
    if (market && order.limit_price !== undefined) issue('limit_price', 'a market order takes no limit_price; use type "limit" to set a price')
    if (order.type === 'limit' && order.limit_price === undefined) {
      ctx.addIssue({ code: 'invalid_type', expected: 'string', input: undefined, path: ['limit_price'], message: 'limit_price is required for a limit order' })
    }
    if (market && order.time_in_force === 'gtd') issue('time_in_force', 'a market order fills at once; gtd is for limit orders')
    if (order.time_in_force === 'gtd' && order.expires_at === undefined) {
      ctx.addIssue({ code: 'invalid_type', expected: 'string', input: undefined, path: ['expires_at'], message: 'expires_at is required for time_in_force gtd' })
    }
    if (order.time_in_force !== 'gtd' && order.expires_at !== undefined) issue('expires_at', 'expires_at is only for time_in_force gtd')
  })
  .meta({ id: 'CreateOrderRequest', example: REQUEST_EXAMPLES.createOrder })

export type CreateOrder = z.output<typeof CreateOrderSchema>

export const ListOrdersQuery = PageQuery.extend({
  status: OrderStatusSchema.optional(),
  pair: PairNameSchema.optional(),
  side: OrderSideSchema.optional(),
}).strict()

export const OrderFillSchema = z
  .object({
    price: z.string().meta({ description: 'The tick’s ask (buy) or bid (sell).' }),
    amount: z.string().meta({ description: 'Base asset filled.' }),
    fee: z.string().meta({ description: 'Taker fee of this fill, in the quote currency.' }),
    timestamp: TimestampSchema,
  })
  .meta({ id: 'OrderFill' })

export const OrderSchema = z
  .object({
    id: z.string().meta({ example: 'ord_M8tMrDBQ5xalOhAtDtasxSWX' }),
    object: z.literal('order'),
    pair: z.string(),
    side: OrderSideSchema,
    type: OrderTypeSchema,
    status: OrderStatusSchema,
    amount: z.string(),
    filled_amount: z.string(),
    remaining_amount: z.string(),
    limit_price: z.string().nullable(),
    average_price: z.string().nullable(),
    quote_amount: z.string().meta({ description: 'Quote currency paid (buy, rounded up) or received before the fee (sell, rounded down) so far.' }),
    fee: z.string(),
    fee_currency: CurrencySchema,
    time_in_force: TimeInForceSchema,
    expires_at: TimestampSchema.nullable(),
    base_wallet: z.string(),
    quote_wallet: z.string(),
    quote_id: z.string().nullable(),
    fills: z.array(OrderFillSchema),
    reject_reason: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
    completed_at: TimestampSchema.nullable(),
  })
  .meta({ id: 'Order' })

/** `POST /_sandbox/orders/{id}/fill`. */
export const ControlFillSchema = z
  .strictObject({
    amount: AmountSchema.optional().meta({ description: 'Base asset to fill; default the remainder.' }),
    price: PriceSchema.optional().meta({ description: 'Default the current ask (buy) or bid (sell).' }),
  })
  .meta({ id: 'SandboxFillOrderRequest', example: REQUEST_EXAMPLES.fillOrder })

/** `POST /_sandbox/orders/{id}/reject`. */
export const ControlRejectSchema = z.strictObject({ reason: z.string().min(1).max(500).optional() }).meta({ id: 'SandboxRejectOrderRequest', example: REQUEST_EXAMPLES.rejectOrder })
