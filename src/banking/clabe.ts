/**
 * CLABE (Mexico, SPEI): 18 digits (bank 3, branch city 3, account 11, control 1). The control digit
 * is 10 minus the sum of (digit × weight mod 10) over the first 17 digits, weights 3, 7, 1 repeated,
 * all mod 10. As with ABA, any single-digit change is caught, and any swap of neighbours unless the
 * two digits differ by 5.
 */
const WEIGHTS = [3, 7, 1] as const

export function clabeCheckDigit(first17: string): string {
  let sum = 0
  for (let i = 0; i < 17; i++) sum += (Number(first17[i]) * WEIGHTS[i % 3]!) % 10
  return String((10 - (sum % 10)) % 10)
}

export function isValidClabe(value: string): boolean {
  return /^\d{18}$/.test(value) && clabeCheckDigit(value.slice(0, 17)) === value[17]
}
