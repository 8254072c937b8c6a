import { OrdinalList } from './ordinal-list.js'

/** One node of a `FacetIndex`'s tree: the records of one combination of filters. */
export interface FacetNode {
  /** Ordinals, oldest first; the root has none (it holds every record). */
  list: OrdinalList | undefined
  /**
   * By facet index, then by value; undefined while small. Only facets after the one that led here,
   * and none implied by one on the path, have a map.
   */
  children: ChildMaps | undefined
  /** The first facet its children may be for, and the facets on its path (a bit mask): what a split needs. */
  from: number
  path: number
}

export type ChildMaps = Array<Map<string, FacetNode> | undefined>

/** The child of `map` for `key`, created empty when missing. */
export function childOf(map: Map<string, FacetNode>, key: string, from: number, path: number): FacetNode {
  let child = map.get(key)
  if (!child) map.set(key, (child = { list: new OrdinalList(), children: undefined, from, path }))
  return child
}

/** One facet's value for every record, as a number: its index in `values`. */
export interface FacetCodes {
  of: Int32Array
  values: string[]
  /** A place per value, for `partition` to count in; -1 between uses. */
  scratch: Int32Array
}

export function encodeValues<R>(records: readonly R[], facet: (record: R) => string): FacetCodes {
  const index = new Map<string, number>()
  const values: string[] = []
  const of = new Int32Array(records.length)
  for (let i = 0; i < records.length; i++) {
    const value = facet(records[i]!)
    let code = index.get(value)
    if (code === undefined) {
      index.set(value, (code = values.length))
      values.push(value)
    }
    of[i] = code
  }
  return { of, values, scratch: new Int32Array(values.length).fill(-1) }
}

/** What `partition` needs of the tree it fills. */
export interface TreeShape {
  facetCount: number
  splitAt: number
  childMaps(from: number, path: number): ChildMaps
}

/**
 * Gives `node` (holding `ordinals`, in order) a child for each value of every facet from `from`
 * on, each child's list filled in one pass, and children in turn to those holding more than
 * `splitAt`. Reads only the values' codes: the records themselves are touched once a facet, in
 * order, by `encodeValues`, instead of once for every node they sit in.
 */
export function partition(shape: TreeShape, node: FacetNode, from: number, ordinals: Uint32Array, codes: readonly FacetCodes[]): void {
  for (let j = from; j < shape.facetCount; j++) {
    const map = node.children![j]
    if (!map) continue
    const { of: codeOf, values, scratch } = codes[j]!
    // Children in order of first appearance; `scratch` (by code, -1 when unused) is left as found.
    const used: number[] = []
    const counts: number[] = []
    for (let i = 0; i < ordinals.length; i++) {
      const code = codeOf[ordinals[i]!]!
      let child = scratch[code]!
      if (child === -1) {
        scratch[code] = child = used.length
        used.push(code)
        counts.push(0)
      }
      counts[child]!++
    }
    const lists = counts.map((count) => new Uint32Array(count))
    const filled = new Array<number>(used.length).fill(0)
    for (let i = 0; i < ordinals.length; i++) {
      const child = scratch[codeOf[ordinals[i]!]!]!
      lists[child]![filled[child]!++] = ordinals[i]!
    }
    for (const code of used) scratch[code] = -1
    const path = node.path | (1 << j)
    used.forEach((code, child) => {
      const list = lists[child]!
      const created: FacetNode = { list: OrdinalList.of(list), children: undefined, from: j + 1, path }
      map.set(values[code]!, created)
      if (list.length > shape.splitAt && j + 1 < shape.facetCount) {
        created.children = shape.childMaps(j + 1, path)
        partition(shape, created, j + 1, list, codes)
      }
    })
  }
}
