import type { Express, NextFunction, Request, RequestHandler, Response } from 'express'
import type { Method } from './route.js'

/** The part of express's router layer this module uses (not in express's types). */
interface RouterLayer {
  /** Express's own matcher: case-insensitive, one optional trailing slash, params decoded (URIError when they cannot be). */
  match(path: string): false | { params: Record<string, string> }
}

interface Entry {
  /** Lower-cased literal start of the path, up to its first parameter: a cheap test before the matcher. */
  prefix: string
  layer: RouterLayer
  handler: RequestHandler
}

/**
 * A shortcut in front of express's router for the route objects. Express tries its layers one by
 * one (the dashboard, then every route: about eighty), with its bookkeeping around each; this tries
 * only the routes of the request's method whose literal prefix fits, with the matcher express built
 * for that same layer, in the same order. So it picks the route express would pick, and anything it
 * does not match (HEAD, OPTIONS, 405, 404) goes on to express.
 */
export type RouteIndex = ReturnType<typeof createRouteIndex>

/** What the index finds for a request: the route's handler and its decoded path parameters. */
export interface FoundRoute {
  handler: RequestHandler
  params: Record<string, string>
}

export function createRouteIndex(app: Express) {
  const byMethod = new Map<string, Entry[]>()

  /**
   * The route object for a method and path, as express would pick it; undefined when none fits.
   * Throws a URIError when a parameter is not valid percent-encoding, as express's matcher does.
   */
  function find(method: string, path: string): FoundRoute | undefined {
    const entries = byMethod.get(method)
    if (!entries) return undefined
    const lower = path.toLowerCase()
    for (const entry of entries) {
      if (!lower.startsWith(entry.prefix)) continue
      const matched = entry.layer.match(path)
      if (matched) return { handler: entry.handler, params: matched.params }
    }
    return undefined
  }

  return {
    /** Registers the route with express (still the fallback) and in the index. */
    add(method: Method, path: string, handler: RequestHandler): void {
      app[method](path, handler)
      const stack = (app as unknown as { router: { stack: RouterLayer[] } }).router.stack
      const entry = { prefix: path.split(':')[0]!.toLowerCase(), layer: stack[stack.length - 1]!, handler }
      const key = method.toUpperCase()
      byMethod.set(key, [...(byMethod.get(key) ?? []), entry])
    },

    find,

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
