import type { IncomingMessage, ServerResponse } from 'node:http'
import { parse as parseQuery } from 'node:querystring'
import type { Express, NextFunction, Request, RequestHandler, Response } from 'express'
import { ApiError } from '../errors.js'
import type { AppDeps } from './context.js'
import { holdAnswersUntilDurable } from './middleware/durable-answers.js'
import { createRouteHandler } from './pipeline.js'
import { limitPipelining } from './pipelining.js'
import type { HttpServices } from './services.js'
import { renderError, send } from './respond.js'
import { setAnswerHeader } from './answer-headers.js'
import type { LazyRoute } from './lazy-routes.js'
import { createRouteIndex, type FoundRoute } from './route-index.js'
import type { PlainRequest, PlainResponse } from './plain-messages.js'
import { toExpressPath } from './route.js'
import { VERSION, VERSION_HEADER } from '../version.js'
import { monotonicMs } from '../clock.js'

export interface HttpApp {
  /** The express app: the dashboard, HEAD and OPTIONS, 405 and 404, and every route as well; built (and express loaded) on first use. */
  expressApp(): Promise<Express>
  /** The server's request listener: a request for a route object goes straight to it, anything else to the express app. */
  listener: (req: IncomingMessage, res: ServerResponse) => void
  /** The route object a request would go to, or undefined when the listener would give it to express (src/http/plain-connection.ts asks before it takes a request). */
  locate(method: string, url: string): LocatedRoute | undefined
  /** What the listener does with a request `locate` found a route object for: `front`, then the route's handler. */
  serve(req: PlainRequest, res: PlainResponse, located: LocatedRoute, url: string): void
}

/** What `locate` finds: the route object, the path and the query (the text after '?', if any). */
export class LocatedRoute {
  constructor(
    readonly found: FoundRoute,
    readonly path: string,
    readonly query: string | undefined,
  ) {}
}

interface KnownPath {
  pattern: RegExp
  methods: string[]
  error: () => ApiError
}

/**
 * The route index (one handler per route object) and the listener in front of it, and the express
 * app behind it (src/http/express-app.ts: the dashboard's files, HEAD and OPTIONS, 405 for a known
 * path, then 404), which is built with the first request that needs it: loading express and
 * building its app was about a tenth of a cold start (issue 33), and a start's health checks and
 * a test's first requests are all route objects. `front` runs ahead of every request in both: the
 * durable-answer hold, the pipelining limit, the request id and journal, then any middleware the
 * caller adds (the test suite's response recorder). A route's module loads with the first request
 * for it (src/http/lazy-routes.ts).
 */
export function createApp(deps: AppDeps, http: HttpServices, routes: readonly LazyRoute[], extra: RequestHandler[] = []): HttpApp {
  const front: RequestHandler[] = [
    ...(deps.config.dataFile && deps.config.durability === 'strict' ? [holdAnswersUntilDurable(() => deps.store.durable())] : []),
    limitPipelining(http.journal ? journalOnClose(http) : undefined),
    identifyAndLog(deps, http),
    ...extra,
  ]
  const index = createRouteIndex()
  const handlerFor = (route: LazyRoute) => handlerOnFirstRequest(route, deps, http)
  for (const route of routes) index.addLazily(route.method, route, expressPathOf, handlerFor)
  let knownPaths: KnownPath[] | undefined
  // A path that some route has, asked with a method none of them takes: 405, matched as express
  // matches (case-insensitive, one optional trailing slash) but without decoding the parameters, so
  // that a wrong method is 405 even where the path's percent-encoding is bad (CONTRACT.md section
  // 13). One test here rather than one express route per path: those were a tenth of start-up.
  const knownPathsOf = (path: string) => (knownPaths ??= listKnownPaths(routes)).filter((entry) => entry.pattern.test(path))
  const noRoute = (req: Request): never => {
    const [known] = knownPathsOf(req.path)
    if (known) throw known.error()
    throw new ApiError('route_not_found', `No route ${req.method} ${req.path}. The API lives under /v1 (see GET /v1/openapi.json) and the sandbox controls under /_sandbox.`)
  }
  const answerError = (error: unknown, req: Request, res: Response) => {
    // The router decodes path parameters before any handler runs; bad percent-encoding is the client's mistake.
    // A known path with the wrong method is 405 before any parameter is looked at (CONTRACT.md section 13), even one express cannot decode.
    if (error instanceof URIError) {
      const known = knownPathsOf(req.path)
      const wrongMethod = known.length > 0 && !known.some((entry) => entry.methods.includes(req.method))
      error = wrongMethod ? known[0]!.error() : new ApiError('parameter_invalid', 'The URL path is not valid percent-encoding; encode reserved characters as %XX with two hex digits.')
    }
    send(res, renderError(error, res.locals.requestId ?? 'req_unknown', http.logError))
  }

  let app: Express | undefined
  let building: Promise<Express> | undefined
  const expressApp = () =>
    (building ??= import('./express-app.js').then(({ buildExpressApp }) => (app = buildExpressApp({ front, index, noRoute, answerError }))))
  /** A request for no route object: to the express app, once it is built. */
  const toExpress = (req: IncomingMessage, res: ServerResponse) => {
    if (app) return void app(req, res)
    expressApp().then(
      (built) => built(req, res),
      (error: unknown) => send(res as unknown as Response, renderError(error, 'req_unknown', http.logError)),
    )
  }

  /**
   * Express's handling around each request (its router's walk of the layers, and the prototypes it
   * swaps onto every request and response, which leave node's own code megamorphic) was more than
   * half of the sandbox's CPU for a `POST /v1/payments`. A request for a route object therefore goes
   * straight to its handler, through `front` and with the few request fields the pipeline reads
   * (`path`, `params`, `query` as express's simple parser makes it, `originalUrl`, `res.locals`).
   * Everything else goes to express, as does a path whose parameters cannot be decoded, so that
   * express answers it as before.
   */
  function listener(req: IncomingMessage, res: ServerResponse): void {
    const url = req.url ?? ''
    const located = locate(req.method ?? '', url)
    if (!located) {
      // Every answer says which sandbox gave it, errors and the dashboard included: a helper checks it is compatible.
      res.setHeader(VERSION_HEADER, VERSION)
      return toExpress(req, res)
    }
    serve(req, res, located, url)
  }

  /** The route object a request for `method` and `url` goes to, or undefined when it goes to express. */
  function locate(method: string, url: string): LocatedRoute | undefined {
    // As express reads a URL (parseurl): the path ends at '?' or '#', the query at '#'.
    const hashAt = url.indexOf('#')
    const target = hashAt === -1 ? url : url.slice(0, hashAt)
    const queryAt = target.indexOf('?')
    const path = queryAt === -1 ? target : target.slice(0, queryAt)
    let found: FoundRoute | undefined
    try {
      found = path.startsWith('/') ? index.find(method, path) : undefined
    } catch {
      found = undefined
    }
    return found === undefined ? undefined : new LocatedRoute(found, path, queryAt === -1 ? undefined : target.slice(queryAt + 1))
  }

  /** Runs `front`, then the route object's handler, for a request `locate` found a route object for. */
  function serve(req: IncomingMessage | PlainRequest, res: ServerResponse | PlainResponse, located: LocatedRoute, url: string): void {
    const { handler, params } = located.found
    // Stored one by one: Object.assign walked the keys of a new object for each request (a fifth of the listener's time).
    const fields = req as unknown as FastPathRequest
    fields.path = located.path
    fields.params = params
    fields.query = located.query === undefined ? {} : parseQuery(located.query)
    fields.originalUrl = url
    const request = req as unknown as Request
    // The headers wait in `locals.headers` and go out with the status line (answer-headers.ts).
    const response = res as unknown as Response
    response.locals = new Locals()
    runMiddleware(front, request, response, (error) => {
      // A route object's handler answers every error itself (src/http/exchange.ts); one that
      // returns a promise (a handler made on its route's first request, say) may still reject.
      if (error !== undefined) return answerError(error, request, response)
      const pending: unknown = handler(request, response, noNext)
      if (pending instanceof Promise) pending.catch((thrown: unknown) => answerError(thrown, request, response))
    })
  }

  return { expressApp, listener, locate, serve }
}

const expressPathOf = (route: LazyRoute): string => toExpressPath(route.path)

/** Each path of `routes`, with the methods it takes (HEAD too where it takes GET) and its 405. */
function listKnownPaths(routes: readonly LazyRoute[]): KnownPath[] {
  const methodsByPath = new Map<string, string[]>()
  for (const route of routes) {
    const path = toExpressPath(route.path)
    methodsByPath.set(path, [...(methodsByPath.get(path) ?? []), route.method.toUpperCase()])
  }
  return [...methodsByPath].map(([path, methods]) => {
    const allow = [...methods, ...(methods.includes('GET') ? ['HEAD'] : [])].join(', ')
    const error = () => new ApiError('method_not_allowed', `${path.replace(/:(\w+)/g, '{$1}')} does not support this method; it supports ${allow}.`, { headers: { Allow: allow } })
    const pattern = new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:\w+/g, '[^/]+')}/?$`, 'i')
    return { pattern, methods: allow.split(', '), error }
  })
}

/** The request fields the pipeline reads, given on the fast path as express would give them. */
interface FastPathRequest {
  path: string
  params: Record<string, string>
  query: Record<string, unknown>
  originalUrl: string
}

/**
 * `res.locals` of a request that goes straight to its route object: the fields the pipeline, the
 * request log and the journal share, declared up front so that each request's object has the same
 * shape (express's own, without a prototype, is a dictionary).
 */
class Locals {
  [name: string]: unknown
  requestId: string | undefined = undefined
  accountId: string | undefined = undefined
  requestBody: Buffer | undefined = undefined
  responseBody: string | Buffer | undefined = undefined
  /** The answer's length in bytes, as `send` wrote it (respond.ts). */
  responseBytes: number | undefined = undefined
  fault: string | undefined = undefined
  /** The first request's id, on an idempotent replay. */
  replayOf: string | undefined = undefined
  /** The answer's headers until `send` writes them (answer-headers.ts): the version's first, as every answer's. */
  headers: string[] | undefined = [VERSION_HEADER, VERSION]
  /** When the request arrived: monotonic, for its duration, and on the sandbox clock, for the journal. */
  startedMs = 0
  atMs = 0
}

const noNext = () => {}

/** The route's handler, made once its module has loaded: the first request for it waits for that. */
function handlerOnFirstRequest(route: LazyRoute, deps: AppDeps, http: HttpServices): RequestHandler {
  let handler: RequestHandler | undefined
  return (req, res, next) => {
    if (handler) return handler(req, res, next)
    return route.load().then((loaded) => (handler ??= createRouteHandler(loaded, deps, http))(req, res, next))
  }
}

// X-Request-Id as sent: an idempotent replay carries the first request's id, an account's
// request the id of its account's sequence, given once its key was known (pipeline.ts).
const timing = (res: Response) => ({ requestId: (res.locals.replayOf as string | undefined) ?? (res.locals.requestId as string), durationMs: monotonicMs() - (res.locals.startedMs as number) })

/**
 * Journals a request once its answer has closed ('close' also comes for requests that never got an
 * answer: dropped, held, abandoned by the client), called by the pipelining limit's 'close' listener
 * (pipelining.ts): a request it never let through was never given an id, and is not journaled.
 */
function journalOnClose(http: HttpServices): (this: ServerResponse) => void {
  const journal = http.journal!
  return function journaled(this: ServerResponse) {
    const res = this as unknown as Response
    if (res.locals?.requestId === undefined) return
    journal.record(res.req, res, timing(res), res.locals.atMs as number)
  }
}

/**
 * Gives each request its id (the X-Request-Id header), and logs it once answered (the journal's
 * listener is the pipelining limit's, journalOnClose). The listener is made once, not per request:
 * it reads its request's arrival from `res.locals` and is called with the response as `this`
 * (node's ServerResponse knows its request as `res.req`).
 */
function identifyAndLog(deps: AppDeps, http: HttpServices): RequestHandler {
  const { onResponse, journal } = http
  function logged(this: Response) {
    onResponse!(this.req, this, timing(this))
  }
  return (req, res, next) => {
    const requestId = `req_${http.requestIds.base62(24)}`
    const { locals } = res
    locals.requestId = requestId
    setAnswerHeader(res, 'X-Request-Id', requestId)
    locals.startedMs = monotonicMs()
    if (onResponse) res.on('finish', logged)
    if (journal) locals.atMs = deps.clock.now()
    next()
  }
}

/** Runs middleware in order, as express would: each calls `next()` to go on, `next(error)` to stop with an error, or neither to end the request itself. */
function runMiddleware(middleware: readonly RequestHandler[], req: Request, res: Response, done: (error?: unknown) => void): void {
  let position = 0
  const next = (error?: unknown) => {
    if (error !== undefined && error !== null) return done(error)
    const handler = middleware[position++]
    if (!handler) return done()
    try {
      handler(req, res, next)
    } catch (thrown) {
      done(thrown)
    }
  }
  next()
}
