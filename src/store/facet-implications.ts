import type { FacetCodes } from './facet-node.js'

/**
 * Which facets follow from an earlier one (`Facet.impliedBy`: a payment's currency is its source
 * wallet's), and whether every record so far keeps to it. Nodes under the implying facet get no
 * children for the implied one; once a record breaks an implication (hand-edited data), queries
 * that relied on it test every record of the node instead.
 */
export class FacetImplications {
  /** The implied value seen with each value of the facet that implies it, by implied facet. */
  private readonly seen: Map<number, Map<string, string>>
  broken = false

  constructor(private readonly impliedBy: ReadonlyArray<number | undefined>) {
    this.seen = new Map(impliedBy.flatMap((by, j) => (by === undefined ? [] : [[j, new Map<string, string>()]])))
  }

  /** Facet `j` needs no children under a node whose path (a bit mask of facets) names the one implying it. */
  implied(j: number, path: number): boolean {
    const by = this.impliedBy[j]
    return by !== undefined && (path & (1 << by)) !== 0
  }

  /** Notes one record's facet values. */
  check(keys: readonly string[]): void {
    for (const [j, seen] of this.seen) {
      const by = keys[this.impliedBy[j]!]!
      const known = seen.get(by)
      if (known === undefined) seen.set(by, keys[j]!)
      else if (known !== keys[j]) this.broken = true
    }
  }

  /** Learns anew from every record, given as the codes of each facet's values (`count` records). */
  learn(codes: readonly FacetCodes[], count: number): void {
    this.broken = false
    for (const [j, seen] of this.seen) {
      seen.clear()
      const by = codes[this.impliedBy[j]!]!
      const implied = codes[j]!
      const known = new Int32Array(by.values.length).fill(-1)
      for (let i = 0; i < count; i++) {
        const key = by.of[i]!
        if (known[key] === -1) known[key] = implied.of[i]!
        else if (known[key] !== implied.of[i]) this.broken = true
      }
      known.forEach((value, key) => value !== -1 && seen.set(by.values[key]!, implied.values[value]!))
    }
  }
}
