import { ApiError, echoId } from '../../errors.js'
import type { WebhookEngine } from '../../events/webhooks.js'
import { defineRoute } from '../../http/route.js'
import { DeliveryIdParams } from '../../schemas/path-params.js'
import { DeliveryListExtraSchema, DeliverySchema, ListDeliveriesQuery } from '../../schemas/webhook.js'

const tag = 'Sandbox control'

/** `/_sandbox/webhooks/deliveries`: the delivery log and redelivery (CONTRACT.md section 13). */
export function webhookControlRoutes(engine: WebhookEngine) {
  return [
    defineRoute({
      method: 'get', path: '/_sandbox/webhooks/deliveries', operationId: 'sandboxListWebhookDeliveries', summary: 'Webhook deliveries with every attempt, newest first', tag, auth: 'control',
      request: { query: ListDeliveriesQuery },
      status: 200, response: DeliverySchema, list: true, listExtra: DeliveryListExtraSchema,
      handler: ({ query: { limit, offset, ...filter } }) => {
        const all = engine.list(filter)
        return { items: all.slice(offset, offset + limit), total: all.length, extra: { dropped: engine.dropped(filter) } }
      },
    }),
    defineRoute({
      method: 'post', path: '/_sandbox/webhooks/deliveries/{id}/retry', operationId: 'sandboxRetryWebhookDelivery', summary: 'Make one more attempt at a delivery now and answer the updated delivery', tag, auth: 'control',
      request: { params: DeliveryIdParams },
      status: 200, response: DeliverySchema, errors: ['resource_missing'],
      handler: async ({ params }) => {
        const delivery = await engine.retry(params.id)
        if (!delivery) throw new ApiError('resource_missing', `No such webhook delivery: '${echoId(params.id)}'. GET /_sandbox/webhooks/deliveries lists the recent ones.`)
        return delivery
      },
    }),
  ]
}
