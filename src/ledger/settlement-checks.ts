import { ApiError, notFound } from '../errors.js'
import { formatAmount, toBaseUnits } from '../money.js'
import { FIAT_DECIMALS, FIAT_RAILS } from '../model/currencies.js'
import { assetDecimals } from '../model/networks.js'
import type { Rail, SettlementDestination, SettlementStepType, WalletRecord } from '../model/records.js'
import type { CreateSettlement } from '../schemas/settlement.js'
import type { AccountState } from '../store/account-state.js'
import { decimalsOf } from './present.js'
import { priceSettlement, type Pricing } from './settlement-pricing.js'
import { sidedPrice } from '../market/conversion.js'
import type { PriceModel } from '../market/prices.js'
import type { QuoteRecord } from '../model/records.js'
import type { QuoteService } from './quotes.js'
import { assertWhitelisted } from './whitelist.js'

export interface CheckedSettlement {
  source: WalletRecord
  /** The destination wallet of a `wallet` destination. */
  target: WalletRecord | undefined
  destination: SettlementDestination
  destinationCurrency: string
  steps: SettlementStepType[]
  pricing: Pricing
  /** The quote the settlement uses (checked usable; the caller marks it used in the same change). */
  quote: QuoteRecord | undefined
}

/**
 * Every check of a settlement request, in the order of CONTRACT.md section 13, without changing
 * anything: wallets (404) → currencies and amounts (400) → wallet states (422) → whitelist (422) →
 * available balance (422).
 */
export function checkSettlement(account: AccountState, input: CreateSettlement, deps: { prices: PriceModel; quotes: QuoteService; now: number; whitelistEnforced: boolean }): CheckedSettlement {
  const source = account.wallets.get(input.source_wallet)
  if (!source) throw notFound('wallet', input.source_wallet, 'source_wallet')
  const requested = input.destination
  let target: WalletRecord | undefined
  let destination: SettlementDestination
  let network: string | undefined
  let destinationCurrency: string
  let destinationDecimals: number
  if (requested.type === 'wallet') {
    target = account.wallets.get(requested.wallet_id)
    if (!target) throw notFound('wallet', requested.wallet_id, 'destination.wallet_id')
    if (target.id === source.id) throw new ApiError('parameter_invalid', 'destination.wallet_id is the source wallet; a wallet cannot settle to itself.', { param: 'destination.wallet_id' })
    destination = { type: 'wallet', wallet_id: target.id }
    ;[network, destinationCurrency, destinationDecimals] = [target.network, target.currency, decimalsOf(target)]
  } else if (requested.type === 'address') {
    destination = { type: 'address', network: requested.network, currency: requested.currency, address: requested.address }
    ;[network, destinationCurrency, destinationDecimals] = [requested.network, requested.currency, assetDecimals(requested.network, requested.currency)!]
  } else {
    const rail: Rail = FIAT_RAILS[requested.currency]
    destination = { type: 'bank_account', currency: requested.currency, rail, beneficiary: { ...requested.beneficiary } }
    ;[destinationCurrency, destinationDecimals] = [requested.currency, FIAT_DECIMALS]
  }

  const steps: SettlementStepType[] = []
  if (destinationCurrency !== source.currency) steps.push('conversion')
  if (network !== undefined && network !== source.network) steps.push('bridge')
  steps.push('transfer')

  const conversion = steps.includes('conversion')
  const quote = input.quote_id === undefined ? undefined : checkQuote(account, input, source.currency, destinationCurrency, deps.quotes)
  if (quote === undefined && input.amount === undefined && input.destination_amount === undefined) {
    throw new ApiError('parameter_missing', 'amount or destination_amount is required: what leaves the source wallet before fees, or what the destination receives.', { param: 'amount' })
  }
  let price
  if (conversion && !quote) {
    if (!deps.prices.currencies.includes(source.currency) || !deps.prices.currencies.includes(destinationCurrency)) {
      throw new ApiError('parameter_invalid', `There is no price for ${source.currency} to ${destinationCurrency} in the price feed; choose another destination currency.`, { param: 'destination.currency' })
    }
    price = sidedPrice(deps.prices, source.currency, destinationCurrency, deps.now, account.account.id)
  }
  // A quote's amounts have the fewest decimals of their currency (USDC 6), so they fit any wallet of it.
  const quoted = quote && {
    amount: toBaseUnits(quote.source_amount, decimalsOf(source)),
    destination: toBaseUnits(quote.destination_amount, destinationDecimals),
    fee: toBaseUnits(quote.fee_amount, decimalsOf(source)),
    rate: quote.rate,
  }
  const pricing = priceSettlement(
    {
      amount: input.amount,
      destination_amount: input.destination_amount,
      sourceDecimals: decimalsOf(source),
      destinationDecimals,
      price,
      quoted,
      steps,
      onChain: destination.type === 'address' || steps.includes('bridge'),
      bank: destination.type === 'bank_account',
    },
    source.currency,
  )

  if (source.status !== 'active') throw new ApiError('wallet_inactive', `The source wallet ${source.id} is ${source.status} and cannot send funds.`, { param: 'source_wallet' })
  if (target && target.status !== 'active') {
    throw new ApiError('wallet_inactive', `The destination wallet ${target.id} is ${target.status} and cannot receive funds.`, { param: 'destination.wallet_id' })
  }
  if (destination.type === 'address') assertWhitelisted(account, destination.network, destination.address, deps.whitelistEnforced, 'destination.address')
  if (source.available < pricing.totalUnits) {
    const decimals = decimalsOf(source)
    throw new ApiError(
      'insufficient_funds',
      `Wallet ${source.id} has ${formatAmount(source.available, decimals)} ${source.currency} available; the settlement needs ${pricing.total_debit} (amount ${pricing.amount} plus fees).`,
      { param: input.amount === undefined ? 'destination_amount' : 'amount' },
    )
  }
  return { source, target, destination, destinationCurrency, steps, pricing, quote }
}

/**
 * A settlement's quote (CONTRACT.md section 15): usable (404, 422 `quote_expired`,
 * `quote_already_used`), of the settlement's two currencies, and its amounts become the
 * settlement's, so an amount given beside it must be the quote's.
 */
function checkQuote(account: AccountState, input: CreateSettlement, from: string, to: string, quotes: QuoteService): QuoteRecord {
  const quote = quotes.checkUsable(account, input.quote_id!)
  if (quote.source_currency !== from || quote.destination_currency !== to) {
    throw new ApiError('parameter_invalid', `quote ${quote.id} converts ${quote.source_currency} to ${quote.destination_currency}; this settlement converts ${from} to ${to}.`, { param: 'quote_id' })
  }
  if (input.amount !== undefined && input.amount !== quote.source_amount) {
    throw new ApiError('parameter_invalid', `amount must be the quote's source_amount (${quote.source_amount}), or be left out.`, { param: 'amount' })
  }
  if (input.destination_amount !== undefined && input.destination_amount !== quote.destination_amount) {
    throw new ApiError('parameter_invalid', `destination_amount must be the quote's destination_amount (${quote.destination_amount}), or be left out.`, { param: 'destination_amount' })
  }
  return quote
}
