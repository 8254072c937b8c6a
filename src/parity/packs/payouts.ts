import type { Pack } from '../step.js'
import { createWallet, get, post } from './builders.js'
import { addressOn, UNKNOWN } from './values.js'

/** Bulk payouts: one to an address and a wallet, read with its payments, listed, and refused. */
export const payouts: Pack = {
  name: 'payouts',
  description: 'bulk payouts: created, read with their payments, listed, and the error cases',
  steps: ({ source, run }) => {
    const { currency, network } = source
    const address = addressOn(network)
    const fromEmpty = (items: unknown, overrides: Record<string, unknown> = {}) => ({ source_wallet: '{{payoutRecipient.data.id}}', currency, items, ...overrides })
    return [
      createWallet('payoutRecipient', currency, network, { type: 'user', metadata: { external_user_id: `parity-${run}-payout` } }),
      post(
        'create a bulk payout to an address and a wallet',
        '/v1/payouts',
        { source_wallet: '{{source.id}}', currency, items: [{ amount: '0.01', recipient: address }, { amount: '0.02', recipient: '{{payoutRecipient.data.id}}', description: 'wallet-sandbox parity' }], metadata: { parity: run } },
        { needsFunds: true, save: 'payout' },
      ),
      get('read the payout', '/v1/payouts/{{payout.data.id}}'),
      get('read its first payment', '/v1/payments/{{payout.data.payment_ids.0}}'),
      get('read its second payment', '/v1/payments/{{payout.data.payment_ids.1}}'),
      post('create another, of one item', '/v1/payouts', { source_wallet: '{{source.id}}', currency, items: [{ amount: '0.01', recipient: address }] }, { needsFunds: true }),
      get('list payouts, a page of one', '/v1/payouts', { limit: '1' }, { needsFunds: true }),
      get('list the payments to the payout\'s wallet', '/v1/payments', { recipient_id: '{{payoutRecipient.data.id}}' }, { lengths: true }),
      post('refuse a payout without items', '/v1/payouts', fromEmpty([])),
      post('refuse an item with a bad amount', '/v1/payouts', fromEmpty([{ amount: 'abc', recipient: address }])),
      post('refuse an item with a bad recipient', '/v1/payouts', fromEmpty([{ amount: '1.00', recipient: 'not-an-address' }])),
      post('refuse an unknown source wallet', '/v1/payouts', fromEmpty([{ amount: '1.00', recipient: address }], { source_wallet: UNKNOWN.wallet })),
      post('refuse a payout larger than the balance', '/v1/payouts', fromEmpty([{ amount: '1.00', recipient: address }])),
      get('read an unknown payout', `/v1/payouts/${UNKNOWN.payout}`),
      get('refuse a payout list of 101', '/v1/payouts', { limit: '101' }),
    ]
  },
}
