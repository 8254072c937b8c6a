import type { Pack } from '../step.js'
import { del, get, post, put } from './builders.js'
import { UNKNOWN } from './values.js'

/**
 * Webhook endpoints created, read, listed, updated and deleted; nothing is delivered: the endpoints
 * listen to one event no pack causes (`payout.failed`) and are gone before the run ends. Two of them,
 * so that a page of one has more on both sides.
 */
export const webhooks: Pack = {
  name: 'webhooks',
  description: 'webhook endpoints created, read, listed, updated and deleted (no delivery), and the error cases',
  steps: () => [
    post('create a webhook endpoint', '/v1/webhooks', { url: 'https://example.com/wallet-sandbox-parity', events: ['payout.failed'], description: 'wallet-sandbox parity' }, { save: 'endpoint' }),
    post('create another', '/v1/webhooks', { url: 'https://example.com/wallet-sandbox-parity/2', events: ['payout.failed'] }, { save: 'endpoint2' }),
    get('read the endpoint', '/v1/webhooks/{{endpoint.data.id}}'),
    get('list endpoints, a page of one', '/v1/webhooks', { limit: '1' }),
    put('update its description', '/v1/webhooks/{{endpoint.data.id}}', { description: 'wallet-sandbox parity, updated' }),
    del('delete it', '/v1/webhooks/{{endpoint.data.id}}'),
    del('delete the other', '/v1/webhooks/{{endpoint2.data.id}}'),
    get('read it once deleted', '/v1/webhooks/{{endpoint.data.id}}'),
    post('refuse a URL that is not http(s)', '/v1/webhooks', { url: 'ftp://example.com/hooks', events: ['payout.failed'] }),
    post('refuse an unknown event type', '/v1/webhooks', { url: 'https://example.com/wallet-sandbox-parity', events: ['payment.exploded'] }),
    get('read an unknown endpoint', `/v1/webhooks/${UNKNOWN.webhook}`),
  ],
}
