import type { Clock } from './clock.js'
import type { Config } from './config.js'
import type { Publisher } from './events/publisher.js'
import { createOrderService } from './ledger/orders.js'
import { createPaymentService } from './ledger/payments.js'
import { createPayoutService } from './ledger/payouts.js'
import { createQuoteService } from './ledger/quotes.js'
import type { TradingPairs } from './market/pairs.js'
import type { PriceModel } from './market/prices.js'
import { createWalletService } from './ledger/wallets.js'
import { createWebhookEndpointService } from './ledger/webhook-endpoints.js'
import { createWhitelistService } from './ledger/whitelist.js'
import { createSettlementService } from './ledger/settlements.js'
import type { SettlementOutcome, SettlementRecord } from './model/records.js'
import type { AccountState } from './store/account-state.js'
import type { Store } from './store/store.js'

/** The ledger's services, as the routes call them. */
export function createServices(deps: {
  config: Config
  store: Store
  clock: Clock
  publisher: Publisher
  prices: PriceModel
  pairs: TradingPairs
  decideSettlement?: (account: AccountState, settlement: SettlementRecord) => SettlementOutcome
}) {
  // A payout follows its items: every status change of a payment is reported to it.
  const payments = createPaymentService({ ...deps, whitelistEnforced: deps.config.whitelistEnforced, onTransition: (account, payment) => payouts.follow(account, payment) })
  const payouts = createPayoutService({ ...deps, payments })
  /** Filled in by the wiring once the step timers exist (they need the service first). */
  const hooks: { settlementMoved?: (account: AccountState, settlement: SettlementRecord) => void } = {}
  const quotes = createQuoteService({ ...deps, quoteTtlMs: deps.config.quoteTtl })
  const settlements = createSettlementService({
    ...deps,
    quotes,
    whitelistEnforced: deps.config.whitelistEnforced,
    decide: deps.decideSettlement,
    onTransition: (account, settlement) => hooks.settlementMoved?.(account, settlement),
  })
  return {
    hooks,
    settlements,
    wallets: createWalletService(deps),
    payments,
    payouts,
    orders: createOrderService({ ...deps, quotes, feeBps: deps.config.tradingFeeBps }),
    whitelist: createWhitelistService(deps),
    webhookEndpoints: createWebhookEndpointService(deps),
    quotes,
  }
}

export type Services = ReturnType<typeof createServices>
