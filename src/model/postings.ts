/** What a posting is (ARCHITECTURE.md "Money"); the log that keeps them is `store/postings-log.ts`. */

export const CAUSES = ['opening_balance', 'deposit', 'payment.created', 'payment.completed', 'payment.failed', 'payout.created', 'order.locked', 'order.filled', 'order.released',
  // A settlement: total debit locked, sent out of the source wallet, credited to a destination wallet, released (failed before it left) or refunded.
  'settlement.created', 'settlement.sent', 'settlement.credited', 'settlement.released', 'settlement.refunded'] as const
export type Cause = (typeof CAUSES)[number]

export interface PostingLine {
  /** `wal_…:available`, `wal_…:locked` or `external:<network>:<currency>`. */
  account: string
  /** Base units; negative leaves the account, positive enters it. */
  amount: bigint
}

export interface LedgerTransaction {
  /** Position in the log, from 1. */
  id: number
  cause: Cause
  /** What caused it: a payment, payout, order or wallet id, or a deposit's sending address. */
  ref: string
  /** Sandbox time, ms since the epoch. */
  at: number
  lines: PostingLine[]
}
