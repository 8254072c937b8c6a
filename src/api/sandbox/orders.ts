import { defineRoute } from '../../http/route.js'
import { presentOrder } from '../../ledger/present-order.js'
import { ControlFillSchema, ControlRejectSchema, OrderSchema } from '../../schemas/order.js'
import { OrderIdParams } from '../../schemas/path-params.js'

const tag = 'Sandbox control'
const auth = 'control' as const

/** Control calls that make an order fill or fail exactly when a test wants (CONTRACT.md section 15). */
export const orderControlRoutes = [
  defineRoute({
    method: 'post', path: '/_sandbox/orders/{id}/fill', operationId: 'sandboxFillOrder', summary: 'Fill an open order now (default: the remainder at the current ask or bid)', tag, auth,
    request: { params: OrderIdParams, body: ControlFillSchema },
    status: 200, response: OrderSchema, errors: ['resource_missing', 'invalid_state_transition'],
    handler: ({ params, body }, ctx) => {
      const { account, order } = ctx.deps.control.findOrder(params.id)
      return presentOrder(ctx.deps.services.orders.forceFill(account, order, body.amount, body.price))
    },
  }),
  defineRoute({
    method: 'post', path: '/_sandbox/orders/{id}/reject', operationId: 'sandboxRejectOrder', summary: 'Reject an open order that has no fills', tag, auth,
    request: { params: OrderIdParams, body: ControlRejectSchema },
    status: 200, response: OrderSchema, errors: ['resource_missing', 'invalid_state_transition'],
    handler: ({ params, body }, ctx) => {
      const { account, order } = ctx.deps.control.findOrder(params.id)
      return presentOrder(ctx.deps.services.orders.reject(account, order, body.reason))
    },
  }),
]
