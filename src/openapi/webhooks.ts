import { EVENT_TYPES } from '../model/events.js'
import type { SchemaComponents } from './components.js'
import { EVENT_SCHEMAS } from '../schemas/event.js'

/**
 * The `webhooks` section of the OpenAPI document (3.1): what the sandbox POSTs to a webhook endpoint
 * for each event type, with the Standard Webhooks headers a receiver verifies (CONTRACT.md section 9).
 */
export function webhookOperations(components: SchemaComponents, tag: string): Record<string, { post: Record<string, unknown> }> {
  return Object.fromEntries(
    EVENT_TYPES.map((type) => {
      const schema = EVENT_SCHEMAS[type]
      const name = String(schema.meta()?.id)
      const post = {
        operationId: `on${name}`,
        summary: `The ${type} event`,
        description: `${String(schema.meta()?.description)} Sent to every enabled endpoint subscribed to \`${type}\` (or to every event).`,
        tags: [tag],
        security: [],
        parameters: DELIVERY_HEADERS,
        requestBody: { required: true, content: { 'application/json': { schema: components.render(schema, 'output') } } },
        responses: RECEIVER_ANSWERS,
      }
      return [type, { post }]
    }),
  )
}

const header = (name: string, description: string, example: string) => ({ name, in: 'header', required: true, description, schema: { type: 'string' }, example })

const DELIVERY_HEADERS = [
  header('webhook-id', 'The event id (`evt_…`): the same on every attempt of this event, so a receiver can drop duplicates.', 'evt_3kTq9vXbN2mR8sLp4YhW6cJd'),
  header('webhook-timestamp', 'Unix seconds of this attempt, on the real wall clock (not sandbox time), so standard tolerance checks pass.', '1767225600'),
  header('webhook-signature', '`v1,` + base64 of HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<body>` with the endpoint secret (the bytes after `whsec_`, base64-decoded). Verifiable with the standardwebhooks package.', 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4='),
  header('user-agent', '`wallet-sandbox/<version>`.', 'wallet-sandbox/0.1.0'),
]

const RECEIVER_ANSWERS = {
  '200': { description: 'Any 2xx answer acknowledges the event. Anything else, a timeout (default 10 s) or a refused connection is retried on the sandbox clock (default after 5 s, 30 s, 2 min, 10 min, 1 h).' },
  '410': { description: 'Gone: the sandbox disables the endpoint (`status: "disabled"`) and stops delivering to it.' },
}
