import { notFound } from '../errors.js'
import type { RequestContext } from '../http/context.js'
import { defineRoute, presentPage } from '../http/route.js'
import { presentBalance, presentPayment, presentPayout, presentWallet, presentWebhookEndpoint, presentWhitelisted } from '../ledger/present.js'
import { IdParams } from '../schemas/common.js'
import { ListPaymentsQuery, PaymentSchema } from '../schemas/payment.js'
import { ListPayoutsQuery, PayoutSchema } from '../schemas/payout.js'
import { BalanceSchema, ListWalletsQuery, WalletSchema } from '../schemas/wallet.js'
import { ListWebhookEndpointsQuery, WebhookEndpointSchema } from '../schemas/webhook.js'
import { ListWhitelistQuery, WhitelistedAddressSchema } from '../schemas/whitelist.js'
import type { AccountState } from '../store/records.js'

const tag = 'Sandbox control'
const auth = 'control' as const

function accountOf(ctx: RequestContext, id: string): AccountState {
  const account = ctx.deps.store.accounts.get(id)
  if (!account) throw notFound('account', id)
  return account
}

/**
 * An account's records read through the control API, with the same filters, order and objects as the
 * `/v1` lists. The dashboard reads with these: unlike `/v1`, they take no API key, so they never count
 * toward a key's rate limit nor meet `--latency` / `--error-rate` (CONTRACT.md section 7).
 */
export const accountControlRoutes = [
  defineRoute({
    method: 'get', path: '/_sandbox/accounts/{id}/wallets', operationId: 'sandboxListAccountWallets', summary: 'An account’s wallets, newest first, as GET /v1/wallets answers them', tag, auth,
    request: { params: IdParams, query: ListWalletsQuery },
    status: 200, response: WalletSchema, list: true, errors: ['resource_missing'],
    handler: ({ params, query: { limit, offset, ...filter } }, ctx) => presentPage(ctx.deps.services.wallets.list(accountOf(ctx, params.id), filter, offset, limit), presentWallet),
  }),
  defineRoute({
    method: 'get', path: '/_sandbox/accounts/{id}/payments', operationId: 'sandboxListAccountPayments', summary: 'An account’s payments, newest first, as GET /v1/payments answers them', tag, auth,
    request: { params: IdParams, query: ListPaymentsQuery },
    status: 200, response: PaymentSchema, list: true, errors: ['resource_missing'],
    handler: ({ params, query: { limit, offset, ...filter } }, ctx) => presentPage(ctx.deps.services.payments.list(accountOf(ctx, params.id), filter, offset, limit), presentPayment),
  }),
  // One balance per wallet, in the order (and with the filters and pages) of the wallets list: the
  // available and locked parts of many wallets in one read, where /v1 needs one request per wallet.
  defineRoute({
    method: 'get', path: '/_sandbox/accounts/{id}/balances', operationId: 'sandboxListAccountBalances', summary: 'The balance (available, locked, total) of each of an account’s wallets, in the order of its wallets list', tag, auth,
    request: { params: IdParams, query: ListWalletsQuery },
    status: 200, response: BalanceSchema, list: true, errors: ['resource_missing'],
    handler: ({ params, query: { limit, offset, ...filter } }, ctx) => presentPage(ctx.deps.services.wallets.list(accountOf(ctx, params.id), filter, offset, limit), presentBalance),
  }),
  defineRoute({
    method: 'get', path: '/_sandbox/accounts/{id}/payouts', operationId: 'sandboxListAccountPayouts', summary: 'An account’s bulk payouts, newest first, as GET /v1/payouts answers them', tag, auth,
    request: { params: IdParams, query: ListPayoutsQuery },
    status: 200, response: PayoutSchema, list: true, errors: ['resource_missing'],
    handler: ({ params, query: { limit, offset } }, ctx) => presentPage(ctx.deps.services.payouts.list(accountOf(ctx, params.id), offset, limit), presentPayout),
  }),
  defineRoute({
    method: 'get', path: '/_sandbox/accounts/{id}/webhooks', operationId: 'sandboxListAccountWebhookEndpoints', summary: 'An account’s webhook endpoints, newest first, as GET /v1/webhooks answers them (no secrets)', tag, auth,
    request: { params: IdParams, query: ListWebhookEndpointsQuery },
    status: 200, response: WebhookEndpointSchema, list: true, errors: ['resource_missing'],
    handler: ({ params, query: { limit, offset } }, ctx) => presentPage(ctx.deps.services.webhookEndpoints.list(accountOf(ctx, params.id), offset, limit), presentWebhookEndpoint),
  }),
  defineRoute({
    method: 'get', path: '/_sandbox/accounts/{id}/whitelisted_addresses', operationId: 'sandboxListAccountWhitelistedAddresses', summary: 'An account’s whitelisted addresses, newest first, as GET /v1/whitelisted_addresses answers them', tag, auth,
    request: { params: IdParams, query: ListWhitelistQuery },
    status: 200, response: WhitelistedAddressSchema, list: true, errors: ['resource_missing'],
    handler: ({ params, query: { limit, offset, ...filter } }, ctx) => presentPage(ctx.deps.services.whitelist.list(accountOf(ctx, params.id), filter, offset, limit), presentWhitelisted),
  }),
]
