import { presentOrder } from '../../ledger/present-order.js'
import { defineRoute, presentPage } from '../../http/route.js'
import { CreateOrderSchema, ListOrdersQuery, OrderSchema } from '../../schemas/order.js'
import { OrderIdParams } from '../../schemas/path-params.js'

const tag = 'Orders'

/** CONTRACT.md section 15. */
export const orderRoutes = [
  defineRoute({
    method: 'post', path: '/v1/orders', operationId: 'createOrder', summary: 'Place a market or limit order', tag, scope: 'orders:write',
    request: { body: CreateOrderSchema },
    status: 201, response: OrderSchema,
    errors: ['resource_missing', 'wallet_inactive', 'insufficient_funds', 'quote_expired', 'quote_already_used', 'idempotency_key_reused', 'idempotency_key_in_use'],
    handler: ({ body }, ctx) => presentOrder(ctx.deps.services.orders.create(ctx.account, body)),
  }),
  defineRoute({
    method: 'get', path: '/v1/orders', operationId: 'listOrders', summary: 'List orders, newest first', tag, scope: 'orders:read',
    request: { query: ListOrdersQuery },
    status: 200, response: OrderSchema, list: true,
    handler: ({ query: { limit, offset, ...filter } }, ctx) => presentPage(ctx.deps.services.orders.list(ctx.account, filter, offset, limit), presentOrder),
  }),
  defineRoute({
    method: 'get', path: '/v1/orders/{id}', operationId: 'getOrder', summary: 'Retrieve an order', tag, scope: 'orders:read',
    request: { params: OrderIdParams },
    status: 200, response: OrderSchema, errors: ['resource_missing'],
    handler: ({ params }, ctx) => presentOrder(ctx.deps.services.orders.get(ctx.account, params.id)),
  }),
  defineRoute({
    method: 'post', path: '/v1/orders/{id}/cancel', operationId: 'cancelOrder', summary: 'Cancel an open order; what it holds is released', tag, scope: 'orders:write',
    request: { params: OrderIdParams },
    status: 200, response: OrderSchema, errors: ['resource_missing', 'invalid_state_transition', 'idempotency_key_reused', 'idempotency_key_in_use'],
    handler: ({ params }, ctx) => {
      const orders = ctx.deps.services.orders
      return presentOrder(orders.cancel(ctx.account, orders.get(ctx.account, params.id)))
    },
  }),
]
