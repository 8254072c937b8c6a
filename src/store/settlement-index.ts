import type { SettlementRecord, SettlementStatus } from '../model/records.js'
import { bucket, insertSorted, removeSorted } from './seq-lists.js'

export interface SettlementFilter {
  status?: SettlementStatus
  destination_type?: SettlementRecord['destination']['type']
}

/**
 * One account's settlements, in creation order, with an index per filter: the destination type
 * never changes (append-only lists), a status change moves a settlement between lists kept sorted
 * by `seq`. A page walks the smaller list and tests the other filter on each entry.
 */
export class SettlementIndex {
  private readonly byId = new Map<string, SettlementRecord>()
  private readonly all: SettlementRecord[] = []
  private readonly byStatus = new Map<SettlementStatus, SettlementRecord[]>()
  private readonly byType = new Map<string, SettlementRecord[]>()

  get size(): number {
    return this.all.length
  }

  nextSeq(): number {
    return this.all.length === 0 ? 1 : this.all[this.all.length - 1]!.seq + 1
  }

  get(id: string): SettlementRecord | undefined {
    return this.byId.get(id)
  }

  values(): readonly SettlementRecord[] {
    return this.all
  }

  /** Adds a new settlement, or updates a stored one in place (references held by timers stay valid). */
  put(value: SettlementRecord): void {
    const existing = this.byId.get(value.id)
    if (!existing) {
      this.byId.set(value.id, value)
      this.all.push(value)
      bucket(this.byType, value.destination.type).push(value)
      insertSorted(bucket(this.byStatus, value.status), value)
      return
    }
    const previous = existing.status
    if (existing !== value) Object.assign(existing, value)
    if (previous === existing.status) return
    removeSorted(bucket(this.byStatus, previous), existing)
    insertSorted(bucket(this.byStatus, existing.status), existing)
  }

  /** Settlements from a wallet, or to one, that are not final yet (a wallet with any cannot be closed). */
  hasOpen(walletId: string): boolean {
    return this.all.some(
      (s) => (s.status === 'pending' || s.status === 'processing') && (s.source_wallet === walletId || (s.destination.type === 'wallet' && s.destination.wallet_id === walletId)),
    )
  }

  /** Newest first. */
  list(filter: SettlementFilter, offset: number, limit: number): { items: SettlementRecord[]; total: number } {
    const candidates: SettlementRecord[][] = []
    if (filter.status) candidates.push(this.byStatus.get(filter.status) ?? [])
    if (filter.destination_type) candidates.push(this.byType.get(filter.destination_type) ?? [])
    if (candidates.length === 0) candidates.push(this.all)
    candidates.sort((a, b) => a.length - b.length)
    const smallest = candidates[0]!
    const items: SettlementRecord[] = []
    let total = 0
    for (let i = smallest.length - 1; i >= 0; i--) {
      const s = smallest[i]!
      if ((filter.status && s.status !== filter.status) || (filter.destination_type && s.destination.type !== filter.destination_type)) continue
      if (total >= offset && items.length < limit) items.push(s)
      total++
    }
    return { items, total }
  }
}
