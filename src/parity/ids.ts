import { isSecretString } from './secrets.js'

/**
 * Ids as the API writes them (`wal_…`, `pay_…`, `req_…`): a short lower-case prefix, an underscore
 * and at least 12 letters and digits. Status values and error codes (`partially_filled`,
 * `insufficient_funds`) are too short after their first underscore to be taken for one.
 */
const ID = /^([a-z][a-z0-9]{0,11})_([A-Za-z0-9]{12,})$/

export const isId = (value: string): boolean => ID.test(value) && !isSecretString(value)

/** A path segment as text; a malformed escape (`%E0`) stays as it came. */
export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

/** `wal_3Fq…` → `wal`. */
export const idPrefix = (id: string): string => id.slice(0, id.indexOf('_'))

/**
 * The path a difference key names: every segment that is an id becomes `{id}`, so that
 * `/v1/wallets/wal_3Fq…/balance` on one side and `/v1/wallets/wal_x9Z…/balance` on the other are the
 * operation `/v1/wallets/{id}/balance`. The query is not part of it.
 */
export function pathTemplate(path: string): string {
  return (path.split('?')[0] ?? '')
    .split('/')
    .map((segment) => (isId(decodeSegment(segment)) ? '{id}' : segment))
    .join('/')
}

/** `GET /v1/wallets/{id}`: what the per-operation table groups by and every key starts with. */
export const operationOf = (method: string, path: string): string => `${method.toUpperCase()} ${pathTemplate(path)}`
