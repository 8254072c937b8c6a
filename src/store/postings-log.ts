/**
 * One account's postings: an append-only log of transactions, each a set of lines (ledger account,
 * signed amount in base units) that the ledger has checked to sum to zero per asset.
 *
 * Kept columnar so that a million payments (two transactions, four lines each) cost a few typed
 * arrays instead of millions of objects: ledger account names are interned, a line is an index and
 * a 128-bit amount (ETH has 18 decimals, so 64 bits would overflow at 9.2 ETH), and a transaction is
 * its cause, sandbox time, first line and reference, the references' UTF-8 bytes end to end. Nothing
 * per transaction is a JavaScript object, so the garbage collector has nothing to trace, and a log
 * built on another thread moves here by handing over its buffers (`columns`, `fromColumns`).
 */
import { CAUSES, type Cause, type LedgerTransaction, type PostingLine } from '../model/postings.js'

const GROWTH = 1.5
const INITIAL_CAPACITY = 8
const CAUSE_INDEX = new Map<Cause, number>(CAUSES.map((cause, index) => [cause, index]))
/** A reference is a payment, order or wallet id, or an address: rarely longer than 64 bytes. */
const REF_BYTES = 48

function grown<T extends Uint8Array | Uint32Array | Float64Array | BigInt64Array | BigUint64Array>(array: T, needed: number): T {
  if (needed <= array.length) return array
  const next = new (array.constructor as new (length: number) => T)(Math.max(needed, Math.ceil(array.length * GROWTH)))
  next.set(array as never)
  return next
}

/** A log's state as plain data: typed arrays (transferable between threads) and the ledger account names. */
export interface PostingsColumns {
  names: string[]
  txCount: number
  txCause: Uint8Array
  txAt: Float64Array
  txFirstLine: Uint32Array
  /** End of each transaction's reference in `refBytes`; it starts where the previous one ends. */
  txRefEnd: Uint32Array
  refBytes: Uint8Array
  lineCount: number
  lineAccount: Uint32Array
  lineLo: BigUint64Array
  lineHi: BigInt64Array
}

export class PostingsLog {
  private readonly names: string[] = []
  private readonly nameIndex = new Map<string, number>()

  private txCount = 0
  private txCause: Uint8Array = new Uint8Array(INITIAL_CAPACITY)
  private txAt: Float64Array = new Float64Array(INITIAL_CAPACITY)
  /** Index of the transaction's first line; its last is the next transaction's first, minus one. */
  private txFirstLine: Uint32Array = new Uint32Array(INITIAL_CAPACITY)
  private txRefEnd: Uint32Array = new Uint32Array(INITIAL_CAPACITY)
  // Never from Buffer's shared pool: the whole buffer may be handed to another thread.
  private refBytes: Buffer = Buffer.allocUnsafeSlow(INITIAL_CAPACITY * REF_BYTES)

  private lineCount = 0
  private lineAccount: Uint32Array = new Uint32Array(INITIAL_CAPACITY * 2)
  /** The amount is `(hi << 64) + lo`: a signed 128-bit integer split in two columns. */
  private lineLo: BigUint64Array = new BigUint64Array(INITIAL_CAPACITY * 2)
  private lineHi: BigInt64Array = new BigInt64Array(INITIAL_CAPACITY * 2)

  /** A log from the columns another one handed over (its buffers are used as they are, not copied). */
  static fromColumns(columns: PostingsColumns): PostingsLog {
    const log = new PostingsLog()
    columns.names.forEach((name) => log.intern(name))
    log.txCount = columns.txCount
    log.txCause = columns.txCause
    log.txAt = columns.txAt
    log.txFirstLine = columns.txFirstLine
    log.txRefEnd = columns.txRefEnd
    log.refBytes = Buffer.from(columns.refBytes.buffer, columns.refBytes.byteOffset, columns.refBytes.byteLength)
    log.lineCount = columns.lineCount
    log.lineAccount = columns.lineAccount
    log.lineLo = columns.lineLo
    log.lineHi = columns.lineHi
    return log
  }

  /** The log as columns, to hand to another thread (transfer `transferables(columns)`); the log must not be used after. */
  columns(): PostingsColumns {
    const { names, txCount, txCause, txAt, txFirstLine, txRefEnd, refBytes, lineCount, lineAccount, lineLo, lineHi } = this
    return { names, txCount, txCause, txAt, txFirstLine, txRefEnd, refBytes, lineCount, lineAccount, lineLo, lineHi }
  }

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
      this.txRefEnd = grown(this.txRefEnd, t + 1)
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
    this.appendRef(t, ref)
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
    return { id, cause: CAUSES[this.txCause[t]!]!, ref: this.ref(t), at: this.txAt[t]!, lines }
  }

  /**
   * Transactions `from` to `to` (ids, inclusive) a field at a time, without building them: each
   * call reads one field of all of them (a snapshot's columns, transaction-chunks.ts), so nothing
   * per transaction outlives the column being written.
   */
  fieldsOf(from: number, to: number) {
    const ts = Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from - 1 + i)
    const firstLine = ts.length === 0 ? 0 : this.txFirstLine[ts[0]!]!
    const endLine = ts.length === 0 ? 0 : this.lineEnd(ts.at(-1)!)
    const lines = () => Array.from({ length: endLine - firstLine }, (_, i) => firstLine + i)
    return {
      causes: (): Cause[] => ts.map((t) => CAUSES[this.txCause[t]!]!),
      refs: (): string[] => ts.map((t) => this.ref(t)),
      ats: (): number[] => ts.map((t) => this.txAt[t]!),
      sizes: (): number[] => ts.map((t) => this.lineEnd(t) - this.txFirstLine[t]!),
      accounts: (): string[] => lines().map((line) => this.names[this.lineAccount[line]!]!),
      amounts: (): bigint[] => lines().map((line) => this.amountAt(line)),
    }
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

  private ref(t: number): string {
    return this.refBytes.toString('utf8', t === 0 ? 0 : this.txRefEnd[t - 1]!, this.txRefEnd[t]!)
  }

  private appendRef(t: number, ref: string): void {
    const start = t === 0 ? 0 : this.txRefEnd[t - 1]!
    // At most 3 bytes a UTF-16 unit; grown before the write, which would otherwise cut the reference short.
    if (start + ref.length * 3 > this.refBytes.length) {
      const bigger = Buffer.allocUnsafeSlow(Math.max(start + ref.length * 3, Math.ceil(this.refBytes.length * GROWTH)))
      bigger.set(this.refBytes.subarray(0, start))
      this.refBytes = bigger
    }
    this.txRefEnd[t] = start + this.refBytes.write(ref, start, 'utf8')
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
