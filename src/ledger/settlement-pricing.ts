import { ApiError } from '../errors.js'
import { formatAmount, toBaseUnits } from '../money.js'
import type { SettlementRecord, SettlementStepType } from '../model/records.js'

/**
 * The money of a settlement (CONTRACT.md section 16), in exact integer arithmetic: the rate, the
 * amounts both ways and the fees. Fees are in the source currency, on top of `amount`, and round
 * up; the destination amount rounds down: the sandbox never creates money.
 */

/** Rates carry 8 decimals, rounded against the customer. */
export const RATE_DECIMALS = 8
const RATE_SCALE = 10n ** BigInt(RATE_DECIMALS)

/** Fees in basis points of `amount`, by the steps and destination that incur them (docs/settlements.md). */
export const FEE_BPS = { conversion: 20n, network: 10n, payout: 25n } as const

export type FeeType = keyof typeof FEE_BPS

/** A rate as base units of RATE_DECIMALS. */
export const parseRate = (rate: string): bigint => toBaseUnits(rate, RATE_DECIMALS)
export const formatRate = (units: bigint): string => {
  const text = units.toString().padStart(RATE_DECIMALS + 1, '0')
  return `${text.slice(0, -RATE_DECIMALS)}.${text.slice(-RATE_DECIMALS)}`
}
export const ONE = formatRate(RATE_SCALE)

/** `numerator / denominator`, both decimal strings, as a rate rounded down. */
export function divideRate(numerator: string, denominator: string): bigint {
  const [a, b] = [decimalParts(numerator), decimalParts(denominator)]
  // a / b = (a.units / 10^a.places) / (b.units / 10^b.places)
  return (a.units * 10n ** BigInt(b.places) * RATE_SCALE) / (b.units * 10n ** BigInt(a.places))
}

function decimalParts(value: string): { units: bigint; places: number } {
  const [whole = '0', fraction = ''] = value.split('.')
  return { units: BigInt(whole + fraction), places: fraction.length }
}

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b

export interface PricingInput {
  amount?: string
  destination_amount?: string
  sourceDecimals: number
  destinationDecimals: number
  rate: bigint
  /** The steps the settlement takes, and whether it pays out to a bank account or sends on-chain. */
  steps: readonly SettlementStepType[]
  onChain: boolean
  bank: boolean
  /** A quote's fee (source units) stands in for the conversion fee. */
  quotedConversionFee?: bigint
}

export type Pricing = Pick<SettlementRecord, 'amount' | 'fees' | 'total_debit' | 'destination_amount' | 'rate'> & { totalUnits: bigint; amountUnits: bigint; destinationUnits: bigint }

export function priceSettlement(input: PricingInput, currency: string, param = (name: 'amount' | 'destination_amount') => name): Pricing {
  const { sourceDecimals: sd, destinationDecimals: dd, rate } = input
  const sourceScale = 10n ** BigInt(sd)
  const destinationScale = 10n ** BigInt(dd)
  let amountUnits: bigint
  let destinationUnits: bigint
  if (input.destination_amount !== undefined) {
    destinationUnits = unitsOf(input.destination_amount, dd, param('destination_amount'))
    // The smallest amount whose conversion, rounded down, reaches the destination amount.
    amountUnits = ceilDiv(destinationUnits * sourceScale * RATE_SCALE, rate * destinationScale)
  } else {
    amountUnits = unitsOf(input.amount!, sd, param('amount'))
    destinationUnits = (amountUnits * rate * destinationScale) / (sourceScale * RATE_SCALE)
    if (destinationUnits === 0n) {
      throw new ApiError('parameter_invalid', `amount is too small: at the rate ${formatRate(rate)} it yields nothing at the destination's ${dd} decimals.`, { param: param('amount') })
    }
  }
  const fee = (bps: bigint) => ceilDiv(amountUnits * bps, 10_000n)
  const fees: Array<{ type: FeeType; units: bigint }> = []
  if (input.steps.includes('conversion')) fees.push({ type: 'conversion', units: input.quotedConversionFee ?? fee(FEE_BPS.conversion) })
  if (input.onChain) fees.push({ type: 'network', units: fee(FEE_BPS.network) })
  if (input.bank) fees.push({ type: 'payout', units: fee(FEE_BPS.payout) })
  const totalUnits = fees.reduce((sum, item) => sum + item.units, amountUnits)
  return {
    amount: formatAmount(amountUnits, sd),
    fees: fees.map(({ type, units }) => ({ type, amount: formatAmount(units, sd), currency })),
    total_debit: formatAmount(totalUnits, sd),
    destination_amount: formatAmount(destinationUnits, dd),
    rate: formatRate(rate),
    totalUnits,
    amountUnits,
    destinationUnits,
  }
}

function unitsOf(value: string, decimals: number, param: string): bigint {
  const places = value.includes('.') ? value.length - value.indexOf('.') - 1 : 0
  if (places > decimals) throw new ApiError('parameter_invalid', `${param} has ${places} decimal places; the currency allows at most ${decimals}.`, { param })
  return toBaseUnits(value, decimals)
}
