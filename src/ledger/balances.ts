import { externalAccount, openingBalanceLines, resolveAccount, walletAccount, type Bucket } from '../model/ledger-accounts.js'
import type { Cause, PostingLine } from '../model/postings.js'
import type { WalletRecord } from '../model/records.js'
import type { AccountState } from '../store/account-state.js'

/**
 * The only functions that move money (CONTRACT.md section 5, ARCHITECTURE.md "Money"). Each posts
 * one balanced transaction to the account's postings log and, in the same step, updates the
 * wallets' `available`/`locked`, which are a cache of those postings. Money enters and leaves the
 * sandbox only through the external account of its network and currency.
 */

/** Why money moved: the transaction's cause, what it refers to, and its sandbox time (ms). */
export interface Reason {
  cause: Cause
  ref: string
  at: number
}

/**
 * Checks the whole transaction first (known accounts, non-zero lines, a zero sum per asset, no
 * wallet balance below zero), then appends it and updates the cache: all or nothing. The callers
 * have checked balances already, so a refusal is a bug and throws a plain RangeError (a 500).
 */
export function post(account: AccountState, reason: Reason, lines: readonly PostingLine[]): void {
  const refuse = (problem: string) => new RangeError(`${reason.cause} ${reason.ref}: ${problem}`)
  const sums = new Map<string, bigint>()
  const cache = new Map<string, { wallet: WalletRecord; bucket: Bucket; units: bigint }>()
  for (const { account: name, amount } of lines) {
    const resolved = resolveAccount(name, (id) => account.wallets.get(id))
    if (!resolved) throw refuse(`no ledger account ${name}`)
    if (amount === 0n) throw refuse(`a posting of zero on ${name}`)
    sums.set(resolved.asset, (sums.get(resolved.asset) ?? 0n) + amount)
    const { wallet, bucket } = resolved
    if (!wallet || !bucket) continue
    const entry = cache.get(name) ?? { wallet, bucket, units: wallet[bucket] }
    entry.units += amount
    cache.set(name, entry)
  }
  for (const [asset, sum] of sums) if (sum !== 0n) throw refuse(`${asset} sums to ${sum}, not zero`)
  for (const [name, { units }] of cache) if (units < 0n) throw refuse(`${name} would fall to ${units}`)

  account.postings.append(reason.cause, reason.ref, reason.at, lines)
  for (const { wallet, bucket, units } of cache.values()) wallet[bucket] = units
}

function transfer(account: AccountState, reason: Reason, from: string, to: string, units: bigint): void {
  post(account, reason, [
    { account: from, amount: -units },
    { account: to, amount: units },
  ])
}

const available = (wallet: WalletRecord) => walletAccount(wallet.id, 'available')
const locked = (wallet: WalletRecord) => walletAccount(wallet.id, 'locked')
const outside = (wallet: WalletRecord) => externalAccount(wallet.network, wallet.currency)

/** A seeded wallet's balance: it comes from outside the sandbox. */
export function openBalance(account: AccountState, wallet: WalletRecord, units: bigint, at: number): void {
  const lines = openingBalanceLines(wallet, { available: units, locked: 0n })
  if (lines.length) post(account, { cause: 'opening_balance', ref: wallet.id, at }, lines)
}

/** Funds arriving from outside (control API deposit); `from` is the sending address. */
export function deposit(account: AccountState, wallet: WalletRecord, units: bigint, from: string, at: number): void {
  transfer(account, { cause: 'deposit', ref: from, at }, outside(wallet), available(wallet), units)
}

/** Payment (or whole payout) created: available → locked. Callers check `available` first. */
export function lock(account: AccountState, wallet: WalletRecord, units: bigint, reason: Reason): void {
  transfer(account, reason, available(wallet), locked(wallet), units)
}

/** Payment failed: locked → available. */
export function release(account: AccountState, wallet: WalletRecord, units: bigint, reason: Reason): void {
  transfer(account, reason, locked(wallet), available(wallet), units)
}

/** Payment completed: locked → the recipient wallet's available, or out of the sandbox to an address. */
export function settle(account: AccountState, source: WalletRecord, units: bigint, recipient: WalletRecord | undefined, reason: Reason): void {
  transfer(account, reason, locked(source), recipient ? available(recipient) : outside(source), units)
}
