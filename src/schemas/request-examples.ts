import { EXAMPLE_IDS } from './path-params.js'

/**
 * An example of every request body, shown in the OpenAPI document (`example` of the body's schema).
 * Each works as sent against a fresh `npx wallet-sandbox` (default seed, default key
 * `sk_test_sandbox_default_key`): the wallet is the default account's funded "Treasury USDC on
 * Polygon", the addresses are valid for their network. Request generators (Portman, Prism, the
 * fuzzer in test/fuzz) send them; test/http/openapi-examples.test.ts checks each against its schema
 * and `npm run test:contract` sends them all.
 */

/** A valid, checksummed polygon address that no fixture gives an outcome to. */
const EVM_RECIPIENT = '0x52908400098527886E0F7030069857D2E4169EE7'
/** Another one, for the screening example (so flagging it does not fail the payment examples). */
const EVM_FLAGGED = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359'

export const REQUEST_EXAMPLES = {
  createWallet: { name: 'Customer savings', currency: 'USDC', network: 'polygon', type: 'user', metadata: { external_user_id: 'user_1042' } },
  updateWallet: { name: 'Treasury USDC on Polygon', status: 'active' },
  createPayment: {
    amount: '10.50', currency: 'USDC', source_wallet: EXAMPLE_IDS.wallet, recipient: EVM_RECIPIENT,
    description: 'Invoice 1042', metadata: { order_id: '1042' },
  },
  createPayout: {
    source_wallet: EXAMPLE_IDS.wallet, currency: 'USDC',
    items: [{ amount: '5.00', recipient: EVM_RECIPIENT, description: 'Affiliate payout, March' }, { amount: '2.50', recipient: EVM_RECIPIENT }],
    metadata: { batch: 'march' },
  },
  createWhitelistedAddress: { address: EVM_RECIPIENT, network: 'polygon', label: 'Exchange deposit address' },
  createWebhookEndpoint: { url: 'https://example.com/webhooks', events: ['payment.succeeded', 'payment.failed'], description: 'Order service' },
  updateWebhookEndpoint: { description: 'Order service (payments)', status: 'enabled' },
  reset: { api_key: 'sk_test_sandbox_default_key' },
  patchAccount: { whitelist_enforced: false },
  createKey: { account_id: EXAMPLE_IDS.account, type: 'restricted', scopes: ['wallets:read', 'payments:read'] },
  advanceClock: { ms: 5000 },
  deposit: { amount: '100.00' },
  failPayment: { failure_code: 'recipient_rejected' },
  createOutcomeRule: { match: { network: 'polygon', amount_min: '1000', amount_max: '5000' }, outcome: 'failed', failure_code: 'network_congestion', times: 1 },
  screening: { network: 'polygon', address: EVM_FLAGGED },
  /** The retry of a payment reused its Idempotency-Key: two POSTs with it (the first example payment's body, sent twice). */
  expectRequest: {
    api_key: 'sk_test_sandbox_default_key', method: 'POST', path: '/v1/payments',
    headers: { 'idempotency-key': 'order-1042' }, body: { amount: '10.50', currency: 'USDC' }, count: 2, within_ms: 500,
  },
  createFault: { match: { method: 'GET', path: '/v1/prices' }, fault: 'latency', latency_ms: [20, 80], times: 1 },
  createQuote: { source_currency: 'USDC', destination_currency: 'ETH', source_amount: '100.00' },
  /** A limit buy far below the market: it stays open (no price tick fills it) until it is cancelled, or filled or rejected by a control call. */
  createOrder: {
    pair: 'ETH/USDC', side: 'buy', type: 'limit', amount: '0.01', limit_price: '1000.00', time_in_force: 'gtc',
    base_wallet: EXAMPLE_IDS.ethWallet, quote_wallet: EXAMPLE_IDS.wallet, metadata: { strategy: 'dip-buy' },
  },
  fillOrder: { amount: '0.005', price: '1000.00' },
  rejectOrder: { reason: 'Market closed' },
  createPricePin: { pair: 'ETH/USD', price: '3000.00', spread_bp: 10 },
  /** Same currency, so no conversion: one transfer step, moved on by the control advance and fail calls. */
  createSettlement: {
    source_wallet: EXAMPLE_IDS.wallet, amount: '25.00',
    destination: { type: 'address', network: 'polygon', currency: 'USDC', address: EVM_RECIPIENT },
    description: 'Supplier invoice 77', metadata: { invoice: '77' },
  },
  failSettlement: { failure_code: 'transfer_failed', failure_message: 'Beneficiary bank declined the transfer' },
  /** The smallest snapshot: no accounts at all (the default account comes back on the default key's next use). */
  restore: { version: 1, accounts: [], keys: [], control: {}, taken_at: '2026-01-01T00:00:00.000Z' },
} as const
