import { encodeValues } from './facet-node.js'
import { FacetTree } from './facet-tree.js'
import type { OrdinalList } from './ordinal-list.js'

/**
 * Records in creation order with an index for every combination of their list filters ("facets"),
 * so that a filtered page costs what the page costs, whichever filters are given and however many
 * records match: no scan, no merge of two large lists. Any record kind with list filters can use it
 * (payments do, through payment-index.ts): give the facets as functions of the record, highest
 * cardinality first, and the record's creation order; records are added in that order.
 *
 * The shape is a tree. The root holds every record; for each facet it has one child per value
 * (every single-filter list). A node holds its records in creation order and, once it has more than
 * `splitAt` of them, children for each *later* facet, so each combination of filters has exactly one
 * node (filters taken in facet order), and a record sits in one node per combination. A node that is
 * still small answers the remaining filters by testing its at most `splitAt` records. Ordering the
 * facets by falling cardinality (recipient, source, currency, status) keeps the nodes few: a
 * recipient seen once stays one small node instead of growing children of its own. Below the root,
 * nodes hold ordinals (positions in the root's list) in typed arrays, not references.
 *
 * A facet whose value follows from an earlier one (a payment's currency is its source wallet's)
 * can say so (`impliedBy`): nodes under the earlier facet get no children for it, which saves a
 * list per record for each such combination; a query naming both checks the implied value on the
 * node's first record. Should a record ever break the implication (hand-edited data), such queries
 * test every record of the node instead: slower, never wrong.
 */
export interface Facet<R> {
  key: (record: R) => string
  /** Index of an earlier facet whose value decides this one's. */
  impliedBy?: number
}

export class FacetIndex<R> {
  /** Every record, oldest first: ordinals are positions in it. */
  private records: R[] = []
  private readonly facets: ReadonlyArray<(record: R) => string>
  private readonly impliedBy: ReadonlyArray<number | undefined>
  private made: FacetTree | undefined
  /** Records were pushed since the lists were built (`build` lists them), some out of creation order (it sorts first). */
  private stale = false
  private unordered = false

  constructor(
    facets: ReadonlyArray<Facet<R>>,
    private readonly orderOf: (record: R) => number,
    private readonly splitAt = 64,
    private readonly maxRoutes = 4096,
  ) {
    this.facets = facets.map((facet) => facet.key)
    this.impliedBy = facets.map((facet) => facet.impliedBy)
  }

  /**
   * The lists, made on first use (the first record added, or a list of an index that has some): every account has
   * a payment, an order and a settlement index, and an empty tree (its root's map for each facet,
   * its route cache, its implications) was about 10 KB of a cold start's young allocation before
   * its first answer, for the default account that lists nothing yet (issue 33, round 10). Made
   * later, it is the tree made at once: `clear()` is its state as new.
   */
  private get tree(): FacetTree {
    return (this.made ??= new FacetTree(this.facets.length, this.impliedBy, (ordinal, facet) => this.facets[facet]!(this.records[ordinal]!), this.splitAt, this.maxRoutes))
  }

  /** Whether the lists were made yet (for tests). */
  get treeMade(): boolean {
    return this.made !== undefined
  }

  /** Every record, oldest first. */
  get all(): readonly R[] {
    if (this.unordered) this.build()
    return this.records
  }

  keysOf(record: R): string[] {
    return this.facets.map((facet) => facet(record))
  }

  add(record: R): void {
    if (this.stale) return this.push(record)
    const last = this.records[this.records.length - 1]
    if (last !== undefined && this.orderOf(record) < this.orderOf(last)) return this.rebuildWith(record)
    const keys = this.keysOf(record)
    this.tree.add(this.records.push(record) - 1, keys)
  }

  /**
   * Adds a record without listing it: the lists are built again, all at once, by `build` or by the
   * next query. For a load of many records (a data file's payments and their changes), which `add`
   * would list one by one in a dozen lists each, a write to a different place of memory every
   * time; `build` fills each list in one pass instead. Until then `add` pushes too, and `changed`
   * has nothing to move.
   */
  push(record: R): void {
    const last = this.records[this.records.length - 1]
    if (last !== undefined && this.orderOf(record) < this.orderOf(last)) this.unordered = true
    this.records.push(record)
    this.stale = true
  }

  /** Builds the lists if records were pushed since they were last built. */
  settle(): void {
    if (this.stale) this.build()
  }

  /** Lists every record again, from scratch, in creation order. */
  build(): void {
    if (this.unordered) this.records.sort((a, b) => this.orderOf(a) - this.orderOf(b))
    this.unordered = false
    this.stale = false
    this.tree.clear()
    this.tree.fill(this.facets.map((facet) => encodeValues(this.records, facet)), this.records.length)
  }

  /** Call after a record's facet values changed from `previous` (what `keysOf` answered before). */
  changed(record: R, previous: readonly string[]): void {
    if (this.stale) return
    const keys = this.keysOf(record)
    if (keys.every((key, j) => key === previous[j])) return
    const ordinal = this.ordinalOf(record)
    if (ordinal === undefined) return
    this.tree.move(ordinal, previous, keys)
  }

  /**
   * Newest first. `values[j]` filters by facet j (undefined: any value), compared with what the
   * facet function answers, so give the same normalised form.
   */
  query(values: ReadonlyArray<string | undefined>, offset: number, limit: number): { items: R[]; total: number } {
    // What every list of an empty index answers, without making its lists: a start asks each
    // account for its open payments and orders (issue 33, round 10).
    if (this.records.length === 0) return { items: [], total: 0 }
    this.settle()
    let node = this.tree.root
    let unchecked: number | undefined
    for (let j = 0; j < this.facets.length; j++) {
      const value = values[j]
      if (value === undefined) continue
      if (!node.children) return this.scan(node.list!, values, offset, limit)
      const map = node.children[j]
      if (map === undefined) {
        // Implied by a facet already on the path: every record here has the same value for it.
        unchecked = j
        continue
      }
      const child = map.get(value)
      if (!child) return { items: [], total: 0 }
      node = child
    }
    if (node === this.tree.root) {
      const end = Math.max(this.records.length - offset, 0)
      return { items: this.records.slice(Math.max(end - limit, 0), end).reverse(), total: this.records.length }
    }
    const list = node.list!
    if (unchecked !== undefined) {
      if (this.tree.implications.broken) return this.scan(list, values, offset, limit)
      if (list.length > 0 && this.facets[unchecked]!(this.records[list.at(0)]!) !== values[unchecked]) return { items: [], total: 0 }
    }
    const items: R[] = []
    for (let i = list.length - 1 - offset, stop = Math.max(list.length - offset - limit, 0); i >= stop; i--) items.push(this.records[list.at(i)]!)
    return { items, total: list.length }
  }

  /** A node's records tested against every filter (a small node's, or after a broken implication). */
  private scan(list: OrdinalList, values: ReadonlyArray<string | undefined>, offset: number, limit: number): { items: R[]; total: number } {
    const items: R[] = []
    let total = 0
    for (let i = list.length - 1; i >= 0; i--) {
      const record = this.records[list.at(i)]!
      let fits = true
      for (let j = 0; j < this.facets.length && fits; j++) fits = values[j] === undefined || this.facets[j]!(record) === values[j]
      if (!fits) continue
      if (total >= offset && items.length < limit) items.push(record)
      total++
    }
    return { items, total }
  }

  /** A record added out of creation order (hand-edited data): every list is built again, in order. */
  private rebuildWith(record: R): void {
    this.push(record)
    this.build()
  }

  /** Where `record` sits in the creation order (by its order, so no map from record to position). */
  ordinalOf(record: R): number | undefined {
    const order = this.orderOf(record)
    let low = 0
    let high = this.records.length
    while (low < high) {
      const mid = (low + high) >> 1
      if (this.orderOf(this.records[mid]!) < order) low = mid + 1
      else high = mid
    }
    // Equal orders (only in hand-edited data) sit side by side.
    for (let i = low; i < this.records.length && this.orderOf(this.records[i]!) === order; i++) if (this.records[i] === record) return i
    return undefined
  }
}
