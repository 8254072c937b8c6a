import type { Clock } from '../clock.js'
import { ApiError, notFound } from '../errors.js'
import type { Publisher } from '../events/publisher.js'
import { newId } from '../ids.js'
import type { TradingPairs } from '../market/pairs.js'
import type { PriceModel } from '../market/prices.js'
import type { OrderRecord } from '../model/records.js'
import { formatAmount } from '../money.js'
import type { CreateOrder } from '../schemas/order.js'
import type { AccountState } from '../store/account-state.js'
import type { Change } from '../store/changes.js'
import type { OrderFilter } from '../store/order-index.js'
import type { Store } from '../store/store.js'
import { lock } from './balances.js'
import { checkOrder } from './order-checks.js'
import { createOrderCommit } from './order-commit.js'
import { createOrderEndings, isFinalOrder } from './order-endings.js'
import { createOrderFillEngine } from './order-fill-engine.js'
import { buyCost, normalisePrice, valueOf } from './order-math.js'
import { decimalsOf } from './present.js'
import type { QuoteService } from './quotes.js'

export type OrderService = ReturnType<typeof createOrderService>

/**
 * A `pair` filter no order can match (a currency without a price, or one currency twice) is a
 * mistake in the request, like an unknown `status`: 400, not an empty list that hides it.
 */
function checkPairFilter(pair: string, priced: readonly string[]): void {
  const [base, quote] = pair.split('/') as [string, string]
  const unpriced = [base, quote].filter((code) => !priced.includes(code))
  if (unpriced.length > 0) {
    throw new ApiError('parameter_invalid', `pair ${pair} can match no order: the sandbox prices no ${unpriced.join(' or ')}; the currencies are ${priced.join(', ')} (GET /v1/pairs lists the trading pairs).`, { param: 'pair' })
  }
  if (base === quote) throw new ApiError('parameter_invalid', `pair ${pair} can match no order: its two currencies are the same.`, { param: 'pair' })
}

const DEFAULT_REJECT_REASON = 'Rejected by the sandbox (metadata sandbox_outcome "rejected").'

/**
 * Orders: their checks (`order-checks.ts`), the lock of what they may spend, fills with postings
 * through the trading desk (`order-fill-engine.ts`), and the end states (`order-endings.ts`)
 * (CONTRACT.md sections 15 and 19). Every change of an order is one change set (the order, its
 * wallets, their postings and the account's order event counter), followed by its event
 * (`order-commit.ts`).
 */
export function createOrderService(deps: { store: Store; clock: Clock; publisher: Publisher; prices: PriceModel; pairs: TradingPairs; quotes: QuoteService; feeBps: number }) {
  const { clock, prices, quotes } = deps
  const orderCommit = createOrderCommit(deps)
  const { commit, copyOf } = orderCommit
  const endings = createOrderEndings({ clock, orderCommit })
  const engine = createOrderFillEngine({ ...deps, orderCommit })

  function get(account: AccountState, id: string): OrderRecord {
    const order = account.orders.get(id)
    if (!order) throw notFound('order', id)
    return order
  }

  const check = (account: AccountState, input: CreateOrder) => checkOrder(account, input, deps)

  /** The quote units a buy locks (amount × limit or × the ask now, plus the most the fee can be), or the base units a sell locks. */
  function lockFor(scale: Pick<OrderRecord, 'base_decimals' | 'quote_decimals' | 'fee_bps'>, side: 'buy' | 'sell', amount: bigint, price: string): bigint {
    return side === 'sell' ? amount : buyCost(scale, valueOf(scale, amount, price))
  }

  return {
    get,
    check,

    list(account: AccountState, filter: OrderFilter, offset: number, limit: number) {
      if (filter.pair !== undefined) checkPairFilter(filter.pair, prices.currencies)
      return account.orders.list(filter, offset, limit)
    },

    /**
     * Creates the order with its lock (`order.created`, as created), then fills what it can at this
     * instant: a market order completely, a limit order up to one tick's liquidity when the price
     * reaches its limit; `ioc` cancels the rest. Answers the order after all that.
     */
    create(account: AccountState, input: CreateOrder): OrderRecord {
      const { pair, base, quote: quoteWallet, amountUnits, priceQuote: quote } = check(account, input)
      const now = clock.now(account.account.id)
      const { bid, ask } = prices.quote(pair.pair, now, account.account.id)
      const type = quote ? 'market' : input.type!
      const marketPrice = quote?.price ?? (input.side === 'buy' ? ask : bid)
      const scale = { base_decimals: decimalsOf(base), quote_decimals: decimalsOf(quoteWallet), fee_bps: deps.feeBps }
      const limit = input.limit_price === undefined ? null : normalisePrice(input.limit_price)
      const payerRecord = input.side === 'buy' ? quoteWallet : base
      const locked = lockFor(scale, input.side, amountUnits, limit ?? marketPrice)
      if (payerRecord.available < locked) {
        const decimals = decimalsOf(payerRecord)
        const what = input.side === 'buy' ? `${formatAmount(locked, decimals)} ${payerRecord.currency} (amount × ${limit === null ? 'the ask' : 'limit_price'} plus the ${deps.feeBps / 100} % fee)` : `${formatAmount(locked, decimals)} ${payerRecord.currency}`
        throw new ApiError('insufficient_funds', `Wallet ${payerRecord.id} has ${formatAmount(payerRecord.available, decimals)} ${payerRecord.currency} available; this order needs ${what}.`, { param: input.side === 'buy' ? 'quote_wallet' : 'base_wallet' })
      }
      const iso = clock.nowIso(account.account.id)
      const order: OrderRecord = {
        id: newId('ord', account.rng),
        seq: account.orders.nextSeq(),
        pair: pair.pair,
        base: pair.base,
        quote: pair.quote,
        side: input.side,
        type,
        status: 'open',
        time_in_force: input.time_in_force,
        amount_units: amountUnits,
        filled_units: 0n,
        limit_price: limit,
        expires_at: input.expires_at === undefined ? null : new Date(input.expires_at).toISOString(),
        base_wallet: base.id,
        quote_wallet: quoteWallet.id,
        ...scale,
        quote_id: quote?.id ?? null,
        quote_num: 0n,
        quote_units: 0n,
        fee_units: 0n,
        locked_units: locked,
        fills: [],
        reject_reason: null,
        metadata: input.metadata,
        created_at: iso,
        updated_at: iso,
        completed_at: null,
      }
      const payer = copyOf(account, payerRecord.id)
      const changes: Change[] = []
      lock(account, payer, locked, { cause: 'order.locked', ref: order.id, at: now }, changes)
      if (quote) quotes.markUsed(account, quote, order.id, changes)
      commit(account, order, 'order.created', [payer], changes)
      let current = account.orders.get(order.id)!

      if (input.metadata.sandbox_outcome === 'rejected') return endings.end(account, current, 'rejected', input.metadata.sandbox_reject_reason ?? DEFAULT_REJECT_REASON)
      if (type === 'market') return engine.fill(account, current, current.amount_units, marketPrice)
      current = engine.match(account, current, now)
      if (current.time_in_force === 'ioc' && !isFinalOrder(current)) current = endings.end(account, current, 'cancelled')
      return current
    },

    fill: engine.fill,
    match: engine.match,
    forceFill: engine.forceFill,
    cancel: endings.cancel,
    expire: endings.expire,
    reject: endings.reject,
  }
}
