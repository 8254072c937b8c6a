import { FacetImplications } from './facet-implications.js'
import { childOf, partition, type ChildMaps, type FacetCodes, type FacetNode, type TreeShape } from './facet-node.js'
import { RouteCache } from './route-cache.js'

/**
 * The nodes of a `FacetIndex` (described there): the root and, below it, a node per combination of
 * facet values, each listing its records' ordinals. It knows records only by ordinal and by their
 * facet values (`valueOf`, for a split): the records themselves, their order and the queries stay
 * with the index.
 */
export class FacetTree {
  root!: FacetNode
  readonly implications: FacetImplications
  /** The nodes a record lands in, so that an add is a few lookups; cleared whenever the tree's shape changes (a split). */
  private readonly routes: RouteCache<FacetNode[]>
  private readonly shape: TreeShape

  constructor(
    private readonly facetCount: number,
    impliedBy: ReadonlyArray<number | undefined>,
    /** Facet `facet`'s value for the record at `ordinal`. */
    private readonly valueOf: (ordinal: number, facet: number) => string,
    private readonly splitAt: number,
    maxRoutes: number,
  ) {
    this.implications = new FacetImplications(impliedBy)
    this.routes = new RouteCache(maxRoutes)
    this.shape = { facetCount, splitAt, childMaps: (from, path) => this.childMaps(from, path) }
    this.clear()
  }

  /** No records. */
  clear(): void {
    this.routes.clear()
    this.root = { list: undefined, children: this.childMaps(0, 0), from: 0, path: 0 }
  }

  /** Lists every record at once, from the codes of their facet values (`count` records, ordinals 0 on), into a cleared tree. */
  fill(codes: readonly FacetCodes[], count: number): void {
    this.implications.learn(codes, count)
    const all = new Uint32Array(count)
    for (let i = 0; i < count; i++) all[i] = i
    partition(this.shape, this.root, 0, all, codes)
  }

  /** Lists the record at `ordinal`, the newest, with these facet values. */
  add(ordinal: number, keys: readonly string[]): void {
    this.implications.check(keys)
    const route = this.routeOf(keys)
    for (let i = 0; i < route.length; i++) {
      const node = route[i]!
      node.list!.insert(ordinal)
      if (node.children === undefined && node.list!.length > this.splitAt && node.from < this.facetCount) {
        this.split(node, node.from, node.path)
        // The node's new children already hold the ordinal (a split copies the node's list).
      }
    }
  }

  /**
   * The record at `ordinal` leaves every node whose path names a changed facet's old value and joins
   * the new ones. A node left empty stays (it answers "none"): dropping it emptied the route cache
   * too, and with payments moving through their statuses by the thousand a second (--settle auto)
   * nodes and routes were made again and dropped again, most of what a payment left for the old
   * generation.
   */
  move(ordinal: number, previous: readonly string[], keys: readonly string[]): void {
    this.implications.check(keys)
    this.moveBelow(this.root, 0, 0, ordinal, previous, keys)
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
    for (let j = from; j < this.facetCount; j++) {
      const map = node.children![j]
      if (!map) continue
      const child = childOf(map, keys[j]!, j + 1, path | (1 << j))
      route.push(child)
      if (child.children) this.collect(child, j + 1, path | (1 << j), keys, route)
    }
  }

  /** The children maps of a node reached through the facets in `path` (a bit mask), from facet `from` on. */
  private childMaps(from: number, path: number): ChildMaps {
    return Array.from({ length: this.facetCount }, (_, j) => (j < from || this.implications.implied(j, path) ? undefined : new Map<string, FacetNode>()))
  }

  private insert(node: FacetNode, from: number, path: number, ordinal: number, keys: readonly string[]): void {
    node.list!.insert(ordinal)
    if (node.children) this.insertChildren(node, from, path, ordinal, keys)
    else if (node.list!.length > this.splitAt && from < this.facetCount) this.split(node, from, path)
  }

  private insertChildren(node: FacetNode, from: number, path: number, ordinal: number, keys: readonly string[]): void {
    for (let j = from; j < this.facetCount; j++) {
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
      for (let i = 0; i < list.length; i++) childOf(map, this.valueOf(list.at(i), j), j + 1, path | (1 << j)).list!.insert(list.at(i))
      for (const child of map.values()) if (child.list!.length > this.splitAt && j + 1 < this.facetCount) this.split(child, j + 1, path | (1 << j))
    })
    node.children = children
    // Records routed through this node now belong in its children too.
    this.routes.clear()
  }

  private moveBelow(node: FacetNode, from: number, path: number, ordinal: number, previous: readonly string[], keys: readonly string[]): void {
    if (node.children === undefined) return
    for (let j = from; j < this.facetCount; j++) {
      const map = node.children[j]
      if (!map) continue
      const old = map.get(previous[j]!)
      if (previous[j] === keys[j]) {
        if (old) this.moveBelow(old, j + 1, path | (1 << j), ordinal, previous, keys)
        continue
      }
      if (old) this.remove(old, j + 1, ordinal, previous)
      this.insert(childOf(map, keys[j]!, j + 1, path | (1 << j)), j + 1, path | (1 << j), ordinal, keys)
    }
  }

  private remove(node: FacetNode, from: number, ordinal: number, keys: readonly string[]): void {
    node.list!.remove(ordinal)
    if (node.children === undefined) return
    for (let j = from; j < this.facetCount; j++) {
      const map = node.children[j]
      const child = map?.get(keys[j]!)
      if (!map || !child) continue
      this.remove(child, j + 1, ordinal, keys)
    }
  }
}
