import { ApiError } from '../../errors.js'
import { PriceListSchema, PricesQuery } from '../../schemas/price.js'
import type { PriceModel } from '../../market/prices.js'
import { defineRoute } from '../../http/route.js'

/**
 * `GET /v1/prices`: the same quotes as the stream's `prices` channel, at the key's account's time
 * and with its price pins. Any valid key may read them (no scope). Built from the sandbox's one price model.
 */
export function priceRoutes(model: PriceModel) {
  return [
    defineRoute({
      method: 'get', path: '/v1/prices', operationId: 'listPrices', summary: 'Current prices of some or all pairs', tag: 'Prices', auth: 'key',
      request: { query: PricesQuery },
      status: 200, response: PriceListSchema,
      handler: ({ query }, ctx) => {
        const accountId = ctx.account.account.id
        const now = ctx.deps.clock.now(accountId)
        return pairsAsked(query.pairs, model).map((pair) => model.quote(pair, now, accountId))
      },
    }),
  ]
}

/** `ETH/USD,SOL/USD` → the pairs, deduplicated, in the order given; absent → every pair. */
function pairsAsked(raw: string | undefined, model: PriceModel): readonly string[] {
  if (raw === undefined) return model.pairs
  const pairs = [...new Set(raw.split(',').map((pair) => pair.trim()))]
  if (pairs.some((pair) => pair === '')) {
    throw new ApiError('parameter_invalid', `pairs must be a comma-separated list of pairs such as ETH/USD,SOL/USD (no empty entries); valid pairs are ${model.pairs.join(', ')}.`, { param: 'pairs' })
  }
  const unknown = pairs.filter((pair) => !model.isPair(pair))
  if (unknown.length > 0) {
    throw new ApiError('parameter_invalid', `Unknown pair${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; valid pairs are ${model.pairs.join(', ')} (BASE/QUOTE, upper case).`, { param: 'pairs' })
  }
  return pairs
}
