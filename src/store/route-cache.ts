/**
 * The nodes a record lands in, by its facet values (a trie of maps, one level per facet): most
 * records share their combination of values with many others, so finding their nodes is a few
 * lookups instead of a walk of the tree. Bounded, because every value may be new (a recipient per
 * payment): past `max` routes it starts again empty.
 */
export class RouteCache<T> {
  private routes = new Map<string, unknown>()
  private count = 0

  constructor(private readonly max: number) {}

  /** The route for `keys`, from `find` the first time. */
  get(keys: readonly string[], find: () => T): T {
    let level: Map<string, unknown> = this.routes
    const last = keys.length - 1
    for (let j = 0; j < last; j++) {
      let next = level.get(keys[j]!) as Map<string, unknown> | undefined
      if (next === undefined) level.set(keys[j]!, (next = new Map()))
      level = next
    }
    let route = level.get(keys[last]!) as T | undefined
    if (route === undefined) {
      route = find()
      if (++this.count > this.max) this.clear()
      else level.set(keys[last]!, route)
    }
    return route
  }

  /** Forgets every route: the tree's shape changed. */
  clear(): void {
    this.routes = new Map()
    this.count = 0
  }
}
