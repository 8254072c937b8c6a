/**
 * One account's postings: an append-only log of transactions, each a set of lines (ledger account,
 * signed amount in base units) that the ledger has checked to sum to zero per asset.
 *
 * Kept columnar so that a million payments (two transactions, four lines each) cost a few typed
 * arrays instead of millions of objects: ledger account names are interned, a line is an index and
 * a 128-bit amount (ETH has 18 decimals, so 64 bits would overflow at 9.2 ETH), and a transaction is
 * its cause, reference, sandbox time and first line.
 */
import { CAUSES, type Cause, type LedgerTransaction, type PostingLine } from '../model/postings.js'

const GROWTH = 1.5
const INITIAL_CAPACITY = 8
const CAUSE_INDEX = new Map<Cause, number>(CAUSES.map((cause, index) => [cause, index]))

function grown<T extends Uint8Array | Uint32Array | Float64Array | BigInt64Array | BigUint64Array>(array: T, needed: number): T {
  if (needed <= array.length) return array
  const next = new (array.constructor as new (length: number) => T)(Math.max(needed, Math.ceil(array.length * GROWTH)))
  next.set(array as never)
  return next
}

export class PostingsLog {
  private readonly names: string[] = []
  private readonly nameIndex = new Map<string, number>()

  private txCount = 0
  private txCause = new Uint8Array(INITIAL_CAPACITY)
  private txAt = new Float64Array(INITIAL_CAPACITY)
  /** Index of the transaction's first line; its last is the next transaction's first, minus one. */
  private txFirstLine = new Uint32Array(INITIAL_CAPACITY)
  private readonly txRef: string[] = []

  private lineCount = 0
  private lineAccount = new Uint32Array(INITIAL_CAPACITY * 2)
  /** The amount is `(hi << 64) + lo`: a signed 128-bit integer split in two columns. */
  private lineLo = new BigUint64Array(INITIAL_CAPACITY * 2)
  private lineHi = new BigInt64Array(INITIAL_CAPACITY * 2)

  /** Transactions in the log. */
  get size(): number {
    return this.txCount
  }

  /** Appends one transaction; the caller has checked it (balanced, no balance below zero). */
  append(cause: Cause, ref: string, at: number, lines: readonly PostingLine[]): number {
    const t = this.txCount
    // One test per group of columns: growing them is rare, and the test runs for every transaction.
    if (t + 1 > this.txCause.length) {
      this.txCause = grown(this.txCause, t + 1)
      this.txAt = grown(this.txAt, t + 1)
      this.txFirstLine = grown(this.txFirstLine, t + 1)
    }
    const first = this.lineCount
    const end = first + lines.length
    if (end > this.lineAccount.length) {
      this.lineAccount = grown(this.lineAccount, end)
      this.lineLo = grown(this.lineLo, end)
      this.lineHi = grown(this.lineHi, end)
    }
    for (let offset = 0; offset < lines.length; offset++) {
      const line = lines[offset]!
      this.lineAccount[first + offset] = this.intern(line.account)
      this.lineLo[first + offset] = BigInt.asUintN(64, line.amount)
      this.lineHi[first + offset] = BigInt.asIntN(64, line.amount >> 64n)
    }
    this.txCause[t] = CAUSE_INDEX.get(cause)!
    this.txAt[t] = at
    this.txFirstLine[t] = first
    this.txRef.push(ref)
    this.txCount = t + 1
    this.lineCount = end
    return t + 1
  }

  /** The transaction with this id (1-based). */
  transaction(id: number): LedgerTransaction {
    const t = id - 1
    if (t < 0 || t >= this.txCount) throw new RangeError(`no transaction ${id} in a log of ${this.txCount}`)
    const lines: PostingLine[] = []
    for (let line = this.txFirstLine[t]!; line < this.lineEnd(t); line++) lines.push({ account: this.names[this.lineAccount[line]!]!, amount: this.amountAt(line) })
    return { id, cause: CAUSES[this.txCause[t]!]!, ref: this.txRef[t]!, at: this.txAt[t]!, lines }
  }

  /** Whether the transaction has a line on any of these ledger accounts, without building it. */
  touches(id: number, accounts: ReadonlySet<string>): boolean {
    const t = id - 1
    for (let line = this.txFirstLine[t]!; line < this.lineEnd(t); line++) if (accounts.has(this.names[this.lineAccount[line]!]!)) return true
    return false
  }

  /** Every ledger account's balance, recomputed from the lines. */
  balances(): Map<string, bigint> {
    const sums = new Array<bigint>(this.names.length).fill(0n)
    for (let line = 0; line < this.lineCount; line++) sums[this.lineAccount[line]!]! += this.amountAt(line)
    return new Map(this.names.map((name, index) => [name, sums[index]!]))
  }

  *[Symbol.iterator](): IterableIterator<LedgerTransaction> {
    for (let id = 1; id <= this.txCount; id++) yield this.transaction(id)
  }

  private lineEnd(t: number): number {
    return t + 1 < this.txCount ? this.txFirstLine[t + 1]! : this.lineCount
  }

  private amountAt(line: number): bigint {
    return (this.lineHi[line]! << 64n) + this.lineLo[line]!
  }

  private intern(name: string): number {
    let index = this.nameIndex.get(name)
    if (index === undefined) {
      index = this.names.length
      this.names.push(name)
      this.nameIndex.set(name, index)
    }
    return index
  }
}
