import { resolveAccount, walletAccount } from '../model/ledger-accounts.js'
import { ASSETS } from '../model/networks.js'
import { formatAmount } from '../money.js'
import type { Data, TransactionData, WalletBalances } from './data-file.js'

/** A reference between records that does not hold: where (a path into the data) and what. */
export interface Inconsistency {
  path: Array<string | number>
  problem: string
}

/**
 * What the schema cannot see: references between records. A data file or snapshot whose key
 * points at no account, or whose payment moves money out of a wallet that is not there, would
 * load and then fail on first use; it is refused instead, naming the first such problem.
 */
export function firstInconsistency(data: Data): Inconsistency | undefined {
  const accountIds = new Set<string>()
  for (const [index, { account, wallets, payments, payouts, settlements, postings }] of data.accounts.entries()) {
    if (accountIds.has(account.id)) return { path: ['accounts', index, 'account', 'id'], problem: `the account id '${account.id}' appears twice` }
    accountIds.add(account.id)
    const walletIds = new Set<string>()
    for (const [w, wallet] of wallets.entries()) {
      if (walletIds.has(wallet.id)) return { path: ['accounts', index, 'wallets', w, 'id'], problem: `the wallet id '${wallet.id}' appears twice` }
      walletIds.add(wallet.id)
    }
    const paymentIds = new Set<string>()
    for (const [p, payment] of payments.entries()) {
      if (paymentIds.has(payment.id)) return { path: ['accounts', index, 'payments', p, 'id'], problem: `the payment id '${payment.id}' appears twice` }
      paymentIds.add(payment.id)
      if (!walletIds.has(payment.source)) return { path: ['accounts', index, 'payments', p, 'source'], problem: `no wallet '${payment.source}' in account '${account.id}'` }
      if (payment.destination_type === 'wallet' && !walletIds.has(payment.destination)) {
        return { path: ['accounts', index, 'payments', p, 'destination'], problem: `no wallet '${payment.destination}' in account '${account.id}'` }
      }
    }
    for (const [p, payout] of payouts.entries()) {
      const missing = payout.payment_ids.find((id) => !paymentIds.has(id))
      if (missing) return { path: ['accounts', index, 'payouts', p, 'payment_ids'], problem: `no payment '${missing}' in account '${account.id}'` }
    }
    for (const [s, settlement] of settlements.entries()) {
      if (!walletIds.has(settlement.source_wallet)) return { path: ['accounts', index, 'settlements', s, 'source_wallet'], problem: `no wallet '${settlement.source_wallet}' in account '${account.id}'` }
      if (settlement.destination.type === 'wallet' && !walletIds.has(settlement.destination.wallet_id)) {
        return { path: ['accounts', index, 'settlements', s, 'destination', 'wallet_id'], problem: `no wallet '${settlement.destination.wallet_id}' in account '${account.id}'` }
      }
    }
    const unposted = firstPostingsInconsistency(postings, wallets)
    if (unposted) return { path: ['accounts', index, ...unposted.path], problem: unposted.problem }
  }
  const keys = new Set<string>()
  for (const [index, key] of data.keys.entries()) {
    if (keys.has(key.key)) return { path: ['keys', index, 'key'], problem: `the key '${key.key}' appears twice` }
    keys.add(key.key)
    if (!accountIds.has(key.account_id)) return { path: ['keys', index, 'account_id'], problem: `no account '${key.account_id}'` }
  }
  return undefined
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
      if (!resolved) return { path: ['postings', t, 'lines', l, 'account'], problem: `'${line.account}' is no ledger account of this account (wal_…:available, wal_…:locked, or external:, trading: or fees:<network>:<currency>)` }
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
