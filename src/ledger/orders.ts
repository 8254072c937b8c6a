import type { Clock } from '../clock.js'
import { ApiError, notFound } from '../errors.js'
import type { Publisher } from '../events/publisher.js'
import { newId } from '../ids.js'
import type { OrderEventType } from '../model/events.js'
import type { TradingPair, TradingPairs } from '../market/pairs.js'
import type { PriceModel } from '../market/prices.js'
import type { OrderRecord, OrderStatus, QuoteRecord, WalletRecord } from '../model/records.js'
import { formatAmount } from '../money.js'
import type { CreateOrder } from '../schemas/order.js'
import type { AccountState } from '../store/account-state.js'
import { put, type Change } from '../store/changes.js'
import type { OrderFilter } from '../store/order-index.js'
import type { Store } from '../store/store.js'
import { fill, lock, release } from './balances.js'
import { crosses, planFill } from './order-fills.js'
import { buyCost, normalisePrice, scalePrice, valueOf } from './order-math.js'
import { decimalsOf, presentBalance } from './present.js'
import { presentOrder } from './present-order.js'
import type { QuoteService } from './quotes.js'
import { parseAmountFor } from './wallets.js'

export type OrderService = ReturnType<typeof createOrderService>

const FINAL: ReadonlySet<OrderStatus> = new Set(['filled', 'cancelled', 'expired', 'rejected'])
export const isFinalOrder = (order: OrderRecord) => FINAL.has(order.status)

const DEFAULT_REJECT_REASON = 'Rejected by the sandbox (metadata sandbox_outcome "rejected").'

/**
 * Orders: their checks, the lock of what they may spend, fills with postings through the trading
 * desk, and the end states (CONTRACT.md sections 15 and 19). Every change of an order is one change
 * set (the order, its wallets, their postings and the account's order event counter), followed by
 * its event.
 */
export function createOrderService(deps: { store: Store; clock: Clock; publisher: Publisher; prices: PriceModel; pairs: TradingPairs; quotes: QuoteService; feeBps: number }) {
  const { store, clock, publisher, prices, pairs, quotes } = deps

  function get(account: AccountState, id: string): OrderRecord {
    const order = account.orders.get(id)
    if (!order) throw notFound('order', id)
    return order
  }

  function wallet(account: AccountState, id: string, param: 'base_wallet' | 'quote_wallet', currency: string, pair: string): WalletRecord {
    const found = account.wallets.get(id)
    if (!found) throw notFound('wallet', id, param)
    if (found.currency !== currency) {
      throw new ApiError('parameter_invalid', `${param} ${found.id} holds ${found.currency}; ${pair} needs a ${currency} wallet (any network).`, { param })
    }
    return found
  }

  /** Every check of CONTRACT.md sections 15 and 19, in order, without changing anything. */
  function check(account: AccountState, input: CreateOrder) {
    const pair = pairs.get(input.pair)
    if (!pair) throw new ApiError('parameter_invalid', `pair ${input.pair} is not traded; the pairs are ${pairs.all.map((p) => p.pair).join(', ')} (GET /v1/pairs).`, { param: 'pair' })
    const base = wallet(account, input.base_wallet, 'base_wallet', pair.base, pair.pair)
    const quote = wallet(account, input.quote_wallet, 'quote_wallet', pair.quote, pair.pair)
    const priceQuote = input.quote_id === undefined ? undefined : quoteFor(account, input, pair)
    const amount = priceQuote ? (input.side === 'buy' ? priceQuote.destination_amount : priceQuote.source_amount) : input.amount!
    const amountUnits = parseAmountFor(amount, decimalsOf(base), `${base.currency} on ${base.network} (the base wallet)`)
    if (scalePrice(amount) < scalePrice(pair.min_amount)) {
      throw new ApiError('parameter_invalid', `amount ${amount} is below the minimum of ${pair.pair}, ${pair.min_amount} ${pair.base}.`, { param: 'amount' })
    }
    if (input.expires_at !== undefined && Date.parse(input.expires_at) <= clock.now()) {
      throw new ApiError('parameter_invalid', `expires_at must be in the future; the sandbox clock is at ${clock.nowIso()}.`, { param: 'expires_at' })
    }
    for (const [param, found] of [['base_wallet', base], ['quote_wallet', quote]] as const) {
      if (found.status !== 'active') throw new ApiError('wallet_inactive', `The ${param.replace('_', ' ')} ${found.id} is ${found.status} and cannot trade.`, { param })
    }
    // Expired or used: among the business rules, after the quote was found with the resources.
    if (priceQuote) quotes.checkUsable(account, priceQuote.id)
    return { pair, base, quote, amountUnits, priceQuote }
  }

  /** The quote of `quote_id`: of this account (404), for the order's pair and side, and of its amount (400). */
  function quoteFor(account: AccountState, input: CreateOrder, pair: TradingPair): QuoteRecord {
    const found = quotes.get(account, input.quote_id!, 'quote_id')
    if (found.pair !== pair.pair) {
      throw new ApiError('parameter_invalid', `Quote ${found.id} converts ${found.source_currency} to ${found.destination_currency} on ${found.pair}; this order is on ${pair.pair}.`, { param: 'quote_id' })
    }
    if (found.side !== input.side) {
      throw new ApiError('parameter_invalid', `Quote ${found.id} is a ${found.side} of ${pair.base}; the order's side must be ${found.side}.`, { param: 'side' })
    }
    const quoted = found.side === 'buy' ? found.destination_amount : found.source_amount
    if (input.amount !== undefined && scalePrice(input.amount) !== scalePrice(quoted)) {
      throw new ApiError('parameter_invalid', `amount must be the quote's ${quoted} ${pair.base}, or left out.`, { param: 'amount' })
    }
    return found
  }

  /** The quote units a buy locks (amount × limit or × the ask now, plus the most the fee can be), or the base units a sell locks. */
  function lockFor(scale: Pick<OrderRecord, 'base_decimals' | 'quote_decimals' | 'fee_bps'>, side: 'buy' | 'sell', amount: bigint, price: string): bigint {
    return side === 'sell' ? amount : buyCost(scale, valueOf(scale, amount, price))
  }

  /** One change set for the order's new state, then its event and the notifications of the wallets whose balances moved. */
  function commit(account: AccountState, order: OrderRecord, type: OrderEventType, wallets: WalletRecord[], changes: Change[]): void {
    const id = account.account.id
    const sequence = (account.account.order_events ?? 0) + 1
    store.apply([
      ...wallets.map((w) => put('wallet', id, w.id, w)),
      ...changes,
      put('order', id, order.id, order),
      put('account', id, id, { ...account.account, order_events: sequence }),
    ])
    const stored = account.orders.get(order.id)!
    for (const moved of wallets) {
      const record = account.wallets.get(moved.id)!
      publisher.wallet(account, moved.id, 'balance.updated', () => presentBalance(record))
    }
    publisher.order(account, type, presentOrder(stored), sequence)
  }

  const copyOf = (account: AccountState, id: string): WalletRecord => ({ ...account.wallets.get(id)!, updated_at: clock.nowIso() })

  /** Ends an open order: what it still holds goes back to available. */
  function end(account: AccountState, order: OrderRecord, status: 'cancelled' | 'expired' | 'rejected', reason: string | null = null): OrderRecord {
    const now = clock.nowIso()
    const next: OrderRecord = { ...order, status, locked_units: 0n, updated_at: now, reject_reason: status === 'rejected' ? reason : order.reject_reason }
    const changes: Change[] = []
    const wallets: WalletRecord[] = []
    if (order.locked_units > 0n) {
      const payer = copyOf(account, order.side === 'buy' ? order.quote_wallet : order.base_wallet)
      release(account, payer, order.locked_units, { cause: 'order.released', ref: order.id, at: clock.now() }, changes)
      wallets.push(payer)
    }
    commit(account, next, `order.${status}`, wallets, changes)
    return account.orders.get(order.id)!
  }

  function assertOpen(order: OrderRecord, action: string): void {
    if (isFinalOrder(order)) throw new ApiError('invalid_state_transition', `Order ${order.id} is ${order.status}, which is final; it cannot ${action}.`)
  }

  const service = {
    get,
    check,

    list: (account: AccountState, filter: OrderFilter, offset: number, limit: number) => account.orders.list(filter, offset, limit),

    /**
     * Creates the order with its lock (`order.created`, as created), then fills what it can at this
     * instant: a market order completely, a limit order up to one tick's liquidity when the price
     * reaches its limit; `ioc` cancels the rest. Answers the order after all that.
     */
    create(account: AccountState, input: CreateOrder): OrderRecord {
      const { pair, base, quote: quoteWallet, amountUnits, priceQuote: quote } = check(account, input)
      const now = clock.now()
      const { bid, ask } = prices.quote(pair.pair, now)
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
      const iso = clock.nowIso()
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

      if (input.metadata.sandbox_outcome === 'rejected') return end(account, current, 'rejected', input.metadata.sandbox_reject_reason ?? DEFAULT_REJECT_REASON)
      if (type === 'market') return service.fill(account, current, current.amount_units, marketPrice)
      current = service.match(account, current, now)
      if (current.time_in_force === 'ioc' && !isFinalOrder(current)) current = end(account, current, 'cancelled')
      return current
    },

    /**
     * Fills `amount` base units at `price` now: one transaction through the trading desk, another
     * releasing what a better price left locked. Callers check the amount and the price.
     */
    fill(account: AccountState, order: OrderRecord, amount: bigint, price: string): OrderRecord {
      const plan = planFill(order, price, amount)
      const now = clock.nowIso()
      const payer = copyOf(account, order.side === 'buy' ? order.quote_wallet : order.base_wallet)
      const receiver = copyOf(account, order.side === 'buy' ? order.base_wallet : order.quote_wallet)
      const changes: Change[] = []
      const reason = { ref: order.id, at: clock.now() }
      fill(account, { cause: 'order.filled', ...reason }, { payer, paid: plan.paid, receiver, received: plan.received, fee: plan.fee, side: order.side }, changes)
      if (plan.release > 0n) release(account, payer, plan.release, { cause: 'order.released', ...reason }, changes)
      const next: OrderRecord = {
        ...order,
        ...plan.next,
        fills: [...order.fills, { price, amount, fee: plan.fee, timestamp: now }],
        updated_at: now,
        completed_at: plan.next.status === 'filled' ? now : null,
      }
      commit(account, next, plan.next.status === 'filled' ? 'order.filled' : 'order.partially_filled', [payer, receiver], changes)
      return account.orders.get(order.id)!
    },

    /**
     * A limit order against the price at `atMs` (a tick, or its creation): fills up to the pair's
     * liquidity per tick when the ask (buy) or bid (sell) reaches its limit.
     */
    match(account: AccountState, order: OrderRecord, atMs: number): OrderRecord {
      const { bid, ask } = prices.quote(order.pair, atMs)
      if (!crosses(order, bid, ask)) return order
      const liquidity = liquidityOf(pairs.get(order.pair)!, order.base_decimals)
      const remaining = order.amount_units - order.filled_units
      return service.fill(account, order, remaining < liquidity ? remaining : liquidity, order.side === 'buy' ? ask : bid)
    },

    /** `POST /_sandbox/orders/{id}/fill`: now, whatever the price, up to the remainder. */
    forceFill(account: AccountState, order: OrderRecord, amount: string | undefined, price: string | undefined): OrderRecord {
      assertOpen(order, 'be filled')
      const remaining = order.amount_units - order.filled_units
      const units = amount === undefined ? remaining : parseAmountFor(amount, order.base_decimals, `${order.base} (the base wallet)`)
      if (units > remaining) {
        throw new ApiError('parameter_invalid', `amount ${amount} is more than the order's remaining ${formatAmount(remaining, order.base_decimals)} ${order.base}.`, { param: 'amount' })
      }
      const now = prices.quote(order.pair, clock.now())
      const at = price === undefined ? (order.side === 'buy' ? now.ask : now.bid) : normalisePrice(price)
      if (order.side === 'buy' && order.limit_price !== null && scalePrice(at) > scalePrice(order.limit_price)) {
        throw new ApiError('parameter_invalid', `price ${at} is above the buy order's limit_price ${order.limit_price}; a fill never costs more than the limit.`, { param: 'price' })
      }
      if (order.side === 'sell' && order.limit_price !== null && scalePrice(at) < scalePrice(order.limit_price)) {
        throw new ApiError('parameter_invalid', `price ${at} is below the sell order's limit_price ${order.limit_price}; a fill never pays less than the limit.`, { param: 'price' })
      }
      return service.fill(account, order, units, at)
    },

    cancel(account: AccountState, order: OrderRecord): OrderRecord {
      assertOpen(order, 'be cancelled')
      return end(account, order, 'cancelled')
    },

    expire(account: AccountState, order: OrderRecord): OrderRecord {
      return end(account, order, 'expired')
    },

    /** Control `reject`: only an order without fills (CONTRACT.md section 19). */
    reject(account: AccountState, order: OrderRecord, reason: string | undefined): OrderRecord {
      assertOpen(order, 'be rejected')
      if (order.fills.length > 0) throw new ApiError('invalid_state_transition', `Order ${order.id} has fills already; only an order without fills can be rejected. Cancel it instead.`)
      return end(account, order, 'rejected', reason ?? 'Rejected by the sandbox (control call).')
    },
  }
  return service
}

/** The pair's liquidity per tick in the base wallet's units (extra decimals dropped, never below one unit). */
function liquidityOf(pair: TradingPair, decimals: number): bigint {
  const [whole = '0', fraction = ''] = pair.liquidity_per_tick.split('.')
  const units = BigInt(whole + fraction.slice(0, decimals).padEnd(decimals, '0'))
  return units > 0n ? units : 1n
}
