import * as z from 'zod'
import { ASSETS, type Network } from '../model/networks.js'
import { formatAmount } from '../money.js'
import { openingBalanceLines, resolveAccount, walletAccount } from './ledger-accounts.js'
import { CAUSES, PostingsLog } from './postings-log.js'

/**
 * An account's postings as the data file (and a snapshot) holds them: one object per transaction,
 * in log order (its position is its id), amounts as signed base units. Data written before
 * postings existed has none; it loads with one opening-balance transaction per funded wallet.
 */
export const TransactionDataSchema = z.object({
  cause: z.enum(CAUSES),
  ref: z.string(),
  at: z.string().refine((value) => !Number.isNaN(Date.parse(value)), 'expected an ISO 8601 timestamp'),
  lines: z
    .array(z.object({ account: z.string(), amount: z.string().regex(/^-?[1-9]\d*$/, 'expected non-zero base units as a string of digits, with a sign when negative') }))
    .min(1),
})
export type TransactionData = z.infer<typeof TransactionDataSchema>

interface WalletBalances {
  id: string
  network: Network
  currency: string
  updated_at: string
  available: string | bigint
  locked: string | bigint
}

export function postingsToData(log: PostingsLog): TransactionData[] {
  const out: TransactionData[] = []
  for (const tx of log) {
    out.push({ cause: tx.cause, ref: tx.ref, at: new Date(tx.at).toISOString(), lines: tx.lines.map((line) => ({ account: line.account, amount: String(line.amount) })) })
  }
  return out
}

/**
 * The log of loaded data. `canonicalRef` hands back the string the records already hold for a
 * reference (the payment's own id), so a million parsed copies are not kept twice.
 */
export function postingsFromData(transactions: TransactionData[] | undefined, wallets: Iterable<WalletBalances>, canonicalRef: (ref: string) => string = (ref) => ref): PostingsLog {
  const log = new PostingsLog()
  if (transactions === undefined) {
    // Migration: the balances were there before postings were kept; as of the wallet's last change.
    for (const wallet of wallets) {
      const lines = openingBalanceLines(wallet, { available: BigInt(wallet.available), locked: BigInt(wallet.locked) })
      if (lines.length) log.append('opening_balance', wallet.id, Date.parse(wallet.updated_at), lines)
    }
    return log
  }
  for (const tx of transactions) {
    log.append(tx.cause, canonicalRef(tx.ref), Date.parse(tx.at), tx.lines.map((line) => ({ account: line.account, amount: BigInt(line.amount) })))
  }
  return log
}

/** Base units of a value the schema may have refused already (zod runs refinements on such data too). */
const unitsOf = (value: string | bigint): bigint | undefined => (typeof value === 'bigint' ? value : /^-?\d+$/.test(value) ? BigInt(value) : undefined)

/**
 * What the schema cannot see in an account's postings: lines on accounts that do not exist, a
 * transaction that does not sum to zero per asset, and wallet balances that are not what the
 * postings add up to, or below zero (also for data without postings, which migrates them as they
 * are). `path` is relative to the account's data.
 */
export function firstPostingsInconsistency(
  transactions: TransactionData[] | undefined,
  wallets: readonly WalletBalances[],
): { path: Array<string | number>; problem: string } | undefined {
  const byId = new Map(wallets.map((wallet) => [wallet.id, wallet]))
  const sums = new Map<string, bigint>()
  for (const [t, tx] of (transactions ?? []).entries()) {
    const perAsset = new Map<string, bigint>()
    for (const [l, line] of tx.lines.entries()) {
      const resolved = resolveAccount(line.account, (id) => byId.get(id))
      if (!resolved) return { path: ['postings', t, 'lines', l, 'account'], problem: `'${line.account}' is no ledger account of this account (wal_…:available, wal_…:locked or external:<network>:<currency>)` }
      const amount = unitsOf(line.amount)
      if (amount === undefined) return undefined
      perAsset.set(resolved.asset, (perAsset.get(resolved.asset) ?? 0n) + amount)
      sums.set(line.account, (sums.get(line.account) ?? 0n) + amount)
    }
    for (const [asset, sum] of perAsset) {
      if (sum !== 0n) return { path: ['postings', t], problem: `transaction ${t + 1} (${tx.cause} ${tx.ref}) does not balance: its ${asset.replace(':', ' ')} lines sum to ${sum} base units, not 0` }
    }
  }
  for (const [w, wallet] of wallets.entries()) {
    const decimals = ASSETS[wallet.network][wallet.currency] ?? 0
    const show = (units: bigint) => `${formatAmount(units, decimals)} ${wallet.currency}`
    for (const bucket of ['available', 'locked'] as const) {
      const cached = unitsOf(wallet[bucket])
      if (cached === undefined) return undefined
      const posted = transactions === undefined ? cached : (sums.get(walletAccount(wallet.id, bucket)) ?? 0n)
      if (cached !== posted) return { path: ['wallets', w, bucket], problem: `wallet ${wallet.id} has ${bucket} ${show(cached)} but its postings add up to ${show(posted)}` }
      if (posted < 0n) return { path: ['wallets', w, bucket], problem: `wallet ${wallet.id} has a negative ${bucket} balance (${show(posted)})` }
    }
  }
  return undefined
}
