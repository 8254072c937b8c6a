import type { Clock } from '../clock.js'
import { ApiError, echoId } from '../errors.js'
import { renderFixed } from '../market/conversion.js'
import type { PinnedLeg } from '../market/pair-quotes.js'
import type { PriceModel } from '../market/prices.js'
import { fractionDigits, toBaseUnits } from '../money.js'
import type { PricePin, PricePinInput } from '../schemas/price.js'
import { put, type Change } from '../store/changes.js'
import type { Store } from '../store/store.js'

/**
 * Price pins (`/_sandbox/prices`, CONTRACT.md sections 15 and 19): an `<ASSET>/USD` pair's mid held
 * at a fixed price until the pin goes; every pair with that leg follows. A pin is for every account,
 * or for one (CONTRACT.md section 24), whose own pins win over those of every account. Kept in
 * `store.control.price_pins`, so snapshots, resets and the data file see them. A pin is not a
 * tick: nothing is checked when one changes, the next tick (or request) simply sees it.
 */

const KEY = 'price_pins'
const USD = '/USD'

export function createPricePins(deps: { store: Store; clock: Clock }) {
  const { store, clock } = deps
  const all = (): readonly PricePin[] => (store.control[KEY] as PricePin[] | undefined) ?? []
  const save = (list: PricePin[]) => store.apply([put('control', undefined, KEY, list)])
  /** A pin's scope: the one account it applies to, or every account. */
  const sameScope = (pin: PricePin, accountId: string | undefined) => pin.account_id === accountId

  // The legs by asset, for every account and for each account with pins of its own, rebuilt only
  // when the list changed (every change stores a new array).
  let cachedFrom: readonly PricePin[] | undefined
  let shared: ReadonlyMap<string, PinnedLeg> = new Map()
  let byAccount = new Map<string, ReadonlyMap<string, PinnedLeg>>()
  const legOf = (pin: PricePin): [string, PinnedLeg] => [pin.pair.slice(0, -USD.length), { price: Number(pin.price), spreadBp: pin.spread_bp }]

  return {
    /** Every pin, or the pins of one account. */
    list: (accountId?: string): readonly PricePin[] => (accountId === undefined ? all() : all().filter((pin) => pin.account_id === accountId)),

    /** What the price model reads on every quote: the pins for every account, with the account's own over them. */
    legs(accountId?: string): ReadonlyMap<string, PinnedLeg> {
      const pins = all()
      if (pins !== cachedFrom) {
        cachedFrom = pins
        shared = new Map(pins.filter((pin) => pin.account_id === undefined).map(legOf))
        byAccount = new Map()
        for (const pin of pins) {
          if (pin.account_id === undefined || byAccount.has(pin.account_id)) continue
          const own = pins.filter((other) => other.account_id === pin.account_id).map(legOf)
          byAccount.set(pin.account_id, new Map([...shared, ...own]))
        }
      }
      return (accountId !== undefined && byAccount.get(accountId)) || shared
    },

    /** Pins (or re-pins) a pair, for every account or one; 400 for anything but a priced `<ASSET>/USD` pair or a price finer than its decimals. */
    set(model: PriceModel, input: PricePinInput, accountId?: string): PricePin {
      const asset = pinnedAsset(model, input.pair)
      const decimals = model.crossDecimals(asset, 'USD')!
      const places = fractionDigits(input.price)
      if (places > decimals) {
        throw new ApiError('parameter_invalid', `price has ${places} decimal places; ${input.pair} prices have ${decimals}.`, { param: 'price' })
      }
      // Rendered as the feed renders the pair: "3000" is kept as "3000.00".
      const price = renderFixed(toBaseUnits(input.price, decimals), decimals)
      const pin: PricePin = { pair: input.pair, price, spread_bp: input.spread_bp ?? model.spreadBp(asset)!, pinned_at: clock.nowIso(accountId), ...(accountId === undefined ? {} : { account_id: accountId }) }
      save([...all().filter((existing) => existing.pair !== pin.pair || !sameScope(existing, accountId)), pin])
      return pin
    },

    /** Removes a pin of every account's, or of one account's. */
    remove(pair: string, accountId?: string): PricePin {
      const removed = all().find((pin) => pin.pair === pair && sameScope(pin, accountId))
      if (!removed) {
        const pinned = all().filter((pin) => sameScope(pin, accountId)).map((pin) => pin.pair)
        const whose = accountId === undefined ? '' : ` of account ${accountId}`
        throw new ApiError('resource_missing', `No price pin on '${echoId(pair)}'${whose}; ${pinned.length ? `pinned pairs: ${pinned.join(', ')}` : 'no pair is pinned'}.`)
      }
      save(all().filter((pin) => pin !== removed))
      return removed
    },

    /** Removes every pin, or one account's; answers how many went. */
    clear(accountId?: string): number {
      const kept = accountId === undefined ? [] : all().filter((pin) => pin.account_id !== accountId)
      const count = all().length - kept.length
      if (count > 0) save(kept)
      return count
    },

    /** An account's restore: its pins become `pins`, every other pin stays. */
    replaceAccount(accountId: string, pins: readonly PricePin[]): Change {
      return put('control', undefined, KEY, [...all().filter((pin) => pin.account_id !== accountId), ...pins.map((pin) => ({ ...pin, account_id: accountId }))])
    },
  }
}

export type PricePins = ReturnType<typeof createPricePins>

/** The asset of a pinnable pair; a cross names the USD legs to pin instead. */
function pinnedAsset(model: PriceModel, pair: string): string {
  const [base = '', quote = '', ...rest] = pair.split('/')
  const priced = (code: string) => code !== 'USD' && model.currencies.includes(code)
  const assets = model.currencies.filter(priced)
  if (rest.length === 0 && quote === 'USD' && priced(base)) return base
  if (rest.length === 0 && priced(base) && priced(quote)) {
    throw new ApiError('parameter_invalid', `${pair} is a cross: it follows its USD legs. Pin ${base}/USD and ${quote}/USD instead.`, { param: 'pair' })
  }
  if (rest.length === 0 && base === 'USD' && priced(quote)) {
    throw new ApiError('parameter_invalid', `Pins are quoted in USD: pin ${quote}/USD instead of ${pair}.`, { param: 'pair' })
  }
  throw new ApiError('parameter_invalid', `pair must be an <ASSET>/USD pair; '${echoId(pair)}' is not. Pinnable: ${assets.map((code) => `${code}/USD`).join(', ')}.`, { param: 'pair' })
}
