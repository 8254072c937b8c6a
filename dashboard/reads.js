// Where each list of the page reads one page of its rows, all through the control API. The lists
// of an account take its id; outcome rules and faults belong to the whole sandbox.

import { controlPage, controlSlice, RequestError } from './api.js'
import { requestsQuery } from './views-requests.js'

/** Wallets with their balance objects (`available_balance`, `locked_balance`, `total_balance`). */
async function readWallets(account, page) {
  const [wallets, balances] = await Promise.all([controlPage(`/accounts/${account}/wallets`, page), controlPage(`/accounts/${account}/balances`, page)])
  const byWallet = new Map(balances.items.map((balance) => [balance.wallet_id, balance]))
  // Both reads run in the same instant; a wallet created between them shows its total only.
  return { items: wallets.items.map((wallet) => ({ wallet, balance: byWallet.get(wallet.id) })), total: wallets.total }
}

/** `READS[list](accountId, { limit, offset })` → `{ items, total }`; the account id comes URI-encoded. */
export const READS = {
  wallets: readWallets,
  payments: (account, page) => controlPage(`/accounts/${account}/payments`, page),
  payouts: (account, page) => controlPage(`/accounts/${account}/payouts`, page),
  orders: (account, page) => controlPage(`/accounts/${account}/orders`, page),
  settlements: (account, page) => controlPage(`/accounts/${account}/settlements`, page),
  endpoints: (account, page) => controlPage(`/accounts/${account}/webhooks`, page),
  deliveries: (account, page) => controlPage(`/webhooks/deliveries?account_id=${account}`, page),
  whitelist: (account, page) => controlPage(`/accounts/${account}/whitelisted_addresses`, page),
  outcomes: (_account, page) => controlSlice('/outcomes', page),
  faults: (_account, page) => controlSlice('/faults', page),
  requests: readRequests,
}

/** The journal with the view's filters; a filter the route refuses (400), or a journal that keeps nothing (409), is shown in the view. */
async function readRequests(account, page) {
  try {
    return await controlPage(`/requests?${requestsQuery(account)}`, page)
  } catch (error) {
    if (error instanceof RequestError && (error.status === 400 || error.status === 409)) return { items: [], total: 0, error: { code: error.code, message: error.message } }
    throw error
  }
}
