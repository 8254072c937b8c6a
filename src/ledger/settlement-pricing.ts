import { ApiError } from '../errors.js'
import { destinationUnitsFor, feeUnits, sourceUnitsFor, type SidedPrice } from '../market/conversion.js'
import { formatAmount, toBaseUnits } from '../money.js'
import type { SettlementRecord, SettlementStepType } from '../model/records.js'

/**
 * The money of a settlement (CONTRACT.md section 16), in exact integer arithmetic: the amounts both
 * ways, the rate and the fees. The conversion uses the market's side against the customer
 * (src/market/conversion.ts); fees are in the source currency, on top of `amount`, and round up;
 * the destination amount rounds down: the sandbox never creates money.
 */

/** Fees in basis points of `amount`, by the steps and destination that incur them (docs/settlements.md). */
export const FEE_BPS = { conversion: 20, network: 10, payout: 25 } as const

/** The rate of a settlement without a conversion. */
export const SAME_CURRENCY_RATE = '1'

export interface PricingInput {
  amount?: string
  destination_amount?: string
  sourceDecimals: number
  destinationDecimals: number
  /** The feed's price at creation; undefined when the currencies are the same (no conversion). */
  price: SidedPrice | undefined
  /** A quote fixes amounts, rate and conversion fee instead (source and destination units, fee in source units). */
  quoted?: { amount: bigint; destination: bigint; fee: bigint; rate: string }
  /** The steps the settlement takes, and whether it pays out to a bank account or sends on-chain. */
  steps: readonly SettlementStepType[]
  onChain: boolean
  bank: boolean
}

export type Pricing = Pick<SettlementRecord, 'amount' | 'fees' | 'total_debit' | 'destination_amount' | 'rate'> & { totalUnits: bigint }

export function priceSettlement(input: PricingInput, currency: string): Pricing {
  const { sourceDecimals: sd, destinationDecimals: dd, price } = input
  let amount: bigint
  let destination: bigint
  if (input.quoted) {
    ;({ amount, destination } = input.quoted)
  } else if (input.destination_amount !== undefined) {
    destination = unitsOf(input.destination_amount, dd, 'destination_amount')
    // The smallest amount whose conversion, rounded down, reaches the destination amount.
    amount = price ? sourceUnitsFor(price, destination, dd, sd) : rescale(destination, dd, sd, 'up')
  } else {
    amount = unitsOf(input.amount!, sd, 'amount')
    destination = price ? destinationUnitsFor(price, amount, sd, dd) : rescale(amount, sd, dd, 'down')
    if (destination === 0n) {
      throw new ApiError('parameter_invalid', `amount is too small: converted, it rounds down to nothing at the destination's ${dd} decimals.`, { param: 'amount' })
    }
  }
  const fees: Array<{ type: keyof typeof FEE_BPS; units: bigint }> = []
  if (input.steps.includes('conversion')) fees.push({ type: 'conversion', units: input.quoted?.fee ?? feeUnits(amount, FEE_BPS.conversion) })
  if (input.onChain) fees.push({ type: 'network', units: feeUnits(amount, FEE_BPS.network) })
  if (input.bank) fees.push({ type: 'payout', units: feeUnits(amount, FEE_BPS.payout) })
  const totalUnits = fees.reduce((sum, fee) => sum + fee.units, amount)
  return {
    amount: formatAmount(amount, sd),
    fees: fees.map(({ type, units }) => ({ type, amount: formatAmount(units, sd), currency })),
    total_debit: formatAmount(totalUnits, sd),
    destination_amount: formatAmount(destination, dd),
    rate: input.quoted?.rate ?? price?.rate ?? SAME_CURRENCY_RATE,
    totalUnits,
  }
}

/** The same currency on networks with different decimals (USDC: 6 on polygon, 7 on stellar). */
function rescale(units: bigint, from: number, to: number, rounding: 'up' | 'down'): bigint {
  if (to >= from) return units * 10n ** BigInt(to - from)
  const divisor = 10n ** BigInt(from - to)
  const quotient = units / divisor
  return rounding === 'up' && quotient * divisor !== units ? quotient + 1n : quotient
}

function unitsOf(value: string, decimals: number, param: string): bigint {
  const places = value.includes('.') ? value.length - value.indexOf('.') - 1 : 0
  if (places > decimals) throw new ApiError('parameter_invalid', `${param} has ${places} decimal places; the currency allows at most ${decimals}.`, { param })
  return toBaseUnits(value, decimals)
}
