import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express'
import { mountDashboard } from '../dashboard.js'
import type { RouteIndex } from './route-index.js'

export interface ExpressAppParts {
  /** What runs ahead of every request (src/http/app.ts). */
  front: readonly RequestHandler[]
  index: RouteIndex
  /** Throws the 405 or 404 of a request no route took. */
  noRoute(req: Request): never
  answerError(error: unknown, req: Request, res: Response): void
}

/**
 * The express app: `front`, the dashboard's files, the route index (every route object), the routes
 * again as express routes (which answer HEAD for GET), then 405 for a known path and 404, and the
 * error handler. The listener serves route objects without it (src/http/app.ts), so it is built,
 * and express loaded, with the first request that needs it: HEAD, OPTIONS, the dashboard, a path no
 * route takes, a parameter that is not valid percent-encoding.
 */
export function buildExpressApp({ front, index, noRoute, answerError }: ExpressAppParts): Express {
  const app = express()
  app.disable('x-powered-by')
  app.disable('etag')
  app.set('query parser', 'simple')
  app.use([...front])
  // Static files, not route objects: they are not part of the API, so not of its OpenAPI document.
  mountDashboard(app)
  app.use(index.middleware)
  for (const route of index.routes) app[route.method](route.path, route.handler)
  app.use((req) => noRoute(req))
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => answerError(error, req, res))
  return app
}
