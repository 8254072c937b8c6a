import { resolveAccount, walletAccount } from '../model/ledger-accounts.js'
import type { AccountState } from '../store/account-state.js'

/**
 * The invariants of the postings ledger, checked from scratch: what a property test (or a
 * suspicious user) runs after every step. An empty answer means the account's books are sound.
 */
export function findLedgerViolations(account: AccountState): string[] {
  const violations: string[] = []
  const wallet = (id: string) => account.wallets.get(id)

  for (const tx of account.postings) {
    const perAsset = new Map<string, bigint>()
    for (const line of tx.lines) {
      const resolved = resolveAccount(line.account, wallet)
      if (!resolved) violations.push(`transaction ${tx.id} (${tx.cause} ${tx.ref}) posts to ${line.account}, which is no ledger account`)
      else perAsset.set(resolved.asset, (perAsset.get(resolved.asset) ?? 0n) + line.amount)
    }
    for (const [asset, sum] of perAsset) if (sum !== 0n) violations.push(`transaction ${tx.id} (${tx.cause} ${tx.ref}) does not balance: ${asset} sums to ${sum}`)
  }

  const balances = account.postings.balances()
  const conserved = new Map<string, bigint>()
  for (const [name, units] of balances) {
    const resolved = resolveAccount(name, wallet)
    if (resolved) conserved.set(resolved.asset, (conserved.get(resolved.asset) ?? 0n) + units)
  }
  for (const [asset, sum] of conserved) if (sum !== 0n) violations.push(`${asset} is not conserved: the ledger accounts sum to ${sum}, not 0`)

  for (const record of account.wallets.values()) {
    for (const bucket of ['available', 'locked'] as const) {
      const posted = balances.get(walletAccount(record.id, bucket)) ?? 0n
      if (record[bucket] !== posted) violations.push(`wallet ${record.id}: cached ${bucket} ${record[bucket]} differs from its postings, ${posted}`)
      if (record[bucket] < 0n) violations.push(`wallet ${record.id}: ${bucket} is negative (${record[bucket]})`)
    }
  }
  return violations
}
