/** A route path's matcher: the decoded parameters of a path it fits, or false. */
export type PathMatcher = (path: string) => false | { params: Record<string, string> }

/** A literal segment, or a parameter taking a whole segment: the only route path syntax the sandbox uses. */
const SEGMENT = /^(?:[A-Za-z0-9_.~-]+|:[A-Za-z_$][\w$]*)$/

/**
 * The matcher express 5 builds for a route path (its router's `Layer`, through path-to-regexp 8 with
 * the router's defaults: case-insensitive, one optional trailing slash, the whole path), made
 * without loading express, so that a start does not (src/http/app.ts). For a path of literal
 * segments and whole-segment parameters (`/v1/wallets/:id/balance`) path-to-regexp makes
 * `^(?:\/v1\/wallets\/([^\/]+)\/balance)(?:\/$)?$` with the `i` flag, and this makes the same
 * source (test/http/path-matcher.test.ts compares them for every route); any other syntax throws
 * here rather than match differently. Parameters are decoded as the router decodes them: only
 * when they hold a '%', into an object without a prototype, and a URIError (status 400) when they
 * are not valid percent-encoding.
 */
export function pathPattern(path: string): { regexp: RegExp; names: string[] } {
  const segments = path.split('/').slice(1)
  if (!path.startsWith('/') || segments.some((segment) => !SEGMENT.test(segment))) throw notSupported(path)
  const names: string[] = []
  const source = segments
    .map((segment) => {
      if (!segment.startsWith(':')) return `\\/${segment.replace(/[.+*?^${}()[\]|/\\]/g, '\\$&')}`
      names.push(segment.slice(1))
      return '\\/([^\\/]+)'
    })
    .join('')
  return { regexp: new RegExp(`^(?:${source})(?:\\/$)?$`, 'i'), names }
}

/**
 * The matcher of `path`, whose regular expression is made on its first match: most routes never see
 * one in a test's sandbox, and a start makes ninety. (Every route's path is checked by
 * test/http/path-matcher.test.ts, so none throws here in use.)
 */
export function pathMatcher(path: string): PathMatcher {
  let pattern: { regexp: RegExp; names: string[] } | undefined
  return (input) => {
    const { regexp, names } = (pattern ??= pathPattern(path))
    const found = regexp.exec(input)
    if (!found) return false
    const params: Record<string, string> = Object.create(null)
    for (let i = 0; i < names.length; i++) params[names[i]!] = decodeParam(found[i + 1]!)
    return { params }
  }
}

const notSupported = (path: string) => new Error(`Route path ${path} is not literal segments and :parameters`)

/** As express's router decodes a path parameter (router/lib/layer.js). */
function decodeParam(value: string): string {
  if (value.length === 0 || !value.includes('%')) return value
  try {
    return decodeURIComponent(value)
  } catch (error) {
    if (error instanceof URIError) Object.assign(error, { message: `Failed to decode param '${value}'`, status: 400, statusCode: 400 })
    throw error
  }
}
