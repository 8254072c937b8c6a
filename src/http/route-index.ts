import type { NextFunction, Request, RequestHandler, Response } from 'express'
import { pathMatcher, type PathMatcher } from './path-matcher.js'
import type { Method } from './route.js'

interface Entry {
  /** Lower-cased literal start of the path, up to its first parameter: a cheap test before the matcher. */
  prefix: string
  match: PathMatcher
  handler: RequestHandler
}

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
  const routes: IndexedRoute[] = []

  /**
   * The route object for a method and path, as express would pick it; undefined when none fits.
   * Throws a URIError when a parameter is not valid percent-encoding, as express's matcher does.
   */
  // The last path asked and its lower case: a client asks the same path again and again, each time
  // a fresh string, and comparing it with the last is cheaper than a call into V8's case conversion
  // (issue 33, round 9).
  let lastPath = ''
  let lastLower = ''

  function find(method: string, path: string): FoundRoute | undefined {
    const entries = byMethod.get(method)
    if (!entries) return undefined
    if (path !== lastPath) {
      lastLower = path.toLowerCase()
      lastPath = path
    }
    const lower = lastLower
    for (const entry of entries) {
      if (!lower.startsWith(entry.prefix)) continue
      const matched = entry.match(path)
      if (matched) return { handler: entry.handler, params: matched.params }
    }
    return undefined
  }

  return {
    add(method: Method, path: string, handler: RequestHandler): void {
      routes.push({ method, path, handler })
      const colon = path.indexOf(':')
      const entry = { prefix: (colon === -1 ? path : path.slice(0, colon)).toLowerCase(), match: pathMatcher(path), handler }
      const key = method.toUpperCase()
      // Added to in place: a start adds ninety routes, and a copy of the method's list for each was
      // most of what building the index allocated (issue 33, round 7).
      const entries = byMethod.get(key)
      if (entries) entries.push(entry)
      else byMethod.set(key, [entry])
    },

    /** Every route added, in order. */
    routes: routes as readonly IndexedRoute[],

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
