/**
 * Records in creation order with an index for every combination of their list filters ("facets"),
 * so that a filtered page costs what the page costs, whichever filters are given and however many
 * records match: no scan, no merge of two large lists. Any record kind with list filters can use it
 * (payments do, through payment-index.ts): give the facets as functions of the record, highest
 * cardinality first, and the record's creation order.
 *
 * The shape is a tree. The root holds every record; for each facet it has one child per value
 * (every single-filter list). A node holds its records in creation order and, once it has more than
 * `splitAt` of them, children for each *later* facet, so each combination of filters has exactly one
 * node (filters taken in facet order), and a record sits in one node per combination. A node that is
 * still small answers the remaining filters by testing its at most `splitAt` records. Ordering the
 * facets by falling cardinality (recipient, source, currency, status) keeps the nodes few: a
 * recipient seen once stays one small node instead of growing children of its own.
 */
export class FacetIndex<R> {
  private readonly root: FacetNode<R>

  constructor(
    private readonly facets: ReadonlyArray<(record: R) => string>,
    private readonly orderOf: (record: R) => number,
    private readonly splitAt = 64,
  ) {
    this.root = { items: [], children: facets.map(() => new Map()) }
  }

  /** Every record, oldest first. */
  get all(): readonly R[] {
    return this.root.items
  }

  keysOf(record: R): string[] {
    return this.facets.map((facet) => facet(record))
  }

  add(record: R): void {
    this.insert(this.root, 0, record, this.keysOf(record))
  }

  /** Call after a record's facet values changed from `previous` (what `keysOf` answered before). */
  changed(record: R, previous: readonly string[]): void {
    const keys = this.keysOf(record)
    if (keys.every((key, j) => key === previous[j])) return
    this.move(this.root, 0, record, previous, keys)
  }

  /**
   * Newest first. `values[j]` filters by facet j (undefined: any value), compared with what the
   * facet function answers, so give the same normalised form.
   */
  query(values: ReadonlyArray<string | undefined>, offset: number, limit: number): { items: R[]; total: number } {
    let node: FacetNode<R> = this.root
    for (let j = 0; j < this.facets.length; j++) {
      const value = values[j]
      if (value === undefined) continue
      if (!node.children) return this.scan(node.items, values, j, offset, limit)
      const child = node.children[j]!.get(value)
      if (!child) return { items: [], total: 0 }
      node = child
    }
    const { items } = node
    const end = Math.max(items.length - offset, 0)
    return { items: items.slice(Math.max(end - limit, 0), end).reverse(), total: items.length }
  }

  /** A small node's records tested against the filters from facet `from` on. */
  private scan(records: readonly R[], values: ReadonlyArray<string | undefined>, from: number, offset: number, limit: number): { items: R[]; total: number } {
    const items: R[] = []
    let total = 0
    for (let i = records.length - 1; i >= 0; i--) {
      const record = records[i]!
      let fits = true
      for (let j = from; j < this.facets.length && fits; j++) fits = values[j] === undefined || this.facets[j]!(record) === values[j]
      if (!fits) continue
      if (total >= offset && items.length < limit) items.push(record)
      total++
    }
    return { items, total }
  }

  private insert(node: FacetNode<R>, from: number, record: R, keys: readonly string[]): void {
    this.insertSorted(node.items, record)
    if (node.children) {
      for (let j = from; j < this.facets.length; j++) this.insert(childOf(node.children[j]!, keys[j]!), j + 1, record, keys)
    } else if (node.items.length > this.splitAt && from < this.facets.length) {
      this.split(node, from)
    }
  }

  /** Gives a node that grew past `splitAt` its children, from its records (already in order). */
  private split(node: FacetNode<R>, from: number): void {
    const children: Array<Map<string, FacetNode<R>>> = []
    for (let j = from; j < this.facets.length; j++) {
      const map = new Map<string, FacetNode<R>>()
      for (const record of node.items) childOf(map, this.facets[j]!(record)).items.push(record)
      for (const child of map.values()) if (child.items.length > this.splitAt && j + 1 < this.facets.length) this.split(child, j + 1)
      children[j] = map
    }
    node.children = children
  }

  /** `record` leaves every node whose path names a changed facet's old value and joins the new ones. */
  private move(node: FacetNode<R>, from: number, record: R, previous: readonly string[], keys: readonly string[]): void {
    if (node.children === undefined) return
    for (let j = from; j < this.facets.length; j++) {
      const map = node.children[j]!
      const old = map.get(previous[j]!)
      if (previous[j] === keys[j]) {
        if (old) this.move(old, j + 1, record, previous, keys)
        continue
      }
      if (old) {
        this.remove(old, j + 1, record, previous)
        if (old.items.length === 0) map.delete(previous[j]!)
      }
      this.insert(childOf(map, keys[j]!), j + 1, record, keys)
    }
  }

  private remove(node: FacetNode<R>, from: number, record: R, keys: readonly string[]): void {
    const index = this.lowerBound(node.items, this.orderOf(record))
    if (node.items[index] === record) node.items.splice(index, 1)
    if (node.children === undefined) return
    for (let j = from; j < this.facets.length; j++) {
      const map = node.children[j]!
      const child = map.get(keys[j]!)
      if (!child) continue
      this.remove(child, j + 1, record, keys)
      if (child.items.length === 0) map.delete(keys[j]!)
    }
  }

  private insertSorted(list: R[], record: R): void {
    const last = list[list.length - 1]
    const order = this.orderOf(record)
    if (last === undefined || this.orderOf(last) < order) list.push(record)
    else list.splice(this.lowerBound(list, order), 0, record)
  }

  /** Index of the first record whose order is at least `order`. */
  private lowerBound(list: readonly R[], order: number): number {
    let low = 0
    let high = list.length
    while (low < high) {
      const mid = (low + high) >> 1
      if (this.orderOf(list[mid]!) < order) low = mid + 1
      else high = mid
    }
    return low
  }
}

interface FacetNode<R> {
  /** Oldest first. */
  items: R[]
  /** By facet index (only facets after the one that led here), then by value; undefined while small. */
  children: Array<Map<string, FacetNode<R>>> | undefined
}

function childOf<R>(map: Map<string, FacetNode<R>>, key: string): FacetNode<R> {
  let child = map.get(key)
  if (!child) map.set(key, (child = { items: [], children: undefined }))
  return child
}
