import type { OrderRecord, OrderSide, OrderStatus } from '../model/records.js'
import { bucket, insertSorted, removeSorted } from './payment-index.js'

export interface OrderFilter {
  status?: OrderStatus
  pair?: string
  side?: OrderSide
}

/**
 * One account's orders with an index per filter, like its payments (payment-index.ts): pair and
 * side never change and index into append-only arrays in creation order; a status change moves an
 * order between sorted arrays. `open()` is what a tick looks at.
 */
export class OrderIndex {
  private readonly byId = new Map<string, OrderRecord>()
  private readonly all: OrderRecord[] = []
  private readonly byStatus = new Map<OrderStatus, OrderRecord[]>()
  private readonly byPair = new Map<string, OrderRecord[]>()
  private readonly bySide = new Map<OrderSide, OrderRecord[]>()

  get size(): number {
    return this.all.length
  }

  nextSeq(): number {
    return this.all.length === 0 ? 1 : this.all[this.all.length - 1]!.seq + 1
  }

  get(id: string): OrderRecord | undefined {
    return this.byId.get(id)
  }

  values(): readonly OrderRecord[] {
    return this.all
  }

  /** Orders that can still fill (`open` and `partially_filled`), oldest first. */
  open(): OrderRecord[] {
    const open = this.byStatus.get('open') ?? []
    const partial = this.byStatus.get('partially_filled') ?? []
    if (partial.length === 0) return [...open]
    return [...open, ...partial].sort((a, b) => a.seq - b.seq)
  }

  /** How many orders can still fill, without copying them. */
  openCount(): number {
    return (this.byStatus.get('open')?.length ?? 0) + (this.byStatus.get('partially_filled')?.length ?? 0)
  }

  add(order: OrderRecord): void {
    this.byId.set(order.id, order)
    this.all.push(order)
    bucket(this.byPair, order.pair).push(order)
    bucket(this.bySide, order.side).push(order)
    insertSorted(bucket(this.byStatus, order.status), order)
  }

  /** Call after changing `order.status` from `previous`. */
  statusChanged(order: OrderRecord, previous: OrderStatus): void {
    if (previous === order.status) return
    removeSorted(bucket(this.byStatus, previous), order)
    insertSorted(bucket(this.byStatus, order.status), order)
  }

  /** Orders holding funds of a wallet (a wallet with them cannot be closed). */
  hasOpenOrders(walletId: string): boolean {
    return this.open().some((order) => order.base_wallet === walletId || order.quote_wallet === walletId)
  }

  /** Newest first. */
  list(filter: OrderFilter, offset: number, limit: number): { items: OrderRecord[]; total: number } {
    const candidates: OrderRecord[][] = []
    if (filter.status) candidates.push(this.byStatus.get(filter.status) ?? [])
    if (filter.pair) candidates.push(this.byPair.get(filter.pair) ?? [])
    if (filter.side) candidates.push(this.bySide.get(filter.side) ?? [])
    if (candidates.length === 0) candidates.push(this.all)
    candidates.sort((a, b) => a.length - b.length)
    const smallest = candidates[0]!
    const items: OrderRecord[] = []
    let total = 0
    for (let i = smallest.length - 1; i >= 0; i--) {
      const order = smallest[i]!
      if ((filter.status && order.status !== filter.status) || (filter.pair && order.pair !== filter.pair) || (filter.side && order.side !== filter.side)) continue
      if (total >= offset && items.length < limit) items.push(order)
      total++
    }
    return { items, total }
  }
}
