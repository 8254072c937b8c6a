import type { Clock } from './clock.js'
import { lazily } from './lazily.js'
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
  // A payout follows its items: every status change of a payment of a payout is reported to it
  // (`follow` does nothing for a payment of none, so such a payment makes no payouts' service).
  const payments = createPaymentService({
    ...deps,
    whitelistEnforced: deps.config.whitelistEnforced,
    onTransition: (account, payment) => {
      if (payment.payout_id !== null) payouts().follow(account, payment)
    },
  })
  // Payouts, quotes, settlements and orders are made on their first use: neither a health answer nor
  // a payment needs them, and none of them reads the clock or a generator as it is made (issue 33,
  // round 10: start-services).
  const payouts = lazily(() => createPayoutService({ ...deps, payments }))
  /** Filled in by the wiring once the step timers exist (they need the service first). */
  const hooks: { settlementMoved?: (account: AccountState, settlement: SettlementRecord) => void } = {}
  const quotes = lazily(() => createQuoteService({ ...deps, quoteTtlMs: deps.config.quoteTtl }))
  const settlements = lazily(() =>
    createSettlementService({
      ...deps,
      quotes: quotes(),
      whitelistEnforced: deps.config.whitelistEnforced,
      decide: deps.decideSettlement,
      onTransition: (account, settlement) => hooks.settlementMoved?.(account, settlement),
    }),
  )
  const orders = lazily(() => createOrderService({ ...deps, quotes: quotes(), feeBps: deps.config.tradingFeeBps }))
  return {
    hooks,
    get settlements() {
      return settlements()
    },
    wallets: createWalletService(deps),
    payments,
    get payouts() {
      return payouts()
    },
    get orders() {
      return orders()
    },
    whitelist: createWhitelistService(deps),
    webhookEndpoints: createWebhookEndpointService(deps),
    get quotes() {
      return quotes()
    },
  }
}

export type Services = ReturnType<typeof createServices>
