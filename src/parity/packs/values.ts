/**
 * The constants the packs send: external addresses valid on each network (none of them a magic
 * address of the sandbox), a small amount of each currency, the trade and the settlement a source
 * currency allows. They are the same on both sides, so an answer that echoes them compares.
 */

/** Valid, checksummed, and nobody's magic value: payments to them complete normally. */
export const EXTERNAL_ADDRESSES: Readonly<Record<string, string>> = {
  polygon: '0x52908400098527886E0F7030069857D2E4169EE7',
  ethereum: '0x52908400098527886E0F7030069857D2E4169EE7',
  stellar: 'GAFTAVL2T7COSDRTLB62FR7MCE3FXAFFZLXRIOK6QOUM34QXHRQYMVIT',
  solana: 'kgERWXbLfq6MHcWLd86a5dpmSvM86QhQrQjL2gGPbnD',
}

export const addressOn = (network: string): string => EXTERNAL_ADDRESSES[network] ?? EXTERNAL_ADDRESSES.polygon!

/** Ids of the right form that no account holds. */
export const UNKNOWN = {
  wallet: 'wal_000000000000000000000000',
  payment: 'pay_000000000000000000000000',
  payout: 'po_000000000000000000000000',
  order: 'ord_000000000000000000000000',
  settlement: 'stl_000000000000000000000000',
  webhook: 'whk_000000000000000000000000',
}

/** What a settlement moves: worth about a dollar, above every fee. */
const SETTLEMENT_AMOUNTS: Readonly<Record<string, string>> = { USDC: '1.00', USDT: '1.00', ETH: '0.001', SOL: '0.01', MATIC: '2.00', XLM: '10.00' }
export const settlementAmount = (currency: string): string => SETTLEMENT_AMOUNTS[currency] ?? '1.00'

/** Where a settlement from `currency` on `network` goes when its destination is a wallet: the same currency on another network, else USDC. */
export function settlementDestination(currency: string, network: string): { currency: string; network: string } {
  const networks: Readonly<Record<string, readonly string[]>> = { USDC: ['polygon', 'ethereum', 'stellar', 'solana'], USDT: ['polygon', 'ethereum'] }
  const other = networks[currency]?.find((candidate) => candidate !== network)
  return other ? { currency, network: other } : { currency: 'USDC', network: network in EXTERNAL_ADDRESSES ? network : 'polygon' }
}

/**
 * The trade a funded wallet allows: a buy when its currency is a pair's quote, a sell when it is a
 * base. `other` is the pair's other leg, a wallet the pack creates; `farLimit` a limit price no tick
 * reaches, so that the limit order rests; `belowMin` an amount under the pair's `min_amount`.
 */
export interface Trade {
  pair: string
  side: 'buy' | 'sell'
  other: { currency: string; network: string }
  amount: string
  farLimit: string
  belowMin: string
}

const TRADES: Readonly<Record<string, Trade>> = {
  USDC: { pair: 'ETH/USDC', side: 'buy', other: { currency: 'ETH', network: 'ethereum' }, amount: '0.001', farLimit: '0.01', belowMin: '0.0001' },
  USDT: { pair: 'ETH/USDT', side: 'buy', other: { currency: 'ETH', network: 'ethereum' }, amount: '0.001', farLimit: '0.01', belowMin: '0.0001' },
  ETH: { pair: 'ETH/USDC', side: 'sell', other: { currency: 'USDC', network: 'ethereum' }, amount: '0.001', farLimit: '1000000', belowMin: '0.0001' },
  SOL: { pair: 'SOL/USDC', side: 'sell', other: { currency: 'USDC', network: 'solana' }, amount: '0.01', farLimit: '1000000', belowMin: '0.001' },
  MATIC: { pair: 'MATIC/USDC', side: 'sell', other: { currency: 'USDC', network: 'polygon' }, amount: '1', farLimit: '1000', belowMin: '0.5' },
  XLM: { pair: 'XLM/USDC', side: 'sell', other: { currency: 'USDC', network: 'stellar' }, amount: '1', farLimit: '1000', belowMin: '0.5' },
}

export const tradeFor = (currency: string): Trade => TRADES[currency] ?? TRADES.USDC!

/** An all-lower-case EVM address (valid without a checksum) of the run's own, so a whitelist entry of an earlier run left behind never collides. */
export const runAddress = (run: string): string => `0x${run.padStart(40, '0')}`
