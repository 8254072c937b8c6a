/**
 * UK Faster Payments: a sort code of 6 digits and an account number of 8. Their modulus checks
 * (Vocalink's tables per sort-code range) are bank data the sandbox does not carry, so only the
 * format is checked. A sort code may be written with hyphens or spaces (`20-00-00`); it is kept
 * as the 6 digits.
 */
export function normaliseSortCode(value: string): string | undefined {
  return /^\d{2}([- ]?)\d{2}\1\d{2}$/.test(value) ? value.replace(/[- ]/g, '') : undefined
}

export const isValidUkAccountNumber = (value: string): boolean => /^\d{8}$/.test(value)
