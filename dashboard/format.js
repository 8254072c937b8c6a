// Amounts arrive as decimal strings ("1234567.50") and are shown as they are, only grouped: parsing
// them into a Number would round anything past 2^53 base units (an 18-decimal ETH balance gets
// there at about 0.009 ETH).

const DECIMAL = /^(-?)(\d+)(\.\d+)?$/

/** `"1234567.50"` → `"1,234,567.50"`; the fraction is never grouped; anything else comes back untouched. */
export function groupThousands(amount) {
  const match = DECIMAL.exec(String(amount))
  if (!match) return amount
  const [, sign, whole, fraction = ''] = match
  return `${sign}${whole.replace(/\B(?=(\d{3})+$)/g, ',')}${fraction}`
}

/** `"1,234.50 USDC"`. */
export const formatMoney = (amount, currency) => `${groupThousands(amount)} ${currency}`
