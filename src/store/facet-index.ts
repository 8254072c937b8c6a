import { FacetImplications } from './facet-implications.js'
import { childOf, encodeValues, partition, type ChildMaps, type FacetNode, type TreeShape } from './facet-node.js'
import type { OrdinalList } from './ordinal-list.js'
import { RouteCache } from './route-cache.js'

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
  private root: FacetNode
  private readonly facets: ReadonlyArray<(record: R) => string>
  private readonly implications: FacetImplications
  /** Records were pushed since the lists were built (`build` lists them), some out of creation order (it sorts first). */
  private stale = false
  private unordered = false
  /** The nodes a record lands in, so that an add is a few lookups; cleared whenever the tree's shape changes (a split). */
  private readonly routes: RouteCache<FacetNode[]>
  private readonly shape: TreeShape

  constructor(
    facets: ReadonlyArray<Facet<R>>,
    private readonly orderOf: (record: R) => number,
    private readonly splitAt = 64,
    maxRoutes = 4096,
  ) {
    this.facets = facets.map((facet) => facet.key)
    this.implications = new FacetImplications(facets.map((facet) => facet.impliedBy))
    this.routes = new RouteCache(maxRoutes)
    this.shape = { facetCount: this.facets.length, splitAt, childMaps: (from, path) => this.childMaps(from, path) }
    this.root = this.emptyRoot()
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
    this.implications.check(keys)
    const ordinal = this.records.push(record) - 1
    const route = this.routeOf(keys)
    for (let i = 0; i < route.length; i++) {
      const node = route[i]!
      node.list!.insert(ordinal)
      if (node.children === undefined && node.list!.length > this.splitAt && node.from < this.facets.length) {
        this.split(node, node.from, node.path)
        // The node's new children already hold the ordinal (a split copies the node's list).
      }
    }
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
    this.root = this.emptyRoot()
    const codes = this.facets.map((facet) => encodeValues(this.records, facet))
    this.implications.learn(codes, this.records.length)
    const all = new Uint32Array(this.records.length)
    for (let i = 0; i < all.length; i++) all[i] = i
    partition(this.shape, this.root, 0, all, codes)
  }

  /** Call after a record's facet values changed from `previous` (what `keysOf` answered before). */
  changed(record: R, previous: readonly string[]): void {
    if (this.stale) return
    const keys = this.keysOf(record)
    if (keys.every((key, j) => key === previous[j])) return
    const ordinal = this.ordinalOf(record)
    if (ordinal === undefined) return
    this.implications.check(keys)
    this.move(this.root, 0, 0, ordinal, previous, keys)
  }

  /**
   * Newest first. `values[j]` filters by facet j (undefined: any value), compared with what the
   * facet function answers, so give the same normalised form.
   */
  query(values: ReadonlyArray<string | undefined>, offset: number, limit: number): { items: R[]; total: number } {
    this.settle()
    let node = this.root
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
    if (node === this.root) {
      const end = Math.max(this.records.length - offset, 0)
      return { items: this.records.slice(Math.max(end - limit, 0), end).reverse(), total: this.records.length }
    }
    const list = node.list!
    if (unchecked !== undefined) {
      if (this.implications.broken) return this.scan(list, values, offset, limit)
      if (list.length > 0 && this.facets[unchecked]!(this.records[list.at(0)]!) !== values[unchecked]) return { items: [], total: 0 }
    }
    const items: R[] = []
    for (let i = list.length - 1 - offset, stop = Math.max(list.length - offset - limit, 0); i >= stop; i--) items.push(this.records[list.at(i)]!)
    return { items, total: list.length }
  }

  /** Every node (below the root) that a record with these facet values belongs in, creating those missing. */
  private routeOf(keys: readonly string[]): FacetNode[] {
    return this.routes.get(keys, () => {
      const route: FacetNode[] = []
      this.collect(this.root, 0, 0, keys, route)
      return route
    })
  }

  private collect(node: FacetNode, from: number, path: number, keys: readonly string[], route: FacetNode[]): void {
    for (let j = from; j < this.facets.length; j++) {
      const map = node.children![j]
      if (!map) continue
      const child = childOf(map, keys[j]!, j + 1, path | (1 << j))
      route.push(child)
      if (child.children) this.collect(child, j + 1, path | (1 << j), keys, route)
    }
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

  private emptyRoot(): FacetNode {
    this.routes.clear()
    return { list: undefined, children: this.childMaps(0, 0), from: 0, path: 0 }
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

  /** The children maps of a node reached through the facets in `path` (a bit mask), from facet `from` on. */
  private childMaps(from: number, path: number): ChildMaps {
    return this.facets.map((_, j) => (j < from || this.implications.implied(j, path) ? undefined : new Map()))
  }

  private insert(node: FacetNode, from: number, path: number, ordinal: number, keys: readonly string[]): void {
    node.list!.insert(ordinal)
    if (node.children) this.insertChildren(node, from, path, ordinal, keys)
    else if (node.list!.length > this.splitAt && from < this.facets.length) this.split(node, from, path)
  }

  private insertChildren(node: FacetNode, from: number, path: number, ordinal: number, keys: readonly string[]): void {
    for (let j = from; j < this.facets.length; j++) {
      const map = node.children![j]
      if (map) this.insert(childOf(map, keys[j]!, j + 1, path | (1 << j)), j + 1, path | (1 << j), ordinal, keys)
    }
  }

  /** Gives a node that grew past `splitAt` its children, from its records (already in order). */
  private split(node: FacetNode, from: number, path: number): void {
    const children = this.childMaps(from, path)
    const list = node.list!
    children.forEach((map, j) => {
      if (!map) return
      for (let i = 0; i < list.length; i++) childOf(map, this.facets[j]!(this.records[list.at(i)]!), j + 1, path | (1 << j)).list!.insert(list.at(i))
      for (const child of map.values()) if (child.list!.length > this.splitAt && j + 1 < this.facets.length) this.split(child, j + 1, path | (1 << j))
    })
    node.children = children
    // Records routed through this node now belong in its children too.
    this.routes.clear()
  }

  /**
   * The record leaves every node whose path names a changed facet's old value and joins the new
   * ones. A node left empty stays (it answers "none"): dropping it emptied the route cache too, and
   * with payments moving through their statuses by the thousand a second (--settle auto) nodes and
   * routes were made again and dropped again, most of what a payment left for the old generation.
   */
  private move(node: FacetNode, from: number, path: number, ordinal: number, previous: readonly string[], keys: readonly string[]): void {
    if (node.children === undefined) return
    for (let j = from; j < this.facets.length; j++) {
      const map = node.children[j]
      if (!map) continue
      const old = map.get(previous[j]!)
      if (previous[j] === keys[j]) {
        if (old) this.move(old, j + 1, path | (1 << j), ordinal, previous, keys)
        continue
      }
      if (old) this.remove(old, j + 1, ordinal, previous)
      this.insert(childOf(map, keys[j]!, j + 1, path | (1 << j)), j + 1, path | (1 << j), ordinal, keys)
    }
  }

  private remove(node: FacetNode, from: number, ordinal: number, keys: readonly string[]): void {
    node.list!.remove(ordinal)
    if (node.children === undefined) return
    for (let j = from; j < this.facets.length; j++) {
      const map = node.children[j]
      const child = map?.get(keys[j]!)
      if (!map || !child) continue
      this.remove(child, j + 1, ordinal, keys)
    }
  }
}

