/**
 * ABA routing transit numbers (United States, ACH): nine digits whose weighted sum with the weights
 * 3, 7, 1 repeated is a multiple of 10. The weights are coprime to 10, so every single-digit change
 * is caught; a swap of neighbours is caught unless the two digits differ by 5.
 */
const WEIGHTS = [3, 7, 1, 3, 7, 1, 3, 7, 1] as const

export function isValidRoutingNumber(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false
  let sum = 0
  for (let i = 0; i < 9; i++) sum += Number(value[i]) * WEIGHTS[i]!
  return sum % 10 === 0
}

/** The ninth digit that makes eight digits a valid routing number (fixtures and tests build theirs with it). */
export function routingCheckDigit(first8: string): string {
  let sum = 0
  for (let i = 0; i < 8; i++) sum += Number(first8[i]) * WEIGHTS[i]!
  return String((10 - (sum % 10)) % 10)
}
