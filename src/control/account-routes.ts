import { notFound } from '../errors.js'
import type { RequestContext } from '../http/context.js'
import { defineRoute, presentPage } from '../http/route.js'
import { listTransactions, presentTransaction } from '../ledger/postings.js'
import { presentPayment, presentWallet } from '../ledger/present.js'
import { IdParams } from '../schemas/common.js'
import { ListPaymentsQuery, PaymentSchema } from '../schemas/payment.js'
import { LedgerTransactionSchema, ListPostingsQuery } from '../schemas/postings.js'
import { ListWalletsQuery, WalletSchema } from '../schemas/wallet.js'
import type { AccountState } from '../store/records.js'

const tag = 'Sandbox control'
const auth = 'control' as const

function accountOf(ctx: RequestContext, id: string): AccountState {
  const account = ctx.deps.store.accounts.get(id)
  if (!account) throw notFound('account', id)
  return account
}

/**
 * An account's wallets and payments read through the control API, with the same filters, order and
 * objects as the `/v1` lists. The dashboard reads with these: unlike `/v1`, they take no API key, so
 * they never count toward a key's rate limit nor meet `--latency` / `--error-rate` (CONTRACT.md section 7).
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
  defineRoute({
    method: 'get', path: '/_sandbox/accounts/{id}/postings', operationId: 'sandboxListAccountPostings', summary: 'An account’s ledger transactions (every movement of money, with its postings), newest first', tag, auth,
    request: { params: IdParams, query: ListPostingsQuery },
    status: 200, response: LedgerTransactionSchema, list: true, errors: ['resource_missing'],
    handler: ({ params, query: { limit, offset, wallet_id } }, ctx) => {
      const account = accountOf(ctx, params.id)
      // A wallet of another account (or none) is a mistake worth naming, not an empty page.
      if (wallet_id !== undefined && !account.wallets.has(wallet_id)) throw notFound('wallet', wallet_id, 'wallet_id')
      return presentPage(listTransactions(account, wallet_id, offset, limit), (tx) => presentTransaction(account, tx))
    },
  }),
]
