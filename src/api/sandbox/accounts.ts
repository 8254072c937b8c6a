import { presentOrder } from '../../ledger/present-order.js'
import { ListOrdersQuery, OrderSchema } from '../../schemas/order.js'
import type * as z from 'zod'
import { notFound } from '../../errors.js'
import type { RequestContext } from '../../http/context.js'
import { presentSettlement } from '../../ledger/present-settlement.js'
import { ListSettlementsQuery, SettlementSchema } from '../../schemas/settlement.js'
import { defineRoute, presentPage, type ListResult } from '../../http/route.js'
import { listTransactions, presentTransaction } from '../../ledger/postings.js'
import { presentBalance, presentPayment, presentPayout, presentWallet, presentWebhookEndpoint, presentWhitelisted } from '../../ledger/present.js'
import { AccountIdParams } from '../../schemas/path-params.js'
import { ListPaymentsQuery, PaymentSchema } from '../../schemas/payment.js'
import { LedgerTransactionSchema, ListPostingsQuery } from '../../schemas/postings.js'
import { ListPayoutsQuery, PayoutSchema } from '../../schemas/payout.js'
import { BalanceSchema, ListWalletsQuery, WalletSchema } from '../../schemas/wallet.js'
import { ListWebhookEndpointsQuery, WebhookEndpointSchema } from '../../schemas/webhook.js'
import { ListWhitelistQuery, WhitelistedAddressSchema } from '../../schemas/whitelist.js'
import type { AccountState } from '../../store/account-state.js'

const tag = 'Sandbox control'
const auth = 'control' as const

function accountOf(ctx: RequestContext, id: string): AccountState {
  const account = ctx.deps.store.accounts.get(id)
  if (!account) throw notFound('account', id)
  return account
}

/** One list of an account: its path, the query and item schemas of its /v1 twin, and how to read a page. */
function accountList<Q extends z.ZodType<{ limit: number; offset: number }>>(list: {
  name: string
  operationId: string
  summary: string
  query: Q
  response: z.ZodType
  read: (ctx: RequestContext, account: AccountState, query: z.output<Q>) => ListResult<unknown>
}) {
  return defineRoute({
    method: 'get', path: `/_sandbox/accounts/{id}/${list.name}`, operationId: list.operationId, summary: list.summary, tag, auth,
    request: { params: AccountIdParams, query: list.query },
    status: 200, response: list.response, list: true, errors: ['resource_missing'],
    handler: ({ params, query }, ctx) => list.read(ctx, accountOf(ctx, params.id), query),
  })
}

/**
 * An account's records read through the control API, with the same filters, order and objects as the
 * `/v1` lists. The dashboard reads with these: unlike `/v1`, they take no API key, so they never count
 * toward a key's rate limit nor meet `--latency` / `--error-rate` (CONTRACT.md section 7).
 */
export const accountControlRoutes = [
  accountList({
    name: 'wallets', operationId: 'sandboxListAccountWallets', summary: 'An account’s wallets, newest first, as GET /v1/wallets answers them',
    query: ListWalletsQuery, response: WalletSchema,
    read: (ctx, account, { limit, offset, ...filter }) => presentPage(ctx.deps.services.wallets.list(account, filter, offset, limit), presentWallet),
  }),
  // One balance per wallet, in the order (and with the filters and pages) of the wallets list: the
  // available and locked parts of many wallets in one read, where /v1 needs one request per wallet.
  accountList({
    name: 'balances', operationId: 'sandboxListAccountBalances', summary: 'The balance (available, locked, total) of each of an account’s wallets, in the order of its wallets list',
    query: ListWalletsQuery, response: BalanceSchema,
    read: (ctx, account, { limit, offset, ...filter }) => presentPage(ctx.deps.services.wallets.list(account, filter, offset, limit), presentBalance),
  }),
  accountList({
    name: 'payments', operationId: 'sandboxListAccountPayments', summary: 'An account’s payments, newest first, as GET /v1/payments answers them',
    query: ListPaymentsQuery, response: PaymentSchema,
    read: (ctx, account, { limit, offset, ...filter }) => presentPage(ctx.deps.services.payments.list(account, filter, offset, limit), presentPayment),
  }),
  accountList({
    name: 'payouts', operationId: 'sandboxListAccountPayouts', summary: 'An account’s bulk payouts, newest first, as GET /v1/payouts answers them',
    query: ListPayoutsQuery, response: PayoutSchema,
    read: (ctx, account, { limit, offset }) => presentPage(ctx.deps.services.payouts.list(account, offset, limit), presentPayout),
  }),
  accountList({
    name: 'orders', operationId: 'sandboxListAccountOrders', summary: 'An account’s orders, newest first, as GET /v1/orders answers them',
    query: ListOrdersQuery, response: OrderSchema,
    read: (ctx, account, { limit, offset, ...filter }) => presentPage(ctx.deps.services.orders.list(account, filter, offset, limit), presentOrder),
  }),
  accountList({
    name: 'settlements', operationId: 'sandboxListAccountSettlements', summary: 'An account’s settlements, newest first, as GET /v1/settlements answers them',
    query: ListSettlementsQuery, response: SettlementSchema,
    read: (ctx, account, { limit, offset, ...filter }) => presentPage(ctx.deps.services.settlements.list(account, filter, offset, limit), presentSettlement),
  }),
  accountList({
    name: 'webhooks', operationId: 'sandboxListAccountWebhookEndpoints', summary: 'An account’s webhook endpoints, newest first, as GET /v1/webhooks answers them (no secrets)',
    query: ListWebhookEndpointsQuery, response: WebhookEndpointSchema,
    read: (ctx, account, { limit, offset }) => presentPage(ctx.deps.services.webhookEndpoints.list(account, offset, limit), presentWebhookEndpoint),
  }),
  accountList({
    name: 'whitelisted_addresses', operationId: 'sandboxListAccountWhitelistedAddresses', summary: 'An account’s whitelisted addresses, newest first, as GET /v1/whitelisted_addresses answers them',
    query: ListWhitelistQuery, response: WhitelistedAddressSchema,
    read: (ctx, account, { limit, offset, ...filter }) => presentPage(ctx.deps.services.whitelist.list(account, filter, offset, limit), presentWhitelisted),
  }),
  defineRoute({
    method: 'get', path: '/_sandbox/accounts/{id}/postings', operationId: 'sandboxListAccountPostings', summary: 'An account’s ledger transactions (every movement of money, with its postings), newest first', tag, auth,
    request: { params: AccountIdParams, query: ListPostingsQuery },
    status: 200, response: LedgerTransactionSchema, list: true, errors: ['resource_missing'],
    handler: ({ params, query: { limit, offset, wallet_id } }, ctx) => {
      const account = accountOf(ctx, params.id)
      // A wallet of another account (or none) is a mistake worth naming, not an empty page.
      if (wallet_id !== undefined && !account.wallets.has(wallet_id)) throw notFound('wallet', wallet_id, 'wallet_id')
      return presentPage(listTransactions(account, wallet_id, offset, limit), (tx) => presentTransaction(account, tx))
    },
  }),
]
