import { defineRoute } from '../../http/route.js'
import { QuoteIdParams } from '../../schemas/path-params.js'
import { CreateQuoteSchema, QuoteSchema, TradingPairSchema } from '../../schemas/quote.js'
import type { TradingPairs } from '../../market/pairs.js'

/** `POST /v1/quotes`, `GET /v1/quotes/{id}` and `GET /v1/pairs` (CONTRACT.md section 15). */
export function quoteRoutes(pairs: TradingPairs) {
  return [
    defineRoute({
      method: 'get', path: '/v1/pairs', operationId: 'listPairs', summary: 'The trading pairs, with their order limits', tag: 'Trading',
      status: 200, response: TradingPairSchema.array(),
      handler: () => pairs.all.map((pair) => ({ object: 'pair', ...pair })),
    }),
    defineRoute({
      method: 'post', path: '/v1/quotes', operationId: 'createQuote', summary: 'Quote a conversion between two currencies, held for --quote-ttl', tag: 'Trading', scope: 'orders:write',
      request: { body: CreateQuoteSchema },
      status: 201, response: QuoteSchema,
      errors: ['idempotency_key_reused', 'idempotency_key_in_use'],
      handler: ({ body }, ctx) => {
        const quotes = ctx.deps.services.quotes
        return quotes.present(ctx.account, quotes.create(ctx.account, body))
      },
    }),
    defineRoute({
      method: 'get', path: '/v1/quotes/{id}', operationId: 'getQuote', summary: 'Retrieve a quote (its status follows the sandbox clock)', tag: 'Trading', scope: 'orders:read',
      request: { params: QuoteIdParams },
      status: 200, response: QuoteSchema, errors: ['resource_missing'],
      handler: ({ params }, ctx) => {
        const quotes = ctx.deps.services.quotes
        return quotes.present(ctx.account, quotes.get(ctx.account, params.id))
      },
    }),
  ]
}
