import { FacetIndex } from './facet-index.js'
import type { OrderRecord, OrderSide, OrderStatus } from '../model/records.js'
import { RestingBook } from './resting-book.js'

export interface OrderFilter {
  status?: OrderStatus
  pair?: string
  side?: OrderSide
}

/**
 * One account's orders, indexed for every combination of the list's filters like its payments
 * (facet-index.ts), so a filtered page costs the page; and the resting ones filed by limit price
 * (`book`, resting-book.ts), which is what a tick looks at.
 */
export class OrderIndex {
  private readonly byId = new Map<string, OrderRecord>()
  /** The resting orders by pair, side and limit, and by expiry: what a price tick reaches. */
  readonly book = new RestingBook()
  // Highest cardinality first (see FacetIndex): pairs, sides, statuses. Only the status changes.
  private readonly facets = new FacetIndex<OrderRecord>([{ key: (o) => o.pair }, { key: (o) => o.side }, { key: (o) => o.status }], (o) => o.seq)

  get size(): number {
    return this.facets.all.length
  }

  nextSeq(): number {
    const { all } = this.facets
    return all.length === 0 ? 1 : all[all.length - 1]!.seq + 1
  }

  get(id: string): OrderRecord | undefined {
    return this.byId.get(id)
  }

  values(): readonly OrderRecord[] {
    return this.facets.all
  }

  /** Orders that can still fill (`open` and `partially_filled`), oldest first. */
  open(): OrderRecord[] {
    const open = this.list({ status: 'open' }, 0, Infinity).items
    const partial = this.list({ status: 'partially_filled' }, 0, Infinity).items
    return [...open, ...partial].sort((a, b) => a.seq - b.seq)
  }

  /** How many orders can still fill (those the book holds), without copying them. */
  openCount(): number {
    return this.book.size
  }

  add(order: OrderRecord): void {
    this.byId.set(order.id, order)
    this.facets.add(order)
    this.book.sync(order)
  }

  /** Adds an order whose id is new and answers undefined; when the id is here, answers that order (nothing added). */
  addOrFind(order: OrderRecord): OrderRecord | undefined {
    const found = this.byId.get(order.id)
    if (found === undefined) this.add(order)
    return found
  }

  /** Call after changing the stored `order` in place (its status was `previous`). */
  statusChanged(order: OrderRecord, previous: OrderStatus): void {
    this.book.sync(order)
    if (previous === order.status) return
    const keys = this.facets.keysOf(order)
    keys[STATUS] = previous
    this.facets.changed(order, keys)
  }

  /** Orders holding funds of a wallet (a wallet with them cannot be closed). */
  hasOpenOrders(walletId: string): boolean {
    return this.open().some((order) => order.base_wallet === walletId || order.quote_wallet === walletId)
  }

  /** Newest first. */
  list(filter: OrderFilter, offset: number, limit: number): { items: OrderRecord[]; total: number } {
    return this.facets.query([filter.pair, filter.side, filter.status], offset, limit)
  }
}

const STATUS = 2
