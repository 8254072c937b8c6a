import { openingBalanceLines } from '../model/ledger-accounts.js'
import type { TransactionData, WalletBalances } from '../schemas/data-file.js'
import type { Cause, LedgerTransaction, PostingLine } from '../model/postings.js'
import { PostingsLog } from './postings-log.js'
import { isoOf } from '../date-text.js'

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

function lastIsoOf(at: number): string {
  if (at !== renderedAt) {
    renderedIso = isoOf(at)
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

/**
 * A transaction as the ledger posted it (amounts as bigints), the value of its change set's append:
 * the memory store appends it as it is, and only a data file's journal writes its data form
 * (`journalEntry`). Converting every transaction to the data form for the change set made two
 * digit strings, a data object and its lines on every payment, most of them never written.
 */
export class PostedTransaction {
  constructor(
    readonly cause: Cause,
    readonly ref: string,
    /** Sandbox time, ms. */
    readonly at: number,
    readonly lines: readonly PostingLine[],
  ) {}
}

/** One transaction as the data file, a snapshot line and a journal `append` hold it. */
export function transactionToData(tx: Pick<LedgerTransaction, 'cause' | 'ref' | 'at'> & { lines: readonly PostingLine[] }): TransactionData {
  return { cause: tx.cause, ref: tx.ref, at: lastIsoOf(tx.at), lines: tx.lines.map((line) => ({ account: line.account, amount: String(line.amount) })) }
}

/** A postings append's value as a journal line holds it: the data form of a posted transaction, a read one as it is. */
export const journalEntry = (tx: PostedTransaction | TransactionData): TransactionData => (tx instanceof PostedTransaction ? transactionToData(tx) : tx)

/** Appends a posted transaction, or one read from a data file or journal. */
export function appendTransactionData(log: PostingsLog, tx: PostedTransaction | TransactionData): void {
  if (tx instanceof PostedTransaction) log.append(tx.cause, tx.ref, tx.at, tx.lines)
  else log.append(tx.cause, tx.ref, timeOf(tx.at), tx.lines.map((line) => ({ account: line.account, amount: BigInt(line.amount) })))
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
