import { idParams } from './common.js'

/**
 * Examples of the path ids, so that request generators (Prism, Portman) build calls that work
 * against a fresh `npx wallet-sandbox` (default seed, default account `sk_test_sandbox_default_key`).
 * Wallets and the account are seeded, so their ids exist from the start. Nothing else is seeded:
 * those examples are the id the default account's first resource of that kind gets when it is the
 * first thing the account creates (ids come from the account's seeded generator); the delivery is
 * the default account's first one; rules and faults are the first the sandbox creates. test/http/openapi-examples.test.ts checks every one.
 */
export const EXAMPLE_IDS = {
  account: 'acct_sandboxDefaultAccount000',
  /** "Treasury USDC on Polygon", the default account's funded institutional USDC wallet on polygon. */
  wallet: 'wal_RJ404a9s9n2lY76hzhRKhSUF',
  /** "Mrs. Gwen Orn (XLM)", a seeded user wallet that holds nothing: the one the example of closing a wallet closes. */
  emptyWallet: 'wal_7hfJNy3btshoKgcC5dVuw4QX',
  /** "Treasury ETH on Ethereum", the default account's funded ETH wallet: the base wallet of the order example. */
  ethWallet: 'wal_cvvLCxmIWKvOvzOAteU2eMsY',
  payment: 'pay_M8tMrDBQ5xalOhAtDtasxSWX',
  payout: 'po_M8tMrDBQ5xalOhAtDtasxSWX',
  order: 'ord_M8tMrDBQ5xalOhAtDtasxSWX',
  settlement: 'stl_M8tMrDBQ5xalOhAtDtasxSWX',
  whitelistedAddress: 'wla_M8tMrDBQ5xalOhAtDtasxSWX',
  webhookEndpoint: 'whk_M8tMrDBQ5xalOhAtDtasxSWX',
  delivery: 'dlv_4FKHdGC9f70TkxHB4ckM8hJn',
  outcomeRule: 'rule_6XeguecYcfSqTnXtPGsi56Sh',
  fault: 'flt_8V5RKLI66tXbq59FwiYij7Yp',
  quote: 'quo_M8tMrDBQ5xalOhAtDtasxSWX',
} as const

export const AccountIdParams = idParams(EXAMPLE_IDS.account)
export const WalletIdParams = idParams(EXAMPLE_IDS.wallet)
/** Closing needs a wallet without funds: the funded treasury would answer 409 wallet_not_empty. */
export const ClosableWalletIdParams = idParams(EXAMPLE_IDS.emptyWallet)
export const PaymentIdParams = idParams(EXAMPLE_IDS.payment)
export const PayoutIdParams = idParams(EXAMPLE_IDS.payout)
export const OrderIdParams = idParams(EXAMPLE_IDS.order)
export const SettlementIdParams = idParams(EXAMPLE_IDS.settlement)
export const WhitelistedAddressIdParams = idParams(EXAMPLE_IDS.whitelistedAddress)
export const WebhookEndpointIdParams = idParams(EXAMPLE_IDS.webhookEndpoint)
export const DeliveryIdParams = idParams(EXAMPLE_IDS.delivery)
export const OutcomeRuleIdParams = idParams(EXAMPLE_IDS.outcomeRule)
export const FaultIdParams = idParams(EXAMPLE_IDS.fault)
export const QuoteIdParams = idParams(EXAMPLE_IDS.quote)
