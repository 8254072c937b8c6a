import { ASSETS, CURRENCIES, NETWORKS } from './networks.js'

/**
 * Every currency the sandbox can price: the wallet assets and the fiat currencies settlements pay
 * out in (CONTRACT.md sections 15 and 16). USD is the unit of account of the price model.
 */
export const FIAT_CURRENCIES = ['USD', 'EUR', 'GBP', 'MXN'] as const
export type FiatCurrency = (typeof FIAT_CURRENCIES)[number]

/** Wallet assets first (sorted), then fiat. */
export const PRICED_CURRENCIES: readonly string[] = Object.freeze([...CURRENCIES, ...FIAT_CURRENCIES])

/** The rail a fiat currency's bank payouts take (CONTRACT.md section 16): it follows the currency. */
export const FIAT_RAILS = { USD: 'ach', EUR: 'sepa', GBP: 'fps', MXN: 'spei' } as const satisfies Record<FiatCurrency, string>

/** Fiat amounts have cents. */
export const FIAT_DECIMALS = 2

export const isFiat = (code: string): code is FiatCurrency => (FIAT_CURRENCIES as readonly string[]).includes(code)
export const isWalletAsset = (code: string): boolean => CURRENCIES.includes(code)

/**
 * Decimals of a currency's amounts when no network says more: fiat 2, a wallet asset the fewest any
 * network gives it (USDC: 6, though Stellar has 7), so that an amount fits every wallet of that
 * currency. Undefined for an unknown code.
 */
export function currencyDecimals(code: string): number | undefined {
  if (isFiat(code)) return FIAT_DECIMALS
  const all = NETWORKS.flatMap((network) => (Object.hasOwn(ASSETS[network], code) ? [ASSETS[network][code]!] : []))
  return all.length === 0 ? undefined : Math.min(...all)
}
