import { FacetIndex } from './facet-index.js'
import { IdTable } from './id-table.js'
import type { PaymentRecord, PaymentStatus } from '../model/records.js'

export interface PaymentFilter {
  status?: PaymentStatus
  currency?: string
  recipient_id?: string
  source_wallet?: string
}

/**
 * One account's payments, indexed for every combination of the list's filters (facet-index.ts), so
 * that a list with a million payments costs what the page costs, whichever filters it names.
 */
export class PaymentIndex {
  private readonly byId = new IdTable<PaymentRecord>((p) => p.id)
  // Highest cardinality first (see FacetIndex): recipients, source wallets, currencies, statuses.
  // A payment's currency is its source wallet's.
  private readonly facets = new FacetIndex<PaymentRecord>(
    [{ key: (p) => recipientKey(p.destination) }, { key: (p) => p.source }, { key: (p) => p.currency, impliedBy: 1 }, { key: (p) => p.status }],
    (p) => p.seq,
  )

  /** Payments put again since `changedChunks` last ran; undefined until it first runs (nothing asks). */
  private changed: Set<PaymentRecord> | undefined

  get size(): number {
    return this.facets.all.length
  }

  nextSeq(): number {
    const { all } = this.facets
    return all.length === 0 ? 1 : all[all.length - 1]!.seq + 1
  }

  get(id: string): PaymentRecord | undefined {
    return this.byId.get(id)
  }

  values(): readonly PaymentRecord[] {
    return this.facets.all
  }

  add(payment: PaymentRecord): void {
    if (!this.addNew(payment)) throw new Error(`payment '${payment.id}' is in the index already`)
  }

  /** Adds a payment whose id is new; false (and nothing added) when the id is here already. */
  addNew(payment: PaymentRecord): boolean {
    return this.addOrFind(payment) === undefined
  }

  /** Adds a payment whose id is new and answers undefined; when the id is here, answers that payment (nothing added). */
  addOrFind(payment: PaymentRecord): PaymentRecord | undefined {
    const found = this.byId.addOrFind(payment)
    if (found === undefined) this.facets.add(payment)
    return found
  }

  /**
   * Adds a payment of a data file being loaded: by id at once (false, and nothing added, when the
   * id is here), to the lists of every filter only at `loaded()` (or the first list), which lists
   * every payment in one pass. Payments added or changed meanwhile (a journal replayed) wait too.
   */
  load(payment: PaymentRecord): boolean {
    if (!this.byId.addNew(payment)) return false
    this.facets.push(payment)
    return true
  }

  loaded(): void {
    this.facets.settle()
  }

  /**
   * The chunks (`size` payments each, in creation order) that hold a payment put again since the
   * last call, which starts the count afresh: what a compaction must write anew rather than copy
   * from the snapshot before it. Undefined on the first call (every chunk is new to it). Only a
   * data file asks, so a store in memory keeps no such set.
   */
  changedChunks(size: number): Set<number> | undefined {
    const changed = this.changed
    this.changed = new Set()
    if (!changed) return undefined
    this.facets.settle()
    const chunks = new Set<number>()
    for (const payment of changed) {
      const ordinal = this.facets.ordinalOf(payment)
      if (ordinal === undefined) return undefined
      chunks.add(Math.floor(ordinal / size))
    }
    return chunks
  }

  /** Call after a put of `payment`, whose status was `previous` (the only field of a payment a list filters by that changes). */
  statusChanged(payment: PaymentRecord, previous: PaymentStatus): void {
    this.changed?.add(payment)
    if (previous === payment.status) return
    const keys = this.facets.keysOf(payment)
    keys[STATUS] = previous
    this.facets.changed(payment, keys)
  }

  /** Payments to or from a wallet that are not final yet. */
  hasOpenPayments(walletId: string): boolean {
    return OPEN.some((status) => this.count({ source_wallet: walletId, status }) > 0 || this.count({ recipient_id: walletId, status }) > 0)
  }

  /** Newest first. */
  list(filter: PaymentFilter, offset: number, limit: number): { items: PaymentRecord[]; total: number } {
    const recipient = filter.recipient_id === undefined ? undefined : recipientKey(filter.recipient_id)
    return this.facets.query([recipient, filter.source_wallet, filter.currency, filter.status], offset, limit)
  }

  private count(filter: PaymentFilter): number {
    return this.list(filter, 0, 0).total
  }
}

const STATUS = 3
const OPEN: readonly PaymentStatus[] = ['pending', 'processing']

/** EVM addresses compare case-insensitively; wallet ids and other addresses as they are. */
export const recipientKey = (destination: string) =>
  destination.startsWith('0x') || destination.startsWith('0X') ? destination.toLowerCase() : destination
