import { boundedCache } from './bounded-cache.js'

/**
 * Amounts: decimal strings on the wire, integer base units (bigint) inside. Never `Number`.
 */
export const AMOUNT_PATTERN = /^(0|[1-9][0-9]*)(\.[0-9]+)?$/

/** Digits after the decimal point in a well-formed amount string. */
export function fractionDigits(amount: string): number {
  const dot = amount.indexOf('.')
  return dot === -1 ? 0 : amount.length - dot - 1
}

/** Parses a string that matches AMOUNT_PATTERN and has at most `decimals` fraction digits. */
export function toBaseUnits(amount: string, decimals: number): bigint {
  // Up to 15 digits in all, the units fit a double exactly: read digit by digit, that is about half
  // the cost of making a string of them and parsing it into a BigInt (every payment's amount).
  // Anything else, and any character but digits and one point, is read the general way.
  const dot = amount.indexOf('.')
  const places = dot === -1 ? 0 : amount.length - dot - 1
  if (places <= decimals && amount.length - (dot === -1 ? 0 : 1) + decimals - places <= 15) {
    let units = 0
    for (let i = 0; i < amount.length; i++) {
      if (i === dot) continue
      const digit = amount.charCodeAt(i) - 48
      if (digit < 0 || digit > 9) return parseBaseUnits(amount, decimals)
      units = units * 10 + digit
    }
    return BigInt(units * 10 ** (decimals - places))
  }
  return parseBaseUnits(amount, decimals)
}

function parseBaseUnits(amount: string, decimals: number): bigint {
  const [whole = '0', fraction = ''] = amount.split('.')
  if (fraction.length > decimals) throw new RangeError(`${amount} has more than ${decimals} decimals`)
  return BigInt(whole + fraction.padEnd(decimals, '0'))
}

/** Renders base units with at least two fraction digits, more only when needed: 10.00, 0.50, 0.000001. */
export function formatAmount(units: bigint, decimals: number): string {
  const negative = units < 0n
  const digits = (negative ? -units : units).toString().padStart(decimals + 1, '0')
  const point = digits.length - decimals
  // Trailing zeros dropped down to two decimals (a loop: a regular expression cost more than the rest).
  let end = digits.length
  while (end > point + 2 && digits.charCodeAt(end - 1) === 48) end--
  const fraction = end >= point + 2 ? digits.slice(point, end) : digits.slice(point).padEnd(2, '0')
  return `${negative ? '-' : ''}${digits.slice(0, point)}.${fraction}`
}

/**
 * `formatAmount(units, decimals)` of the units `amount` was read as: `amount` itself when it is
 * written that way already (no leading zero, two fraction digits, or more without a trailing zero:
 * "10.00", "0.000001", as clients mostly send them), which spares a payment the digits' string, its
 * padding and its slices; otherwise `formatAmount`'s.
 */
export function amountText(amount: string, units: bigint, decimals: number): string {
  const dot = amount.indexOf('.')
  const places = amount.length - dot - 1
  if (dot < 1 || places < 2 || places > decimals || (places > 2 && amount.charCodeAt(amount.length - 1) === 48)) return formatAmount(units, decimals)
  if (amount.charCodeAt(0) === 48 && dot !== 1) return formatAmount(units, decimals)
  for (let i = 0; i < amount.length; i++) {
    const digit = amount.charCodeAt(i) - 48
    if (i !== dot && (digit < 0 || digit > 9)) return formatAmount(units, decimals)
  }
  return amount
}

/** Decimals prices are compared and computed with: a price is an integer scaled by 10^18 inside. */
export const PRICE_DECIMALS = 18

/**
 * A price string (`AMOUNT_PATTERN`) scaled by 10^18; decimals beyond 18 are dropped. The prices
 * scaled last are kept: a tick's bid and ask, and the limits of the orders it fills, are scaled
 * several times per fill (crossing, value, what stays locked).
 */
export const scalePrice: (price: string) => bigint = boundedCache(4096, (price: string): bigint => {
  const [whole = '0', fraction = ''] = price.split('.')
  return BigInt(whole + fraction.slice(0, PRICE_DECIMALS).padEnd(PRICE_DECIMALS, '0'))
})
