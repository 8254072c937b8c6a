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
  if (isLiteral(path)) return literalMatcher(path)
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

/**
 * A path of literal segments only (`/` and one or more of [A-Za-z0-9_.~-], again and again), which
 * `pathPattern` would take (test/http/path-matcher.test.ts): checked by hand, not with a regular
 * expression that a start would compile for it.
 */
function isLiteral(path: string): boolean {
  if (path.length < 2 || path.charCodeAt(path.length - 1) === 0x2f) return false
  for (let i = 0; i < path.length; i++) {
    const code = path.charCodeAt(i)
    if (code === 0x2f) {
      if (i > 0 && path.charCodeAt(i - 1) === 0x2f) return false
      continue
    }
    if (i === 0) return false
    const letterOrDigit = (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)
    if (!letterOrDigit && code !== 0x5f && code !== 0x2e && code !== 0x7e && code !== 0x2d) return false
  }
  return true
}

/**
 * The matcher of a path without parameters, without its regular expression: what `pathPattern`'s
 * makes of it (`^(?:\/v1\/prices)(?:\/$)?$`, case-insensitive) is the path in any ASCII case, then
 * at most one '/'. Without the `u` flag no other character matches an ASCII letter case-insensitively
 * (the Kelvin sign is not a `k` there, as it is for `toLowerCase`), so the characters are compared
 * as ASCII. Making and compiling the expression was 6.5 KB of a start's young allocation, for its
 * first health check (issue 33, round 9).
 */
function literalMatcher(path: string): PathMatcher {
  const lower = path.toLowerCase()
  const length = lower.length
  return (input) => {
    if (input.length !== length && !(input.length === length + 1 && input.charCodeAt(length) === 0x2f)) return false
    for (let i = 0; i < length; i++) {
      const code = input.charCodeAt(i)
      if ((code >= 0x41 && code <= 0x5a ? code + 0x20 : code) !== lower.charCodeAt(i)) return false
    }
    return { params: Object.create(null) as Record<string, string> }
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
