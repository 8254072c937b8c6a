import * as z from 'zod'
import type { RequestContext } from '../../http/context.js'
import { defineRoute } from '../../http/route.js'
import type { PriceModel } from '../../market/prices.js'
import { CountSchema } from '../../schemas/common.js'
import { AccountScopeQuery, type AccountScope } from '../../schemas/account-scope.js'
import { scopedAccountId } from './account-scope.js'
import { CreatePricePinSchema, PricePinLegParams, PricePinParams, PricePinSchema } from '../../schemas/price.js'

const tag = 'Sandbox control'
const auth = 'control' as const
const DeletedPinSchema = z.object({ pair: z.string(), object: z.literal('price_pin'), deleted: z.literal(true) })

/** `/_sandbox/prices`: price pins (CONTRACT.md sections 15 and 19). The pins live in `control/price-pins.ts`. */
export function priceControlRoutes(model: PriceModel) {
  const unpin = (pair: string, ctx: RequestContext, scope: AccountScope) => {
    ctx.deps.control.pins.remove(pair, scopedAccountId(ctx, scope))
    return { pair, object: 'price_pin', deleted: true }
  }
  return [
    defineRoute({
      method: 'get', path: '/_sandbox/prices', operationId: 'sandboxListPricePins', summary: 'The price pins, oldest first (all, or one account’s own)', tag, auth,
      request: { query: AccountScopeQuery },
      status: 200, response: z.array(PricePinSchema), errors: ['resource_missing'],
      handler: ({ query }, ctx) => ctx.deps.control.pins.list(scopedAccountId(ctx, query)),
    }),
    defineRoute({
      method: 'post', path: '/_sandbox/prices', operationId: 'sandboxPinPrice', summary: 'Pin an <ASSET>/USD mid price (crosses follow) until the pin is removed, for every account or one', tag, auth,
      request: { body: CreatePricePinSchema },
      status: 201, response: PricePinSchema, errors: ['resource_missing'],
      handler: ({ body }, ctx) => ctx.deps.control.pins.set(model, body, scopedAccountId(ctx, body)),
    }),
    defineRoute({
      method: 'delete', path: '/_sandbox/prices', operationId: 'sandboxClearPricePins', summary: 'Remove every price pin, or one account’s', tag, auth,
      request: { query: AccountScopeQuery },
      status: 200, response: z.object({ deleted: CountSchema }), errors: ['resource_missing'],
      handler: ({ query }, ctx) => ({ deleted: ctx.deps.control.pins.clear(scopedAccountId(ctx, query)) }),
    }),
    defineRoute({
      method: 'delete', path: '/_sandbox/prices/{pair}', operationId: 'sandboxUnpinPrice', summary: 'Remove the pin of one pair, given URL-encoded (ETH%2FUSD); ?api_key= for an account’s own', tag, auth,
      request: { params: PricePinParams, query: AccountScopeQuery },
      status: 200, response: DeletedPinSchema, errors: ['resource_missing'],
      handler: ({ params, query }, ctx) => unpin(params.pair, ctx, query),
    }),
    defineRoute({
      method: 'delete', path: '/_sandbox/prices/{base}/{quote}', operationId: 'sandboxUnpinPriceByLegs', summary: 'Remove the pin of one pair, given as /ETH/USD; ?api_key= for an account’s own', tag, auth,
      request: { params: PricePinLegParams, query: AccountScopeQuery },
      status: 200, response: DeletedPinSchema, errors: ['resource_missing'],
      handler: ({ params, query }, ctx) => unpin(`${params.base}/${params.quote}`, ctx, query),
    }),
  ]
}
