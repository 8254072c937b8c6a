import type { Clock } from '../clock.js'
import { ApiError, notFound } from '../errors.js'
import type { TradingPair, TradingPairs } from '../market/pairs.js'
import type { QuoteRecord, WalletRecord } from '../model/records.js'
import type { CreateOrder } from '../schemas/order.js'
import type { AccountState } from '../store/account-state.js'
import { scalePrice } from './order-math.js'
import { decimalsOf } from './present.js'
import type { QuoteService } from './quotes.js'
import { parseAmountFor } from './wallets.js'

export interface CheckedOrder {
  pair: TradingPair
  base: WalletRecord
  quote: WalletRecord
  /** The order's amount in the base wallet's units. */
  amountUnits: bigint
  /** The quote of `quote_id` (checked usable; the caller marks it used in the same change). */
  priceQuote: QuoteRecord | undefined
}

/** Every check of CONTRACT.md sections 15 and 19, in order, without changing anything. */
export function checkOrder(account: AccountState, input: CreateOrder, deps: { clock: Clock; pairs: TradingPairs; quotes: QuoteService }): CheckedOrder {
  const { clock, pairs, quotes } = deps
  const pair = pairs.get(input.pair)
  if (!pair) throw new ApiError('parameter_invalid', `pair ${input.pair} is not traded; the pairs are ${pairs.all.map((p) => p.pair).join(', ')} (GET /v1/pairs).`, { param: 'pair' })
  const base = wallet(account, input.base_wallet, 'base_wallet', pair.base, pair.pair)
  const quote = wallet(account, input.quote_wallet, 'quote_wallet', pair.quote, pair.pair)
  const priceQuote = input.quote_id === undefined ? undefined : quoteFor(account, input, pair, quotes)
  const amount = priceQuote ? (input.side === 'buy' ? priceQuote.destination_amount : priceQuote.source_amount) : input.amount!
  const amountUnits = parseAmountFor(amount, decimalsOf(base), `${base.currency} on ${base.network} (the base wallet)`)
  if (scalePrice(amount) < scalePrice(pair.min_amount)) {
    throw new ApiError('parameter_invalid', `amount ${amount} is below the minimum of ${pair.pair}, ${pair.min_amount} ${pair.base}.`, { param: 'amount' })
  }
  if (input.expires_at !== undefined && Date.parse(input.expires_at) <= clock.now(account.account.id)) {
    throw new ApiError('parameter_invalid', `expires_at must be in the future; the account's clock is at ${clock.nowIso(account.account.id)}.`, { param: 'expires_at' })
  }
  for (const [param, found] of [['base_wallet', base], ['quote_wallet', quote]] as const) {
    if (found.status !== 'active') throw new ApiError('wallet_inactive', `The ${param.replace('_', ' ')} ${found.id} is ${found.status} and cannot trade.`, { param })
  }
  // Expired or used: among the business rules, after the quote was found with the resources.
  if (priceQuote) quotes.checkUsable(account, priceQuote.id)
  return { pair, base, quote, amountUnits, priceQuote }
}

function wallet(account: AccountState, id: string, param: 'base_wallet' | 'quote_wallet', currency: string, pair: string): WalletRecord {
  const found = account.wallets.get(id)
  if (!found) throw notFound('wallet', id, param)
  if (found.currency !== currency) {
    throw new ApiError('parameter_invalid', `${param} ${found.id} holds ${found.currency}; ${pair} needs a ${currency} wallet (any network).`, { param })
  }
  return found
}

/** The quote of `quote_id`: of this account (404), for the order's pair and side, and of its amount (400). */
function quoteFor(account: AccountState, input: CreateOrder, pair: TradingPair, quotes: QuoteService): QuoteRecord {
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
