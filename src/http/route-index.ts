import type { NextFunction, Request, RequestHandler, Response } from 'express'
import { pathMatcher, type PathMatcher } from './path-matcher.js'
import type { Method } from './route.js'

/**
 * A route in the index. Its matcher and handler are made when a request first reaches them: a start
 * adds ninety routes, and one object each instead of an entry, a route record, two closures and
 * their contexts took 30 KB of young allocation off a start (issue 33, round 9).
 */
interface Entry<S = unknown> {
  method: Method
  /** Express style; for a route added lazily, `makePath(source)`, made when first needed (see `prefixOf`). */
  path: string | undefined
  /** Lower-cased literal start of the path, up to its first parameter: a cheap test before the matcher. Made with `path`. */
  prefix: string | undefined
  match: PathMatcher | undefined
  handler: RequestHandler | undefined
  /** What `make` makes the handler of, on the route's first request (`addLazily`). */
  source: S
  make: ((source: S) => RequestHandler) | undefined
  makePath: ((source: S) => string) | undefined
}

const handlerOf = (entry: Entry): RequestHandler => (entry.handler ??= entry.make!(entry.source))
const pathOf = (entry: Entry): string => (entry.path ??= entry.makePath!(entry.source))

/**
 * A route's prefix, and its path, made when a request of its method first reaches it: a start adds
 * eighty routes, and their express paths (a regular expression's replace each) and prefixes were
 * about 20 KB of its young allocation before its first answer, which looks at the GET routes up to
 * the health check's (issue 33, round 10).
 */
function prefixOf(entry: Entry): string {
  const path = pathOf(entry)
  const colon = path.indexOf(':')
  return (entry.prefix = (colon === -1 ? path : path.slice(0, colon)).toLowerCase())
}

/** The key of a method's list, without a string made for each route. */
const METHOD_KEYS: ReadonlyMap<string, string> = new Map([['get', 'GET'], ['post', 'POST'], ['put', 'PUT'], ['patch', 'PATCH'], ['delete', 'DELETE']])

/** A route as it was added: what the express app, built on first need, registers as well. */
export interface IndexedRoute {
  method: Method
  /** Express style: `/v1/wallets/:id`. */
  path: string
  handler: RequestHandler
}

/**
 * The route objects by method and path, matched as express's router matches them (the same
 * matcher: src/http/path-matcher.ts) and tried in the order they were added, as express tries its
 * layers: so it picks the route express would pick. The listener serves what it finds without
 * express; the express app (HEAD, OPTIONS, 405, 404, the dashboard), built on the first request
 * that needs it, runs the same index as its middleware ahead of its own routes.
 */
export type RouteIndex = ReturnType<typeof createRouteIndex>

/** What the index finds for a request: the route's handler and its decoded path parameters. */
export interface FoundRoute {
  handler: RequestHandler
  params: Record<string, string>
}

export function createRouteIndex() {
  const byMethod = new Map<string, Entry[]>()
  const entries: Entry[] = []

  // The last path asked and its lower case: a client asks the same path again and again, each time
  // a fresh string, and comparing it with the last is cheaper than a call into V8's case conversion
  // (issue 33, round 9).
  let lastPath = ''
  let lastLower = ''

  /**
   * The route object for a method and path, as express would pick it; undefined when none fits.
   * Throws a URIError when a parameter is not valid percent-encoding, as express's matcher does.
   */
  function find(method: string, path: string): FoundRoute | undefined {
    const listed = byMethod.get(method)
    if (!listed) return undefined
    if (path !== lastPath) {
      lastLower = path.toLowerCase()
      lastPath = path
    }
    const lower = lastLower
    for (const entry of listed) {
      if (!lower.startsWith(entry.prefix ?? prefixOf(entry))) continue
      const matched = (entry.match ??= pathMatcher(pathOf(entry)))(path)
      if (matched) return { handler: handlerOf(entry), params: matched.params }
    }
    return undefined
  }

  function addEntry<S>(method: Method, path: string | undefined, handler: RequestHandler | undefined, source: S, make: ((source: S) => RequestHandler) | undefined, makePath: ((source: S) => string) | undefined): void {
    const entry: Entry<S> = { method, path, prefix: undefined, match: undefined, handler, source, make, makePath }
    if (path !== undefined) prefixOf(entry as Entry)
    entries.push(entry as Entry)
    const key = METHOD_KEYS.get(method) ?? method.toUpperCase()
    // Added to in place: a start adds ninety routes, and a copy of the method's list for each was
    // most of what building the index allocated (issue 33, round 7).
    const listed = byMethod.get(key)
    if (listed) listed.push(entry as Entry)
    else byMethod.set(key, [entry as Entry])
  }

  return {
    add(method: Method, path: string, handler: RequestHandler): void {
      addEntry(method, path, handler, undefined, undefined, undefined)
    },

    /**
     * A route whose express-style path `makePath(source)` makes when a request of its method first
     * reaches it, and whose handler `make(source)` makes when the route is first found (or the
     * express app built).
     */
    addLazily<S>(method: Method, source: S, makePath: (source: S) => string, make: (source: S) => RequestHandler): void {
      addEntry(method, undefined, undefined, source, make, makePath)
    },

    /** Every route added, in order (for the express app, built on first need). */
    get routes(): readonly IndexedRoute[] {
      return entries.map((entry) => ({ method: entry.method, path: pathOf(entry), handler: handlerOf(entry) }))
    },

    find,

    /** The index as express middleware: a route object found is served, anything else goes on. */
    middleware(req: Request, res: Response, next: NextFunction): void {
      let found: FoundRoute | undefined
      try {
        found = find(req.method, req.path)
      } catch (error) {
        return next(error) // bad percent-encoding in a parameter, as express reports it
      }
      if (!found) return next()
      req.params = found.params
      Promise.resolve(found.handler(req, res, next)).catch(next)
    },
  }
}
