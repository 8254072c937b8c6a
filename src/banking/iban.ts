/**
 * IBAN (ISO 13616): country code, two check digits, then the national account number (BBAN). Valid
 * when the country's length fits and the number, moved so that the first four characters come last
 * and letters read as 10–35, leaves 1 mod 97. Mod 97 catches every single-character change and
 * every swap of neighbouring digits.
 */

/** IBAN lengths of the countries in the SEPA scheme (the rail of EUR payouts). */
export const SEPA_IBAN_LENGTHS: Readonly<Record<string, number>> = Object.freeze({
  AD: 24, AT: 20, BE: 16, BG: 22, CH: 21, CY: 28, CZ: 24, DE: 22, DK: 18, EE: 20, ES: 24, FI: 18,
  FR: 27, GB: 22, GI: 23, GR: 27, HR: 21, HU: 28, IE: 22, IS: 26, IT: 27, LI: 21, LT: 20, LU: 20,
  LV: 21, MC: 27, MT: 31, NL: 18, NO: 15, PL: 28, PT: 25, RO: 24, SE: 24, SI: 19, SK: 24, SM: 27,
  VA: 22,
})

/** Why an IBAN is refused, for the error message; undefined when it is valid. */
export type IbanProblem = 'format' | 'country' | 'length' | 'checksum'

/** Spaces are allowed between groups (`DE89 3704 …`); the IBAN is kept without them. */
export const normaliseIban = (value: string): string => value.replace(/ /g, '')

function mod97(digits: string): number {
  let remainder = 0
  // The remainder's two digits and seven new ones stay well inside a double's exact integers.
  for (let i = 0; i < digits.length; i += 7) remainder = Number(String(remainder) + digits.slice(i, i + 7)) % 97
  return remainder
}

const toDigits = (text: string): string => text.replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55))

export function ibanProblem(raw: string): IbanProblem | undefined {
  const iban = normaliseIban(raw)
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{1,30}$/.test(iban)) return 'format'
  const length = SEPA_IBAN_LENGTHS[iban.slice(0, 2)]
  if (length === undefined) return 'country'
  if (iban.length !== length) return 'length'
  return mod97(toDigits(iban.slice(4) + iban.slice(0, 4))) === 1 ? undefined : 'checksum'
}

export const isValidSepaIban = (value: string): boolean => ibanProblem(value) === undefined

/** The two check digits of a country and BBAN (fixtures and tests build their IBANs with it). */
export function ibanCheckDigits(country: string, bban: string): string {
  return String(98 - mod97(toDigits(bban + country + '00'))).padStart(2, '0')
}
