import { ASSETS } from '../model/networks.js'
import { formatAmount } from '../money.js'
import { resolveAccount, walletAccount } from '../model/ledger-accounts.js'
import type { LedgerTransaction } from '../model/postings.js'
import type { AccountState } from '../store/account-state.js'
import { isoOf } from '../date-text.js'

/** Reading an account's postings (the control API's `GET /_sandbox/accounts/{id}/postings`). */

/** Newest first, optionally only those touching one wallet. */
export function listTransactions(account: AccountState, walletId: string | undefined, offset: number, limit: number): { items: LedgerTransaction[]; total: number } {
  const log = account.postings
  if (walletId === undefined) {
    const ids: number[] = []
    for (let id = log.size - offset; id > 0 && ids.length < limit; id--) ids.push(id)
    return { items: ids.map((id) => log.transaction(id)), total: log.size }
  }
  const accounts = new Set([walletAccount(walletId, 'available'), walletAccount(walletId, 'locked')])
  const items: LedgerTransaction[] = []
  let total = 0
  for (let id = log.size; id > 0; id--) {
    if (!log.touches(id, accounts)) continue
    if (total >= offset && items.length < limit) items.push(log.transaction(id))
    total++
  }
  return { items, total }
}

export function presentTransaction(account: AccountState, tx: LedgerTransaction) {
  return {
    id: tx.id,
    object: 'ledger_transaction' as const,
    cause: tx.cause,
    reference: tx.ref,
    postings: tx.lines.map(({ account: name, amount }) => {
      // Every line was resolved when it was posted (or loaded), and wallets are never removed.
      const { network, currency, wallet, bucket, counterparty } = resolveAccount(name, (id) => account.wallets.get(id))!
      return { account: name, wallet_id: wallet ? wallet.id : null, bucket: bucket ?? counterparty ?? ('external' as const), amount: formatAmount(amount, ASSETS[network][currency]!), currency, network }
    }),
    created_at: isoOf(tx.at),
  }
}
