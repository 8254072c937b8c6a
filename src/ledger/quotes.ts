import type { Clock } from '../clock.js'
import { ApiError, notFound } from '../errors.js'
import { newId } from '../ids.js'
import { destinationUnitsFor, feeUnits, sidedPrice, sourceUnitsFor } from '../market/conversion.js'
import type { PriceModel } from '../market/prices.js'
import { currencyDecimals } from '../model/currencies.js'
import type { QuoteRecord, QuoteStatus } from '../model/records.js'
import { formatAmount, toBaseUnits } from '../money.js'
import type { AccountState } from '../store/account-state.js'
import { put, type Change } from '../store/changes.js'
import type { Store } from '../store/store.js'
import { parseAmountFor } from './wallets.js'
import { isoOf } from '../date-text.js'

/**
 * Quotes (CONTRACT.md section 15): a rate held for `--quote-ttl` of sandbox time, used at most once
 * by an order or a settlement. The rate is the feed's bid or ask on the customer's side and carries
 * no markup; the sandbox's charge is `fee`, QUOTE_FEE_BPS of the source amount, in the source
 * currency, on top of `source_amount`.
 */

/** The conversion fee: 0.10 % of the source amount, rounded up to the source currency's decimals. */
export const QUOTE_FEE_BPS = 10

/** Exactly one of the two amounts; the schema (src/schemas/quote.ts) makes sure of it. */
export interface CreateQuoteInput {
  source_currency: string
  destination_currency: string
  source_amount?: string | undefined
  destination_amount?: string | undefined
}

export type QuoteService = ReturnType<typeof createQuoteService>

export function createQuoteService(deps: { store: Store; clock: Clock; prices: PriceModel; quoteTtlMs: number }) {
  const { store, clock, prices } = deps

  function decimalsOf(code: string, param: string): number {
    const decimals = currencyDecimals(code)
    if (decimals === undefined || !prices.currencies.includes(code)) {
      throw new ApiError('parameter_invalid', `${param} ${code} is not priced by this sandbox; priced currencies: ${prices.currencies.join(', ')}.`, { param })
    }
    return decimals
  }

  const service = {
    /** `active` until `expires_at` (exclusive) on the account's clock, `used` once used, whatever the time. */
    status(account: AccountState, quote: QuoteRecord): QuoteStatus {
      if (quote.used_at !== null) return 'used'
      return clock.now(account.account.id) >= Date.parse(quote.expires_at) ? 'expired' : 'active'
    },

    get(account: AccountState, id: string, param?: string): QuoteRecord {
      const quote = account.quotes.get(id)
      if (!quote) throw notFound('quote', id, param)
      return quote
    },

    create(account: AccountState, input: CreateQuoteInput): QuoteRecord {
      const source = input.source_currency
      const destination = input.destination_currency
      const sourceDecimals = decimalsOf(source, 'source_currency')
      const destinationDecimals = decimalsOf(destination, 'destination_currency')
      const now = clock.now(account.account.id)
      const priced = sidedPrice(prices, source, destination, now, account.account.id)
      let sourceUnits: bigint
      let destinationUnits: bigint
      if (input.source_amount !== undefined) {
        sourceUnits = parseAmountFor(input.source_amount, sourceDecimals, source, 'source_amount')
        destinationUnits = destinationUnitsFor(priced, sourceUnits, sourceDecimals, destinationDecimals)
        if (destinationUnits === 0n) {
          const smallest = sourceUnitsFor(priced, 1n, destinationDecimals, sourceDecimals)
          throw new ApiError(
            'parameter_invalid',
            `source_amount ${input.source_amount} ${source} converts to less than the smallest ${destination} amount at ${priced.side === 'sell' ? 'the bid' : 'the ask'} ${priced.price} of ${priced.pair}; quote at least ${formatAmount(smallest, sourceDecimals)} ${source}.`,
            { param: 'source_amount' },
          )
        }
      } else {
        destinationUnits = parseAmountFor(input.destination_amount!, destinationDecimals, destination, 'destination_amount')
        sourceUnits = sourceUnitsFor(priced, destinationUnits, destinationDecimals, sourceDecimals)
      }
      const record: QuoteRecord = {
        id: newId('quo', account.rng),
        source_currency: source,
        destination_currency: destination,
        source_amount: formatAmount(sourceUnits, sourceDecimals),
        destination_amount: formatAmount(destinationUnits, destinationDecimals),
        rate: priced.rate,
        fee_amount: formatAmount(feeUnits(sourceUnits, QUOTE_FEE_BPS), sourceDecimals),
        fee_currency: source,
        pair: priced.pair,
        side: priced.side,
        price: priced.price,
        expires_at: isoOf(now + deps.quoteTtlMs),
        created_at: isoOf(now),
        used_at: null,
        used_by: null,
      }
      store.apply([put('quote', account.account.id, record.id, record)])
      return record
    },

    /**
     * The quote if it can be used now, without changing anything: 404 `resource_missing` for an
     * unknown or foreign id, 422 `quote_already_used` or `quote_expired` otherwise. `param` names
     * the request field (`quote_id`).
     */
    checkUsable(account: AccountState, id: string, param = 'quote_id'): QuoteRecord {
      const quote = service.get(account, id, param)
      const status = service.status(account, quote)
      if (status === 'used') {
        throw new ApiError('quote_already_used', `Quote ${quote.id} was used at ${quote.used_at}${quote.used_by ? ` by ${quote.used_by}` : ''}; a quote is used once. Request a new one with POST /v1/quotes.`, { param })
      }
      if (status === 'expired') {
        throw new ApiError('quote_expired', `Quote ${quote.id} expired at ${quote.expires_at}; request a new one with POST /v1/quotes.`, { param })
      }
      return quote
    },

    /** Adds to `changes` the quote marked used by `usedBy` (an order or settlement id), to apply with the rest of that change. */
    markUsed(account: AccountState, quote: QuoteRecord, usedBy: string, changes: Change[]): QuoteRecord {
      const used = { ...quote, used_at: clock.nowIso(account.account.id), used_by: usedBy }
      changes.push(put('quote', account.account.id, quote.id, used))
      return used
    },

    /** `checkUsable` and `markUsed` in one change of its own. */
    use(account: AccountState, id: string, usedBy: string, param = 'quote_id'): QuoteRecord {
      const changes: Change[] = []
      const used = service.markUsed(account, service.checkUsable(account, id, param), usedBy, changes)
      store.apply(changes)
      return used
    },

    /** Source, destination and fee in base units of the quote's currencies (`currencyDecimals`). */
    units(quote: QuoteRecord): { source: bigint; destination: bigint; fee: bigint } {
      const sourceDecimals = currencyDecimals(quote.source_currency)!
      return {
        source: toBaseUnits(quote.source_amount, sourceDecimals),
        destination: toBaseUnits(quote.destination_amount, currencyDecimals(quote.destination_currency)!),
        fee: toBaseUnits(quote.fee_amount, sourceDecimals),
      }
    },

    present(account: AccountState, quote: QuoteRecord) {
      return {
        id: quote.id,
        object: 'quote' as const,
        source_currency: quote.source_currency,
        destination_currency: quote.destination_currency,
        source_amount: quote.source_amount,
        destination_amount: quote.destination_amount,
        rate: quote.rate,
        fee: { amount: quote.fee_amount, currency: quote.fee_currency },
        status: service.status(account, quote),
        expires_at: quote.expires_at,
        created_at: quote.created_at,
      }
    },
  }
  return service
}
