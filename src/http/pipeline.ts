import type { Request, RequestHandler, Response } from 'express'
import type { AppDeps } from './context.js'
import { Exchange, type PreparedRoute } from './exchange.js'
import type { HttpServices } from './services.js'
import type { AnyRoute } from './route.js'
import { fastPathOf } from '../schemas/validate.js'

/**
 * Turns a route object into an express handler that runs the checks in the contract's order:
 * authentication → signature → rate limit → idempotency → injected faults → body and parameters → the handler.
 */
export function createRouteHandler(route: AnyRoute, deps: AppDeps, http: HttpServices): RequestHandler {
  const prepared: PreparedRoute = {
    route,
    deps,
    http,
    envelope: route.path.startsWith('/_sandbox') ? 'wrapped' : deps.config.envelope,
    bodyLimit: Math.max(route.bodyLimit ?? 0, deps.config.bodyLimit),
    params: route.request?.params,
    query: route.request?.query,
    body: route.request?.body,
    fastBody: fastPathOf(route.request?.body),
    idempotent: route.method === 'post' && route.auth !== 'control',
  }
  return (req: Request, res: Response) => new Exchange(prepared, req, res).run()
}
