import * as z from 'zod'
import type { RequestContext } from '../../http/context.js'
import { defineRoute } from '../../http/route.js'
import type { PriceModel } from '../../market/prices.js'
import { CountSchema } from '../../schemas/common.js'
import { CreatePricePinSchema, PricePinLegParams, PricePinParams, PricePinSchema } from '../../schemas/price.js'

const tag = 'Sandbox control'
const auth = 'control' as const
const DeletedPinSchema = z.object({ pair: z.string(), object: z.literal('price_pin'), deleted: z.literal(true) })

/** `/_sandbox/prices`: price pins (CONTRACT.md sections 15 and 19). The pins live in `control/price-pins.ts`. */
export function priceControlRoutes(model: PriceModel) {
  const unpin = (pair: string, ctx: RequestContext) => {
    ctx.deps.control.pins.remove(pair)
    return { pair, object: 'price_pin', deleted: true }
  }
  return [
    defineRoute({
      method: 'get', path: '/_sandbox/prices', operationId: 'sandboxListPricePins', summary: 'The price pins, oldest first', tag, auth,
      status: 200, response: z.array(PricePinSchema),
      handler: (_input, ctx) => ctx.deps.control.pins.list(),
    }),
    defineRoute({
      method: 'post', path: '/_sandbox/prices', operationId: 'sandboxPinPrice', summary: 'Pin an <ASSET>/USD mid price (crosses follow) until the pin is removed', tag, auth,
      request: { body: CreatePricePinSchema },
      status: 201, response: PricePinSchema,
      handler: ({ body }, ctx) => ctx.deps.control.pins.set(model, body),
    }),
    defineRoute({
      method: 'delete', path: '/_sandbox/prices', operationId: 'sandboxClearPricePins', summary: 'Remove every price pin', tag, auth,
      status: 200, response: z.object({ deleted: CountSchema }),
      handler: (_input, ctx) => ({ deleted: ctx.deps.control.pins.clear() }),
    }),
    defineRoute({
      method: 'delete', path: '/_sandbox/prices/{pair}', operationId: 'sandboxUnpinPrice', summary: 'Remove the pin of one pair, given URL-encoded (ETH%2FUSD)', tag, auth,
      request: { params: PricePinParams },
      status: 200, response: DeletedPinSchema, errors: ['resource_missing'],
      handler: ({ params }, ctx) => unpin(params.pair, ctx),
    }),
    defineRoute({
      method: 'delete', path: '/_sandbox/prices/{base}/{quote}', operationId: 'sandboxUnpinPriceByLegs', summary: 'Remove the pin of one pair, given as /ETH/USD', tag, auth,
      request: { params: PricePinLegParams },
      status: 200, response: DeletedPinSchema, errors: ['resource_missing'],
      handler: ({ params }, ctx) => unpin(`${params.base}/${params.quote}`, ctx),
    }),
  ]
}
