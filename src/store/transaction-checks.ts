import { CAUSES } from '../model/postings.js'

/**
 * Checks without zod for transactions read from a data file (one per payment and more): the loader
 * tests each with these first and runs the schema (TransactionDataSchema, TransactionLineSchema) only
 * when they fail, to name the problem. Each takes exactly what its schema would pass unchanged. Apart
 * from plain-checks.ts so that the thread loading a snapshot's postings does not load zod.
 */
const CAUSE_SET: ReadonlySet<unknown> = new Set(CAUSES)
const NON_ZERO_UNITS = /^-?[1-9]\d*$/

/** What TransactionDataSchema accepts, without building a copy of it. */
export function isTransactionData(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false
  const tx = value as Record<string, unknown>
  if (!CAUSE_SET.has(tx.cause) || typeof tx.ref !== 'string' || typeof tx.at !== 'string' || Number.isNaN(Date.parse(tx.at))) return false
  const lines = tx.lines
  if (!Array.isArray(lines) || lines.length === 0) return false
  for (const line of lines) {
    if (line === null || typeof line !== 'object' || typeof line.account !== 'string' || typeof line.amount !== 'string' || !NON_ZERO_UNITS.test(line.amount)) return false
  }
  return true
}

/** What TransactionLineSchema accepts: `[cause, ref, at, [[account, amount], …]]` and nothing more. */
export function isTransactionLine(value: unknown): boolean {
  if (!Array.isArray(value) || value.length !== 4) return false
  const [cause, ref, at, lines] = value as unknown[]
  if (!CAUSE_SET.has(cause) || typeof ref !== 'string' || typeof at !== 'string' || Number.isNaN(Date.parse(at))) return false
  if (!Array.isArray(lines) || lines.length === 0) return false
  for (const line of lines) {
    if (!Array.isArray(line) || line.length !== 2 || typeof line[0] !== 'string' || typeof line[1] !== 'string' || !NON_ZERO_UNITS.test(line[1])) return false
  }
  return true
}
