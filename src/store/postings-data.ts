import { openingBalanceLines } from '../model/ledger-accounts.js'
import type { TransactionData, WalletBalances } from '../schemas/data-file.js'
import type { LedgerTransaction, PostingLine } from '../model/postings.js'
import { PostingsLog } from './postings-log.js'

/** An account's postings to and from the data file's form (`schemas/data-file.ts`). */

export function postingsToData(log: PostingsLog): TransactionData[] {
  const out: TransactionData[] = []
  for (const tx of log) out.push(transactionToData(tx))
  return out
}

// The time last rendered and parsed: the transactions of one instant (every fill of a tick, two
// transactions each) share it, and rendering or parsing a date is most of converting a transaction.
let renderedAt = Number.NaN
let renderedIso = ''
let parsedIso = ''
let parsedAt = Number.NaN

function isoOf(at: number): string {
  if (at !== renderedAt) {
    renderedIso = new Date(at).toISOString()
    renderedAt = at
  }
  return renderedIso
}

function timeOf(iso: string): number {
  if (iso !== parsedIso) {
    parsedAt = Date.parse(iso)
    parsedIso = iso
  }
  return parsedAt
}

// The transaction converted last and the lines it was converted from: the ledger converts a
// transaction for its change set, and the store appends that very data a moment later; it takes
// the amounts as they were instead of parsing back the texts just written (the same values).
let lastData: TransactionData | undefined
let lastLines: readonly PostingLine[] = []

/** One transaction as the data file, a snapshot line and a journal `append` hold it. */
export function transactionToData(tx: Pick<LedgerTransaction, 'cause' | 'ref' | 'at'> & { lines: readonly PostingLine[] }): TransactionData {
  const data = { cause: tx.cause, ref: tx.ref, at: isoOf(tx.at), lines: tx.lines.map((line) => ({ account: line.account, amount: String(line.amount) })) }
  lastData = data
  lastLines = tx.lines
  return data
}

export function appendTransactionData(log: PostingsLog, tx: TransactionData): void {
  const lines = tx === lastData ? lastLines : tx.lines.map((line) => ({ account: line.account, amount: BigInt(line.amount) }))
  log.append(tx.cause, tx.ref, timeOf(tx.at), lines)
}

/** The log of loaded data. */
export function postingsFromData(transactions: TransactionData[] | undefined, wallets: Iterable<WalletBalances>): PostingsLog {
  const log = new PostingsLog()
  if (transactions === undefined) {
    // Migration: the balances were there before postings were kept; as of the wallet's last change.
    for (const wallet of wallets) {
      const lines = openingBalanceLines(wallet, { available: BigInt(wallet.available), locked: BigInt(wallet.locked) })
      if (lines.length) log.append('opening_balance', wallet.id, Date.parse(wallet.updated_at), lines)
    }
    return log
  }
  for (const tx of transactions) appendTransactionData(log, tx)
  return log
}
