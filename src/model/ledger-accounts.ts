import { ASSETS, type Network } from './networks.js'
import type { PostingLine } from './postings.js'

/**
 * The ledger accounts of the postings (ARCHITECTURE.md "Money"), named so that a data file reads
 * plainly: `<wallet id>:available` and `<wallet id>:locked` for each wallet (locked is its money in
 * flight), `external:<network>:<currency>` for the world outside the sandbox, and for trading
 * (CONTRACT.md section 15) `trading:<network>:<currency>`, the desk an order's fills exchange with,
 * and `fees:<network>:<currency>`, where taker fees go.
 */

/** Whether a network has this currency (ASSETS). */
export const isAsset = (network: string, currency: string) => Object.hasOwn(ASSETS, network) && Object.hasOwn(ASSETS[network as Network], currency)

export type Bucket = 'available' | 'locked'

export const walletAccount = (walletId: string, bucket: Bucket) => `${walletId}:${bucket}`
export const externalAccount = (network: string, currency: string) => `external:${network}:${currency}`
export const tradingAccount = (network: string, currency: string) => `trading:${network}:${currency}`
export const feeAccount = (network: string, currency: string) => `fees:${network}:${currency}`

/** The accounts that are not a wallet's: money outside the sandbox, the trading desk, collected fees. */
export const COUNTERPARTIES = ['external', 'trading', 'fees'] as const
export type Counterparty = (typeof COUNTERPARTIES)[number]

export type ParsedAccount = { kind: 'wallet'; walletId: string; bucket: Bucket } | { kind: 'external'; counterparty: Counterparty; network: string; currency: string }

/**
 * Names parsed lately, with what they parsed to (shared, never changed): an order's fill posts
 * seven lines on the same few accounts, tick after tick. Cleared when full.
 */
const parsed = new Map<string, Readonly<ParsedAccount> | null>()
const PARSED_KEPT = 4096

export function parseAccount(name: string): Readonly<ParsedAccount> | undefined {
  let known = parsed.get(name)
  if (known === undefined) {
    known = parseName(name) ?? null
    if (parsed.size >= PARSED_KEPT) parsed.clear()
    parsed.set(name, known)
  }
  return known ?? undefined
}

function parseName(name: string): ParsedAccount | undefined {
  const external = /^(external|trading|fees):([a-z]+):([A-Z]+)$/.exec(name)
  if (external) return { kind: 'external', counterparty: external[1] as Counterparty, network: external[2]!, currency: external[3]! }
  const wallet = /^(wal_[A-Za-z0-9]+):(available|locked)$/.exec(name)
  if (wallet) return { kind: 'wallet', walletId: wallet[1]!, bucket: wallet[2] as Bucket }
  return undefined
}

/** What a ledger account holds; for a wallet's account, also the wallet and which of its balances. */
export interface ResolvedAccount<W> {
  network: Network
  currency: string
  /** `<network>:<currency>`: the unit in which a transaction must balance. */
  asset: string
  wallet?: W
  bucket?: Bucket
  /** For an account that is not a wallet's: which one. */
  counterparty?: Counterparty
}

/** Undefined for a name that is no ledger account of these wallets (or of a known asset). */
export function resolveAccount<W extends { network: Network; currency: string }>(name: string, wallet: (id: string) => W | undefined): ResolvedAccount<W> | undefined {
  const parsed = parseAccount(name)
  if (!parsed) return undefined
  if (parsed.kind === 'external') {
    if (!isAsset(parsed.network, parsed.currency)) return undefined
    return { network: parsed.network as Network, currency: parsed.currency, asset: `${parsed.network}:${parsed.currency}`, counterparty: parsed.counterparty }
  }
  const found = wallet(parsed.walletId)
  return found && { network: found.network, currency: found.currency, asset: `${found.network}:${found.currency}`, wallet: found, bucket: parsed.bucket }
}

/** A balance that was there before any posting (seed, or data written before postings existed) comes from outside. */
export function openingBalanceLines(wallet: { id: string; network: string; currency: string }, balance: { available: bigint; locked: bigint }): PostingLine[] {
  const lines: PostingLine[] = [{ account: externalAccount(wallet.network, wallet.currency), amount: -(balance.available + balance.locked) }]
  if (balance.available !== 0n) lines.push({ account: walletAccount(wallet.id, 'available'), amount: balance.available })
  if (balance.locked !== 0n) lines.push({ account: walletAccount(wallet.id, 'locked'), amount: balance.locked })
  return lines.length > 1 ? lines : []
}
