import type { AnyRoute, Method } from './route.js'

/** Routes known by method and path whose module loads once, for all of them together (src/api/route-table.ts). */
export interface LazyRouteGroup {
  /** `METHOD /path` of each route, in the order the module defines them. */
  paths: readonly string[]
  load(): Promise<readonly AnyRoute[]>
}

/** A route before its module is loaded: enough for the route index, 405 and 404. */
export interface LazyRoute {
  method: Method
  /** OpenAPI style: `/v1/wallets/{id}`. */
  path: string
  /** The route object; the first call loads its group. */
  load(): Promise<AnyRoute>
}

/**
 * The routes of `groups`, each group loaded at most once (concurrent first requests share the load),
 * and checked against its `paths`: a module whose routes differ from what the table says fails
 * loudly, never serves a route under another's path.
 */
export function lazyRoutes(groups: readonly LazyRouteGroup[]): { routes: LazyRoute[]; loadAll(): Promise<AnyRoute[]> } {
  const loads = groups.map((group) => {
    let loaded: Promise<readonly AnyRoute[]> | undefined
    return () =>
      (loaded ??= group.load().then((routes) => {
        const found = routes.map((route) => `${route.method.toUpperCase()} ${route.path}`)
        if (found.join('\n') !== group.paths.join('\n')) {
          throw new Error(`The route table (src/api/route-table.ts) says [${group.paths.join(', ')}] where the module defines [${found.join(', ')}]`)
        }
        return routes
      }))
  })
  // Every start makes these ninety routes: made in one array, without a split's array per entry,
  // each one object without a closure of its own (issue 33, round 9).
  const routes: LazyRoute[] = []
  for (let index = 0; index < groups.length; index++) {
    const { paths } = groups[index]!
    for (let position = 0; position < paths.length; position++) {
      const entry = paths[position]!
      const space = entry.indexOf(' ')
      routes.push(new TableRoute(methodOf(entry, space), entry, loads[index]!, position))
    }
  }
  return { routes, loadAll: async () => (await Promise.all(loads.map((load) => load()))).flat() }
}

class TableRoute implements LazyRoute {
  private pathMade: string | undefined

  constructor(
    readonly method: Method,
    /** `METHOD /path`, as the table gives it. */
    private readonly entry: string,
    private readonly loadGroup: () => Promise<readonly AnyRoute[]>,
    private readonly position: number,
  ) {}

  /** Cut from the table's entry when first asked (the route index asks on a request of the route's method): a string less for each route at start (issue 33, round 10). */
  get path(): string {
    return (this.pathMade ??= this.entry.slice(this.entry.indexOf(' ') + 1))
  }

  async load(): Promise<AnyRoute> {
    return (await this.loadGroup())[this.position]!
  }
}

const METHODS: ReadonlyArray<readonly [string, Method]> = [['GET', 'get'], ['POST', 'post'], ['PUT', 'put'], ['PATCH', 'patch'], ['DELETE', 'delete']]

/** `GET` in `GET /path`, lower-cased without making a string. */
function methodOf(entry: string, space: number): Method {
  for (let i = 0; i < METHODS.length; i++) {
    const method = METHODS[i]!
    if (space === method[0].length && entry.startsWith(method[0])) return method[1]
  }
  return entry.slice(0, space).toLowerCase() as Method
}
