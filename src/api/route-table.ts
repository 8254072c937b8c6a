import type { EventLog } from '../events/event-log.js'
import type { WebhookEngine } from '../events/webhooks.js'
import type { AnyRoute } from '../http/route.js'
import type { TradingPairs } from '../market/pairs.js'
import type { PriceModel } from '../market/prices.js'

/**
 * Every route of the API and the control API, by group: the module that defines a group's routes,
 * and each route's method and path, in the order the routes are tried. The route index and the 405
 * answers need only those, so a group's module, with the zod schemas it builds, is imported when the
 * first request for one of its routes arrives (src/http/lazy-routes.ts): building every schema at
 * start was a third of a cold start's CPU (issue 33, docs/benchmarks.md), and most runs use a few
 * groups. A group whose routes differ from its `paths` fails its first request, and
 * test/unit/route-table.test.ts loads every group to check them.
 */

/** What some groups' routes are built from (the others need nothing but the request's context). */
export interface RouteGroupParts {
  prices: PriceModel
  pairs: TradingPairs
  webhooks: WebhookEngine
  events: EventLog
  /** Every route, the OpenAPI document's own included, loaded: what the document describes. */
  allRoutes(): Promise<readonly AnyRoute[]>
}

export interface RouteGroup {
  load(parts: RouteGroupParts): Promise<readonly AnyRoute[]>
  /** `METHOD /path` of each route, in the module's order. */
  paths: readonly string[]
}

export const ROUTE_GROUPS: readonly RouteGroup[] = [
  {
    load: async ({ prices }) => (await import('./v1/prices.js')).priceRoutes(prices),
    paths: ['GET /v1/prices'],
  },
  {
    load: async ({ pairs }) => (await import('./v1/quotes.js')).quoteRoutes(pairs),
    paths: ['GET /v1/pairs', 'POST /v1/quotes', 'GET /v1/quotes/{id}'],
  },
  {
    load: async () => (await import('./v1/wallets.js')).walletRoutes,
    paths: [
      'POST /v1/wallets', 'GET /v1/wallets', 'GET /v1/wallets/{id}', 'PUT /v1/wallets/{id}', 'DELETE /v1/wallets/{id}',
      'GET /v1/wallets/{id}/balance',
    ],
  },
  {
    load: async () => (await import('./v1/payments.js')).paymentRoutes,
    paths: ['POST /v1/payments', 'GET /v1/payments', 'GET /v1/payments/{id}'],
  },
  {
    load: async () => (await import('./v1/payouts.js')).payoutRoutes,
    paths: ['POST /v1/payouts', 'GET /v1/payouts', 'GET /v1/payouts/{id}'],
  },
  {
    load: async () => (await import('./v1/orders.js')).orderRoutes,
    paths: ['POST /v1/orders', 'GET /v1/orders', 'GET /v1/orders/{id}', 'POST /v1/orders/{id}/cancel'],
  },
  {
    load: async () => (await import('./v1/settlements.js')).settlementRoutes,
    paths: ['POST /v1/settlements', 'GET /v1/settlements', 'GET /v1/settlements/{id}'],
  },
  {
    load: async () => (await import('./v1/whitelist.js')).whitelistRoutes,
    paths: ['POST /v1/whitelisted_addresses', 'GET /v1/whitelisted_addresses', 'DELETE /v1/whitelisted_addresses/{id}'],
  },
  {
    load: async () => (await import('./v1/webhooks.js')).webhookRoutes,
    paths: ['POST /v1/webhooks', 'GET /v1/webhooks', 'GET /v1/webhooks/{id}', 'PUT /v1/webhooks/{id}', 'DELETE /v1/webhooks/{id}'],
  },
  {
    load: async () => (await import('./sandbox/health.js')).healthRoutes,
    paths: ['GET /_sandbox/health'],
  },
  {
    load: async () => (await import('./sandbox/routes.js')).controlRoutes,
    paths: [
      'GET /_sandbox/config', 'POST /_sandbox/reset', 'GET /_sandbox/accounts',
      'PATCH /_sandbox/accounts/{id}', 'POST /_sandbox/keys', 'GET /_sandbox/clock', 'POST /_sandbox/clock/advance',
      'POST /_sandbox/wallets/{id}/deposit', 'POST /_sandbox/payments/{id}/process', 'POST /_sandbox/payments/{id}/complete',
      'POST /_sandbox/payments/{id}/fail', 'GET /_sandbox/outcomes', 'POST /_sandbox/outcomes', 'DELETE /_sandbox/outcomes',
      'DELETE /_sandbox/outcomes/{id}', 'POST /_sandbox/screening', 'DELETE /_sandbox/screening', 'GET /_sandbox/magic',
    ],
  },
  {
    load: async () => (await import('./sandbox/accounts.js')).accountControlRoutes,
    paths: [
      'GET /_sandbox/accounts/{id}/wallets', 'GET /_sandbox/accounts/{id}/balances', 'GET /_sandbox/accounts/{id}/payments',
      'GET /_sandbox/accounts/{id}/payouts', 'GET /_sandbox/accounts/{id}/orders', 'GET /_sandbox/accounts/{id}/settlements',
      'GET /_sandbox/accounts/{id}/webhooks', 'GET /_sandbox/accounts/{id}/whitelisted_addresses',
      'GET /_sandbox/accounts/{id}/postings',
    ],
  },
  {
    load: async () => (await import('./sandbox/faults.js')).faultControlRoutes,
    paths: ['GET /_sandbox/faults', 'POST /_sandbox/faults', 'DELETE /_sandbox/faults', 'DELETE /_sandbox/faults/{id}'],
  },
  {
    load: async () => (await import('./sandbox/requests.js')).requestControlRoutes,
    paths: ['GET /_sandbox/requests', 'POST /_sandbox/requests/expect'],
  },
  {
    load: async () => (await import('./sandbox/snapshots.js')).snapshotRoutes,
    paths: ['GET /_sandbox/snapshot', 'POST /_sandbox/restore'],
  },
  {
    load: async ({ webhooks }) => (await import('./sandbox/webhooks.js')).webhookControlRoutes(webhooks),
    paths: ['GET /_sandbox/webhooks/deliveries', 'POST /_sandbox/webhooks/deliveries/{id}/retry'],
  },
  {
    load: async ({ events }) => (await import('./sandbox/events.js')).eventControlRoutes(events),
    paths: ['GET /_sandbox/events'],
  },
  {
    load: async ({ prices }) => (await import('./sandbox/prices.js')).priceControlRoutes(prices),
    paths: [
      'GET /_sandbox/prices', 'POST /_sandbox/prices', 'DELETE /_sandbox/prices', 'DELETE /_sandbox/prices/{pair}',
      'DELETE /_sandbox/prices/{base}/{quote}',
    ],
  },
  {
    load: async () => (await import('./sandbox/orders.js')).orderControlRoutes,
    paths: ['POST /_sandbox/orders/{id}/fill', 'POST /_sandbox/orders/{id}/reject'],
  },
  {
    load: async () => (await import('./sandbox/settlements.js')).settlementControlRoutes,
    paths: ['POST /_sandbox/settlements/{id}/advance', 'POST /_sandbox/settlements/{id}/fail'],
  },
  {
    load: async ({ allRoutes }) => [(await import('./v1/openapi.js')).openApiRoute(allRoutes)],
    paths: ['GET /v1/openapi.json'],
  },
]
