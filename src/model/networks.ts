/** The networks the sandbox emulates and the assets on each: plain data every layer shares. */

export const NETWORKS = ['polygon', 'ethereum', 'stellar', 'solana'] as const
export type Network = (typeof NETWORKS)[number]

/** Asset codes and their decimals per network. */
export const ASSETS: Readonly<Record<Network, Readonly<Record<string, number>>>> = Object.freeze({
  polygon: Object.freeze({ USDC: 6, USDT: 6, MATIC: 18 }),
  ethereum: Object.freeze({ USDC: 6, USDT: 6, ETH: 18 }),
  stellar: Object.freeze({ USDC: 7, XLM: 7 }),
  solana: Object.freeze({ USDC: 6, SOL: 9 }),
})

/** Every asset code once, sorted. */
export const CURRENCIES: readonly string[] = Object.freeze(
  [...new Set(NETWORKS.flatMap((network) => Object.keys(ASSETS[network])))].sort(),
)

export function isNetwork(value: string): value is Network {
  return (NETWORKS as readonly string[]).includes(value)
}

export function assetDecimals(network: Network, currency: string): number | undefined {
  const assets = ASSETS[network]
  // hasOwn keeps prototype names such as 'toString' from looking like assets.
  return Object.hasOwn(assets, currency) ? assets[currency] : undefined
}
