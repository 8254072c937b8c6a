import { OrdinalList } from './ordinal-list.js'

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
  private readonly impliedBy: ReadonlyArray<number | undefined>
  /** The implied value seen with each value of the facet that implies it, by implied facet. */
  private readonly implications: Map<number, Map<string, string>>
  private implicationBroken = false

  constructor(
    facets: ReadonlyArray<Facet<R>>,
    private readonly orderOf: (record: R) => number,
    private readonly splitAt = 64,
  ) {
    this.facets = facets.map((facet) => facet.key)
    this.impliedBy = facets.map((facet) => facet.impliedBy)
    this.implications = new Map(facets.flatMap((facet, j) => (facet.impliedBy === undefined ? [] : [[j, new Map()]])))
    this.root = this.emptyRoot()
  }

  /** Every record, oldest first. */
  get all(): readonly R[] {
    return this.records
  }

  keysOf(record: R): string[] {
    return this.facets.map((facet) => facet(record))
  }

  add(record: R): void {
    const last = this.records[this.records.length - 1]
    if (last !== undefined && this.orderOf(record) < this.orderOf(last)) return this.rebuildWith(record)
    const keys = this.keysOf(record)
    this.checkImplications(keys)
    this.records.push(record)
    this.insertChildren(this.root, 0, 0, this.records.length - 1, keys)
  }

  /** Call after a record's facet values changed from `previous` (what `keysOf` answered before). */
  changed(record: R, previous: readonly string[]): void {
    const keys = this.keysOf(record)
    if (keys.every((key, j) => key === previous[j])) return
    const ordinal = this.ordinalOf(record)
    if (ordinal === undefined) return
    this.checkImplications(keys)
    this.move(this.root, 0, 0, ordinal, previous, keys)
  }

  /**
   * Newest first. `values[j]` filters by facet j (undefined: any value), compared with what the
   * facet function answers, so give the same normalised form.
   */
  query(values: ReadonlyArray<string | undefined>, offset: number, limit: number): { items: R[]; total: number } {
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
      if (this.implicationBroken) return this.scan(list, values, offset, limit)
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

  private emptyRoot(): FacetNode {
    return { list: undefined, children: this.childMaps(0, 0) }
  }

  /** A record added out of creation order (hand-edited data): every list is built again, in order. */
  private rebuildWith(record: R): void {
    const records = [...this.records, record].sort((a, b) => this.orderOf(a) - this.orderOf(b))
    this.records = []
    this.root = this.emptyRoot()
    for (const each of records) this.add(each)
  }

  /** Where `record` sits in the creation order (by its order, so no map from record to position). */
  private ordinalOf(record: R): number | undefined {
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
  private childMaps(from: number, path: number): Array<Map<string, FacetNode> | undefined> {
    return this.facets.map((_, j) => (j < from || this.implied(j, path) ? undefined : new Map()))
  }

  private implied(j: number, path: number): boolean {
    const by = this.impliedBy[j]
    return by !== undefined && (path & (1 << by)) !== 0
  }

  private checkImplications(keys: readonly string[]): void {
    for (const [j, seen] of this.implications) {
      const by = keys[this.impliedBy[j]!]!
      const known = seen.get(by)
      if (known === undefined) seen.set(by, keys[j]!)
      else if (known !== keys[j]) this.implicationBroken = true
    }
  }

  private insert(node: FacetNode, from: number, path: number, ordinal: number, keys: readonly string[]): void {
    node.list!.insert(ordinal)
    if (node.children) this.insertChildren(node, from, path, ordinal, keys)
    else if (node.list!.length > this.splitAt && from < this.facets.length) this.split(node, from, path)
  }

  private insertChildren(node: FacetNode, from: number, path: number, ordinal: number, keys: readonly string[]): void {
    for (let j = from; j < this.facets.length; j++) {
      const map = node.children![j]
      if (map) this.insert(childOf(map, keys[j]!), j + 1, path | (1 << j), ordinal, keys)
    }
  }

  /** Gives a node that grew past `splitAt` its children, from its records (already in order). */
  private split(node: FacetNode, from: number, path: number): void {
    const children = this.childMaps(from, path)
    const list = node.list!
    children.forEach((map, j) => {
      if (!map) return
      for (let i = 0; i < list.length; i++) childOf(map, this.facets[j]!(this.records[list.at(i)]!)).list!.insert(list.at(i))
      for (const child of map.values()) if (child.list!.length > this.splitAt && j + 1 < this.facets.length) this.split(child, j + 1, path | (1 << j))
    })
    node.children = children
  }

  /** The record leaves every node whose path names a changed facet's old value and joins the new ones. */
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
      if (old) {
        this.remove(old, j + 1, ordinal, previous)
        if (old.list!.length === 0) map.delete(previous[j]!)
      }
      this.insert(childOf(map, keys[j]!), j + 1, path | (1 << j), ordinal, keys)
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
      if (child.list!.length === 0) map.delete(keys[j]!)
    }
  }
}

interface FacetNode {
  /** Ordinals, oldest first; the root has none (it holds every record). */
  list: OrdinalList | undefined
  /**
   * By facet index, then by value; undefined while small. Only facets after the one that led here,
   * and none implied by one on the path, have a map.
   */
  children: Array<Map<string, FacetNode> | undefined> | undefined
}

function childOf(map: Map<string, FacetNode>, key: string): FacetNode {
  let child = map.get(key)
  if (!child) map.set(key, (child = { list: new OrdinalList(), children: undefined }))
  return child
}
