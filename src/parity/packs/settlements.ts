import type { Pack } from '../step.js'
import { createWallet, get, post } from './builders.js'
import { addressOn, settlementAmount, settlementDestination, UNKNOWN } from './values.js'

/** Valid beneficiaries of each rail tried here (ABA and IBAN checksums hold), nobody's magic value. */
const US_ACCOUNT = { name: 'Ada Lovelace', country: 'US', routing_number: '011000015', account_number: '123456789' }
const SEPA_ACCOUNT = { name: 'Grace Hopper', country: 'DE', iban: 'DE89370400440532013000' }

/** Cross-border settlements to a wallet, an address and two bank rails; read, listed, and refused. */
export const settlements: Pack = {
  name: 'settlements',
  description: 'cross-border settlements to a wallet, an address, an ACH and a SEPA account; read, listed, and the error cases',
  steps: ({ source, run }) => {
    const amount = settlementAmount(source.currency)
    const destination = settlementDestination(source.currency, source.network)
    const fromSource = (body: Record<string, unknown>) => ({ source_wallet: '{{source.id}}', amount, description: 'wallet-sandbox parity', metadata: { parity: run }, ...body })
    const fromEmpty = (body: Record<string, unknown>) => ({ source_wallet: '{{settlementWallet.data.id}}', amount, destination: { type: 'bank_account', currency: 'USD', beneficiary: US_ACCOUNT }, ...body })
    return [
      createWallet('settlementWallet', destination.currency, destination.network, { metadata: { external_user_id: `parity-${run}-settlement` } }),
      post('settle to a wallet', '/v1/settlements', fromSource({ destination: { type: 'wallet', wallet_id: '{{settlementWallet.data.id}}' } }), { needsFunds: true, save: 'settlementToWallet' }),
      post('settle to an address', '/v1/settlements', fromSource({ destination: { type: 'address', network: destination.network, currency: destination.currency, address: addressOn(destination.network) } }), { needsFunds: true }),
      post('settle to a US bank account', '/v1/settlements', fromSource({ destination: { type: 'bank_account', currency: 'USD', beneficiary: US_ACCOUNT } }), { needsFunds: true }),
      post(
        'settle to a SEPA account by the amount it receives',
        '/v1/settlements',
        { source_wallet: '{{source.id}}', destination_amount: '1.00', destination: { type: 'bank_account', currency: 'EUR', beneficiary: SEPA_ACCOUNT } },
        { needsFunds: true },
      ),
      get('read a settlement', '/v1/settlements/{{settlementToWallet.data.id}}'),
      get('list settlements, a page of one', '/v1/settlements', { limit: '1' }, { needsFunds: true }),
      get('list settlements to bank accounts, a page of one', '/v1/settlements', { destination_type: 'bank_account', limit: '1' }, { needsFunds: true }),
      post('refuse an invalid IBAN', '/v1/settlements', fromEmpty({ destination: { type: 'bank_account', currency: 'EUR', beneficiary: { ...SEPA_ACCOUNT, iban: 'DE00370400440532013000' } } })),
      post('refuse an invalid routing number', '/v1/settlements', fromEmpty({ destination: { type: 'bank_account', currency: 'USD', beneficiary: { ...US_ACCOUNT, routing_number: '011000016' } } })),
      post('refuse both amounts', '/v1/settlements', fromEmpty({ destination_amount: '1.00' })),
      post('refuse an unknown source wallet', '/v1/settlements', fromEmpty({ source_wallet: UNKNOWN.wallet })),
      post('refuse a settlement larger than the balance', '/v1/settlements', fromEmpty({})),
      get('read an unknown settlement', `/v1/settlements/${UNKNOWN.settlement}`),
      get('refuse an unknown destination type filter', '/v1/settlements', { destination_type: 'carrier_pigeon' }),
    ]
  },
}
