import { readFile } from 'node:fs'
import type { Express, NextFunction, Request, Response } from 'express'
import { ApiError } from './errors.js'
import { EVENT_TYPES } from './model/events.js'

/**
 * The dashboard at /_sandbox/ui (CONTRACT.md section 10): static files that hold no data, so they are
 * served without the control token; the page reads everything through the token-protected control
 * API, never through /v1 (so it uses no key's rate limit and meets no injected fault).
 *
 * The files ship in `dashboard/` at the package root. This module sits directly in src/ so that
 * `../dashboard/` finds them from src/ (tests), dist/ (the library) and dist/cli.bundle.cjs (the CLI
 * bundle, where import.meta.url is the bundle's own file).
 */
const DASHBOARD_DIR = new URL('../dashboard/', import.meta.url)
const DASHBOARD_PATH = '/_sandbox/ui'

/** The only files served: a fixed list, so no request path ever reaches the file system. */
const HTML = 'text/html; charset=utf-8'
const JS = 'text/javascript; charset=utf-8'
const SCRIPTS = ['app.js', 'api.js', 'dom.js', 'event-types.js', 'events-feed.js', 'format.js', 'lists.js', 'pager.js', 'reads.js', 'views.js', 'views-money.js', 'views-sandbox.js', 'views-setup.js', 'views-settlements.js', 'views-events.js', 'views-requests.js']
/**
 * Files written here rather than shipped: the event types the Events view offers, from the one list
 * of them (the page has no build step to import it from).
 */
const GENERATED = new Map<string, Buffer>([
  ['event-types.js', Buffer.from(`// The event types the sandbox emits, for the Events view's filter (written by src/dashboard.ts).\nexport const EVENT_TYPES = ${JSON.stringify(EVENT_TYPES)}\n`)],
])
const ASSETS = new Map<string, { file: string; type: string }>([
  ['', { file: 'index.html', type: HTML }],
  ['index.html', { file: 'index.html', type: HTML }],
  ...SCRIPTS.map((file): [string, { file: string; type: string }] => [file, { file, type: JS }]),
  ['style.css', { file: 'style.css', type: 'text/css; charset=utf-8' }],
  ['favicon.svg', { file: 'favicon.svg', type: 'image/svg+xml' }],
])

/** Same-origin scripts, styles and requests only: no inline code, no third party, no framing. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

const HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  // A new version of the package must show its new page, not a cached one.
  'Cache-Control': 'no-cache',
}

/** Serves the dashboard's files; any other path under /_sandbox/ui falls through to the 404. */
export function mountDashboard(app: Express): void {
  // Read once, on first use: the files never change while the package is installed.
  const loaded = new Map<string, Promise<Buffer>>()
  const load = (file: string) => {
    let content = loaded.get(file)
    const generated = GENERATED.get(file)
    if (generated) return Promise.resolve(generated)
    if (!content) {
      // node:fs's callbacks, not node:fs/promises, which is about 1.5 ms of a cold start to load (issue 33).
      content = new Promise<Buffer>((resolve, reject) => readFile(new URL(file, DASHBOARD_DIR), (error, data) => (error ? reject(error) : resolve(data))))
      content.catch(() => loaded.delete(file)) // a failed read (a 500) is tried again next time
      loaded.set(file, content)
    }
    return content
  }
  const asset = (req: Request) => ASSETS.get((req.params as { file?: string }).file ?? '')
  // Express matches /_sandbox/ui/ with the first path too (routing is not strict about a final slash).
  const paths = [DASHBOARD_PATH, `${DASHBOARD_PATH}/:file`]

  app.get(paths, async (req: Request, res: Response, next: NextFunction) => {
    const found = asset(req)
    if (!found) return next()
    const content = await load(found.file)
    res.status(200).set({ ...HEADERS, 'Content-Type': found.type, 'Content-Length': String(content.length) })
    res.end(content) // node sends no body to a HEAD request
  })
  app.route(paths).all((req: Request, _res: Response, next: NextFunction) => {
    if (!asset(req)) return next()
    throw new ApiError('method_not_allowed', `${req.path} is a page of the dashboard; it supports GET, HEAD.`, { headers: { Allow: 'GET, HEAD' } })
  })
}
