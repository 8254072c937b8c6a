import type { WalletRecord } from '../store/records.js'

/**
 * The only functions that change balances. Each one moves base units between buckets so that
 * nothing is created or destroyed except by `credit` (deposits, internal arrivals) and
 * `settleOut` (funds leaving the source when a payment completes).
 */

/** Payment created: available → locked. Callers check `available` first. */
export function lock(wallet: WalletRecord, units: bigint): void {
  if (units <= 0n || wallet.available < units) throw new RangeError(`cannot lock ${units} of ${wallet.available} on ${wallet.id}`)
  wallet.available -= units
  wallet.locked += units
}

/** Payment failed: locked → available. */
export function release(wallet: WalletRecord, units: bigint): void {
  if (wallet.locked < units) throw new RangeError(`cannot release ${units} of ${wallet.locked} locked on ${wallet.id}`)
  wallet.locked -= units
  wallet.available += units
}

/** Payment completed: the amount leaves the source's locked balance. */
export function settleOut(wallet: WalletRecord, units: bigint): void {
  if (wallet.locked < units) throw new RangeError(`cannot settle ${units} of ${wallet.locked} locked on ${wallet.id}`)
  wallet.locked -= units
}

/** Deposit, or an internal payment arriving. */
export function credit(wallet: WalletRecord, units: bigint): void {
  if (units <= 0n) throw new RangeError(`cannot credit ${units} to ${wallet.id}`)
  wallet.available += units
}
