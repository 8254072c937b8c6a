import { DeletedSchema } from '../../schemas/common.js'
import { WebhookEndpointIdParams } from '../../schemas/path-params.js'
import {
  CreatedWebhookEndpointSchema,
  CreateWebhookEndpointSchema,
  ListWebhookEndpointsQuery,
  UpdateWebhookEndpointSchema,
  WebhookEndpointSchema,
} from '../../schemas/webhook.js'
import { presentWebhookEndpoint } from '../../ledger/present.js'
import { defineRoute, presentPage } from '../../http/route.js'

const tag = 'Webhook endpoints'

export const webhookRoutes = [
  defineRoute({
    method: 'post', path: '/v1/webhooks', operationId: 'createWebhookEndpoint', summary: 'Register a webhook endpoint (the answer alone shows its signing secret)', tag, scope: 'webhooks:write',
    request: { body: CreateWebhookEndpointSchema },
    status: 201, response: CreatedWebhookEndpointSchema,
    handler: ({ body }, ctx) => {
      const endpoint = ctx.deps.services.webhookEndpoints.create(ctx.account, body)
      return { ...presentWebhookEndpoint(endpoint), secret: endpoint.secret }
    },
  }),
  defineRoute({
    method: 'get', path: '/v1/webhooks', operationId: 'listWebhookEndpoints', summary: 'List webhook endpoints, newest first', tag, scope: 'webhooks:read',
    request: { query: ListWebhookEndpointsQuery },
    status: 200, response: WebhookEndpointSchema, list: true,
    handler: ({ query: { limit, offset } }, ctx) => presentPage(ctx.deps.services.webhookEndpoints.list(ctx.account, offset, limit), presentWebhookEndpoint),
  }),
  defineRoute({
    method: 'get', path: '/v1/webhooks/{id}', operationId: 'getWebhookEndpoint', summary: 'Retrieve a webhook endpoint', tag, scope: 'webhooks:read',
    request: { params: WebhookEndpointIdParams },
    status: 200, response: WebhookEndpointSchema, errors: ['resource_missing'],
    handler: ({ params }, ctx) => presentWebhookEndpoint(ctx.deps.services.webhookEndpoints.get(ctx.account, params.id)),
  }),
  defineRoute({
    method: 'put', path: '/v1/webhooks/{id}', operationId: 'updateWebhookEndpoint', summary: 'Update a webhook endpoint’s url, events, description or status', tag, scope: 'webhooks:write',
    request: { params: WebhookEndpointIdParams, body: UpdateWebhookEndpointSchema },
    status: 200, response: WebhookEndpointSchema, errors: ['resource_missing'],
    handler: ({ params, body }, ctx) => presentWebhookEndpoint(ctx.deps.services.webhookEndpoints.update(ctx.account, params.id, body)),
  }),
  defineRoute({
    method: 'delete', path: '/v1/webhooks/{id}', operationId: 'deleteWebhookEndpoint', summary: 'Delete a webhook endpoint', tag, scope: 'webhooks:write',
    request: { params: WebhookEndpointIdParams },
    status: 200, response: DeletedSchema, errors: ['resource_missing'],
    handler: ({ params }, ctx) => {
      const endpoint = ctx.deps.services.webhookEndpoints.remove(ctx.account, params.id)
      return { id: endpoint.id, object: 'webhook_endpoint', deleted: true }
    },
  }),
]
