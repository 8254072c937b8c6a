import { FacetIndex } from './facet-index.js'
import type { SettlementRecord, SettlementStatus } from '../model/records.js'

export interface SettlementFilter {
  status?: SettlementStatus
  destination_type?: SettlementRecord['destination']['type']
}

/**
 * One account's settlements, indexed for every combination of the list's filters like its payments
 * and orders (facet-index.ts), so a filtered page costs the page. Only the status changes.
 */
export class SettlementIndex {
  private readonly byId = new Map<string, SettlementRecord>()
  private readonly facets = new FacetIndex<SettlementRecord>([{ key: (s) => s.destination.type }, { key: (s) => s.status }], (s) => s.seq)

  get size(): number {
    return this.facets.all.length
  }

  nextSeq(): number {
    const { all } = this.facets
    return all.length === 0 ? 1 : all[all.length - 1]!.seq + 1
  }

  get(id: string): SettlementRecord | undefined {
    return this.byId.get(id)
  }

  values(): readonly SettlementRecord[] {
    return this.facets.all
  }

  /** Adds a new settlement, or updates a stored one in place (references held by timers stay valid). */
  put(value: SettlementRecord): void {
    const existing = this.byId.get(value.id)
    if (!existing) {
      this.byId.set(value.id, value)
      this.facets.add(value)
      return
    }
    const previous = this.facets.keysOf(existing)
    if (existing !== value) Object.assign(existing, value)
    this.facets.changed(existing, previous)
  }

  /** Settlements from a wallet, or to one, that are not final yet (a wallet with any cannot be closed). */
  hasOpen(walletId: string): boolean {
    return OPEN.some((status) =>
      this.list({ status }, 0, Infinity).items.some((s) => s.source_wallet === walletId || (s.destination.type === 'wallet' && s.destination.wallet_id === walletId)),
    )
  }

  /** Newest first. */
  list(filter: SettlementFilter, offset: number, limit: number): { items: SettlementRecord[]; total: number } {
    return this.facets.query([filter.destination_type, filter.status], offset, limit)
  }
}

const OPEN: readonly SettlementStatus[] = ['pending', 'processing']
