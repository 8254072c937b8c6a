import type { Clock } from '../clock.js'
import { ApiError, echoId } from '../errors.js'
import { renderFixed } from '../market/conversion.js'
import type { PinnedLeg } from '../market/pair-quotes.js'
import type { PriceModel } from '../market/prices.js'
import { fractionDigits, toBaseUnits } from '../money.js'
import type { PricePin, PricePinInput } from '../schemas/price.js'
import { put } from '../store/changes.js'
import type { Store } from '../store/store.js'

/**
 * Price pins (`/_sandbox/prices`, CONTRACT.md sections 15 and 19): an `<ASSET>/USD` pair's mid held
 * at a fixed price until the pin goes; every pair with that leg follows. Kept in
 * `store.control.price_pins`, so snapshots, resets and the data file see them. A pin is not a
 * tick: nothing is checked when one changes, the next tick (or request) simply sees it.
 */

const KEY = 'price_pins'
const USD = '/USD'

export function createPricePins(deps: { store: Store; clock: Clock }) {
  const { store, clock } = deps
  const all = (): readonly PricePin[] => (store.control[KEY] as PricePin[] | undefined) ?? []
  const save = (list: PricePin[]) => store.apply([put('control', undefined, KEY, list)])

  // The legs by asset, rebuilt only when the list changed (every change stores a new array).
  let cachedFrom: readonly PricePin[] | undefined
  let cached: ReadonlyMap<string, PinnedLeg> = new Map()

  return {
    list: all,

    /** What the price model reads on every quote. */
    legs(): ReadonlyMap<string, PinnedLeg> {
      const pins = all()
      if (pins !== cachedFrom) {
        cachedFrom = pins
        cached = new Map(pins.map((pin) => [pin.pair.slice(0, -USD.length), { price: Number(pin.price), spreadBp: pin.spread_bp }]))
      }
      return cached
    },

    /** Pins (or re-pins) a pair; 400 for anything but a priced `<ASSET>/USD` pair or a price finer than its decimals. */
    set(model: PriceModel, input: PricePinInput): PricePin {
      const asset = pinnedAsset(model, input.pair)
      const decimals = model.crossDecimals(asset, 'USD')!
      const places = fractionDigits(input.price)
      if (places > decimals) {
        throw new ApiError('parameter_invalid', `price has ${places} decimal places; ${input.pair} prices have ${decimals}.`, { param: 'price' })
      }
      // Rendered as the feed renders the pair: "3000" is kept as "3000.00".
      const price = renderFixed(toBaseUnits(input.price, decimals), decimals)
      const pin: PricePin = { pair: input.pair, price, spread_bp: input.spread_bp ?? model.spreadBp(asset)!, pinned_at: clock.nowIso() }
      save([...all().filter((existing) => existing.pair !== pin.pair), pin])
      return pin
    },

    remove(pair: string): PricePin {
      const removed = all().find((pin) => pin.pair === pair)
      if (!removed) {
        const pinned = all().map((pin) => pin.pair)
        throw new ApiError('resource_missing', `No price pin on '${echoId(pair)}'; ${pinned.length ? `pinned pairs: ${pinned.join(', ')}` : 'no pair is pinned'}.`)
      }
      save(all().filter((pin) => pin !== removed))
      return removed
    },

    /** Removes every pin; answers how many went. */
    clear(): number {
      const count = all().length
      if (count > 0) save([])
      return count
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
