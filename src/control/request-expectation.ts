import { isDeepStrictEqual } from 'node:util'
import type { RequestExpectation, RequestJournalEntry } from '../schemas/requests.js'
import { maskAuthorization, maskQuery } from './request-capture.js'
import type { EntryTest } from './request-journal.js'
import { pathMatcher, statusMatches } from './request-match.js'

/**
 * `POST /_sandbox/requests/expect` (CONTRACT.md section 23): which of an account's requests match an
 * expectation, and for the others what differs. WireMock's verification with its near misses is the
 * model: an expectation is satisfied by enough matches, and when it is not, the requests closest to
 * it (fewest differing fields, newest first) say what the client sent instead.
 */

/** One way a request differs: `actual` is absent when the request had no such field, header or parameter. */
export interface Difference {
  field: string
  expected: unknown
  actual?: unknown
}

export interface ExpectationResult {
  satisfied: boolean
  matched: RequestJournalEntry[]
  near_misses: Array<{ request: RequestJournalEntry; differences: Difference[] }>
}

/** How many near misses an answer carries. */
export const NEAR_MISSES = 5

/** What the expectation checks of a request, without the account and the counting. */
export type RequestPattern = Pick<RequestExpectation, 'method' | 'path' | 'query' | 'headers' | 'body' | 'status'>

/** What differs between `pattern` and `entry`, in the order method, path, query, headers, body, status; [] when it matches. */
export function differencesOf(pattern: RequestPattern, entry: RequestJournalEntry): Difference[] {
  const differences: Difference[] = []
  if (pattern.method !== undefined && entry.method !== pattern.method) differences.push({ field: 'method', expected: pattern.method, actual: entry.method })
  if (pattern.path !== undefined && !pathMatcher(pattern.path)(entry.path)) differences.push({ field: 'path', expected: pattern.path, actual: entry.path })
  if (pattern.query !== undefined) {
    const params = new URLSearchParams(entry.query ?? '')
    for (const [name, value] of Object.entries(pattern.query)) {
      // The journal keeps a key in the query masked; so is the one expected, to compare like with like and never echo it.
      const expected = name === 'api_key' ? maskQuery(`api_key=${encodeURIComponent(value)}`).slice('api_key='.length) : value
      const values = params.getAll(name)
      if (values.length === 0) differences.push({ field: `query.${name}`, expected })
      else if (!values.includes(expected)) differences.push({ field: `query.${name}`, expected, actual: values.length === 1 ? values[0] : values })
    }
  }
  for (const [name, wanted] of Object.entries(pattern.headers ?? {})) {
    const lower = name.toLowerCase()
    const field = `headers.${lower}`
    const actual = entry.headers[lower]
    if (wanted === true) {
      if (actual === undefined) differences.push({ field, expected: true })
    } else if (wanted === false) {
      if (actual !== undefined) differences.push({ field, expected: false, actual })
    } else {
      const expected = lower === 'authorization' || lower === 'proxy-authorization' ? maskAuthorization(wanted).header : wanted
      if (actual !== expected) differences.push(actual === undefined ? { field, expected } : { field, expected, actual })
    }
  }
  if (pattern.body !== undefined) differences.push(...bodyDifferences(pattern.body, entry.request_body))
  if (pattern.status !== undefined && !statusMatches(pattern.status, entry.status)) differences.push({ field: 'status', expected: pattern.status, actual: entry.status })
  return differences
}

/** How much of a body that is not JSON a difference shows. */
const SHOWN_TEXT = 500

function bodyDifferences(expected: unknown, text: string | null): Difference[] {
  if (text === null) return [{ field: 'body', expected }]
  let actual: unknown
  try {
    actual = JSON.parse(text)
  } catch {
    return [{ field: 'body', expected, actual: text.length > SHOWN_TEXT ? `${text.slice(0, SHOWN_TEXT)}…` : text }]
  }
  const differences: Difference[] = []
  compare(expected, actual, 'body', differences)
  return differences
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** An object matches when every field it names matches (a subset, nested objects likewise); anything else, arrays included, when equal. */
function compare(expected: unknown, actual: unknown, field: string, differences: Difference[]): void {
  if (!isObject(expected) || !isObject(actual)) {
    if (!isDeepStrictEqual(expected, actual)) differences.push({ field, expected, actual })
    return
  }
  for (const [key, value] of Object.entries(expected)) {
    const inner = `${field}${/^[A-Za-z_][A-Za-z0-9_-]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`}`
    if (!Object.hasOwn(actual, key)) differences.push({ field: inner, expected: value })
    else compare(value, actual[key], inner, differences)
  }
}

/** A test of a ring's entry against the pattern, for a waiting expectation: the cheap fields first. */
export function patternTest(pattern: RequestPattern): EntryTest {
  const path = pattern.path === undefined ? undefined : pathMatcher(pattern.path)
  return (ring, i) => {
    if (pattern.method !== undefined && ring.methodAt(i) !== pattern.method) return false
    if (path !== undefined && !path(ring.pathAt(i))) return false
    return differencesOf(pattern, ring.entryAt(i)).length === 0
  }
}

/** `entries` newest first: the matches, whether they are enough, and the closest of the others when they are not. */
export function evaluate(expectation: RequestExpectation, entries: RequestJournalEntry[]): ExpectationResult {
  const matched: RequestJournalEntry[] = []
  const others: Array<{ request: RequestJournalEntry; differences: Difference[] }> = []
  for (const entry of entries) {
    const differences = differencesOf(expectation, entry)
    if (differences.length === 0) matched.push(entry)
    else others.push({ request: entry, differences })
  }
  const satisfied = expectation.exactly ? matched.length === expectation.count : matched.length >= expectation.count
  // A stable sort of entries already newest first: fewest differences first, the newest of those first.
  const nearMisses = satisfied ? [] : others.sort((a, b) => a.differences.length - b.differences.length).slice(0, NEAR_MISSES)
  return { satisfied, matched, near_misses: nearMisses }
}
