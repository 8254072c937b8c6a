import type { Pack, StepSpec } from '../step.js'
import { createWallet, del, get, post, put } from './builders.js'
import { addressOn, runAddress, UNKNOWN } from './values.js'

/**
 * The seed's operations (CONTRACT.md section 22): wallets on every network and of every type, read,
 * listed with filters and paging; a balance; payments to an address and to a wallet, read and listed
 * with each filter; an Idempotency-Key retried; the whitelist; and the error cases. Lists are
 * narrowed to what the pack made (the run's `external_user_id`, the recipient wallet), or to a page of
 * one where the pack made two or more (so `has_more` is true on both), so that a hosted account with
 * a history compares with a fresh one.
 */
export const core: Pack = {
  name: 'core',
  description: 'wallets, balances, payments, idempotency, the whitelist and the error cases',
  steps: ({ source, run }) => {
    const { currency, network } = source
    const user = `parity-${run}`
    const address = addressOn(network)
    const ofUser = { external_user_id: user }
    /** A payment body from the pack's own (empty) wallet: every check before the balance answers first. */
    const fromEmpty = (overrides: Record<string, unknown>) => ({ amount: '1.00', currency, source_wallet: '{{recipient.data.id}}', recipient: address, ...overrides })
    const steps: StepSpec[] = [
      createWallet('polygon', 'USDC', 'polygon', { type: 'user', metadata: ofUser }),
      createWallet('ethereum', 'ETH', 'ethereum', { type: 'institutional', metadata: ofUser }),
      createWallet('stellar', 'XLM', 'stellar', { type: 'omnibus', metadata: ofUser }),
      createWallet('solana', 'SOL', 'solana', { metadata: ofUser }),
      createWallet('recipient', currency, network, { type: 'user', metadata: ofUser, step: 'create the recipient wallet' }),
      get('read a wallet', '/v1/wallets/{{polygon.data.id}}'),
      get('read its balance', '/v1/wallets/{{polygon.data.id}}/balance'),
      get('read an unknown wallet', `/v1/wallets/${UNKNOWN.wallet}`),
      get('list wallets, newest first', '/v1/wallets', { limit: '2' }),
      get('list the next page', '/v1/wallets', { limit: '2', offset: '1' }),
      get('list the wallets of an end user', '/v1/wallets', { external_user_id: user }, { lengths: true }),
      get('list them by network', '/v1/wallets', { external_user_id: user, network: 'stellar' }, { lengths: true }),
      get('list them by currency', '/v1/wallets', { external_user_id: user, currency: 'SOL' }, { lengths: true }),
      get('list them by type', '/v1/wallets', { external_user_id: user, type: 'omnibus' }, { lengths: true }),
      get('list them by status, a page of one', '/v1/wallets', { external_user_id: user, status: 'active', limit: '1' }),
      get('refuse a page of 101', '/v1/wallets', { limit: '101' }),
      get('refuse a negative offset', '/v1/wallets', { offset: '-1' }),
      put('rename a wallet', '/v1/wallets/{{solana.data.id}}', { name: 'parity solana, renamed' }),
      del('close an empty wallet', '/v1/wallets/{{solana.data.id}}'),
      post('create a wallet with an Idempotency-Key', '/v1/wallets', { name: 'parity idempotent', currency: 'USDC', network: 'solana' }, { headers: { 'Idempotency-Key': `${user}-wallet` } }),
      post('retry it with the same body', '/v1/wallets', { name: 'parity idempotent', currency: 'USDC', network: 'solana' }, { headers: { 'Idempotency-Key': `${user}-wallet` } }),
      post('retry it with another body', '/v1/wallets', { name: 'parity idempotent, changed', currency: 'USDC', network: 'solana' }, { headers: { 'Idempotency-Key': `${user}-wallet` } }),
      post('pay an external address', '/v1/payments', { amount: '0.01', currency, source_wallet: '{{source.id}}', recipient: address, description: 'wallet-sandbox parity' }, { needsFunds: true, save: 'toAddress' }),
      post('pay the recipient wallet', '/v1/payments', { amount: '0.02', currency, source_wallet: '{{source.id}}', recipient: '{{recipient.data.id}}', metadata: { parity: run } }, { needsFunds: true, save: 'toWallet' }),
      get('read a payment', '/v1/payments/{{toWallet.data.id}}'),
      get('read the payment to the address', '/v1/payments/{{toAddress.data.id}}'),
      get('list the payments to the recipient wallet', '/v1/payments', { recipient_id: '{{recipient.data.id}}' }, { lengths: true }),
      get('list them by status', '/v1/payments', { recipient_id: '{{recipient.data.id}}', status: 'pending' }),
      get('list them by currency', '/v1/payments', { recipient_id: '{{recipient.data.id}}', currency }, { lengths: true }),
      get('list payments by source wallet', '/v1/payments', { source_wallet: '{{source.id}}', limit: '1' }, { needsFunds: true }),
      get('list payments, newest first', '/v1/payments', { limit: '1' }, { needsFunds: true }),
      get('refuse a payment list of 101', '/v1/payments', { limit: '101' }),
      get('read an unknown payment', `/v1/payments/${UNKNOWN.payment}`),
      post('refuse amount 0', '/v1/payments', fromEmpty({ amount: '0' })),
      post('refuse amount -1', '/v1/payments', fromEmpty({ amount: '-1' })),
      post('refuse amount abc', '/v1/payments', fromEmpty({ amount: 'abc' })),
      post('refuse too many decimals', '/v1/payments', fromEmpty({ amount: '0.1234567890123456789' })),
      post('refuse a lower-case currency', '/v1/payments', fromEmpty({ currency: currency.toLowerCase() })),
      post('refuse an unknown network', '/v1/wallets', { name: 'parity unknown network', currency: 'USDC', network: 'bitcoin' }),
      post('refuse an unknown source wallet', '/v1/payments', fromEmpty({ source_wallet: UNKNOWN.wallet })),
      post('refuse a bad recipient', '/v1/payments', fromEmpty({ recipient: 'not-an-address' })),
      post('refuse a payment larger than the balance', '/v1/payments', fromEmpty({})),
      get('refuse a request without Authorization', '/v1/wallets', { limit: '1' }, { auth: 'none' }),
      get('refuse a malformed Authorization', '/v1/wallets', { limit: '1' }, { auth: 'malformed' }),
      get('answer an unknown path', '/v1/parity-unknown-path'),
      post('whitelist an address', '/v1/whitelisted_addresses', { address: runAddress(run), network: 'polygon', label: 'wallet-sandbox parity' }, { save: 'whitelisted' }),
      post('whitelist another', '/v1/whitelisted_addresses', { address: runAddress(`1${run}`), network: 'polygon' }, { save: 'whitelisted2' }),
      get('list whitelisted addresses, a page of one', '/v1/whitelisted_addresses', { network: 'polygon', limit: '1' }),
      del('remove the first from the whitelist', '/v1/whitelisted_addresses/{{whitelisted.data.id}}'),
      del('remove the second', '/v1/whitelisted_addresses/{{whitelisted2.data.id}}'),
      post('refuse an address invalid for its network', '/v1/whitelisted_addresses', { address: EXTERNAL_STELLAR_ON_POLYGON, network: 'polygon' }),
    ]
    return steps
  },
}

/** A stellar account id is no polygon address. */
const EXTERNAL_STELLAR_ON_POLYGON = addressOn('stellar')
