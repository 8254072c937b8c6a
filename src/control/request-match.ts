import { boundedCache } from '../bounded-cache.js'
import type { StatusMatch } from '../schemas/requests.js'
import type { JournalRing } from './journal-ring.js'

/**
 * What `GET /_sandbox/requests` filters on and an expectation matches on (CONTRACT.md section 23):
 * paths as an exact path, a template with `{name}` segments, or a prefix ending in `*`; statuses
 * as a code or a class (`4xx`).
 */

/** A test of a path against `pattern` (already validated by PathPatternSchema), compiled once per pattern: a test asks the same few again and again. */
export const pathMatcher = boundedCache(256, compilePattern)

function compilePattern(pattern: string): (path: string) => boolean {
  const prefix = pattern.endsWith('*')
  const body = prefix ? pattern.slice(0, -1) : pattern
  if (!body.includes('{')) return prefix ? (path) => path.startsWith(body) : (path) => path === body
  const source = body
    .split('/')
    .map((segment) => (/^\{\w+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/')
  const regex = new RegExp(`^${source}${prefix ? '' : '$'}`)
  return (path) => regex.test(path)
}

/** A status (null: no answer was sent) against a code or a class such as `4xx`. */
export function statusMatches(expected: StatusMatch, status: number | null): boolean {
  if (status === null) return false
  return typeof expected === 'number' ? status === expected : Math.floor(status / 100) === Number(expected[0])
}

/** The filters of `GET /_sandbox/requests` that look at one entry (the account and `after` select the entries first). */
export interface JournalFilter {
  /** Upper case. */
  method?: string
  path?: string
  status?: StatusMatch
  idempotency_key?: string
}

/** A test of the `i`-th oldest entry of a ring, reading only the columns the filter names. */
export function filterTest(filter: JournalFilter): (ring: JournalRing, i: number) => boolean {
  const { method, status, idempotency_key: idempotencyKey } = filter
  const path = filter.path === undefined ? undefined : pathMatcher(filter.path)
  return (ring, i) => {
    if (method !== undefined && ring.methodAt(i) !== method) return false
    if (status !== undefined && !statusMatches(status, ring.statusAt(i) || null)) return false
    if (path !== undefined && !path(ring.pathAt(i))) return false
    if (idempotencyKey !== undefined && ring.idempotencyKeyAt(i) !== idempotencyKey) return false
    return true
  }
}
