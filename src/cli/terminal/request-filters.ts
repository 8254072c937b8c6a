import type { SandboxRequest } from '../../client/control-types.js'
import { TerminalError } from './target.js'

/**
 * `tail`'s filters, as `stripe logs tail` has them: each takes a comma list and a request must match
 * one value of each filter given. What `GET /_sandbox/requests` cannot take as a query (several
 * values, classes of statuses, path templates) is tested here, on the entries it answers.
 */
export interface RequestFilterFlags {
  /** `--status 4xx,5xx,404`. */
  status?: string
  /** `--method POST,DELETE`. */
  method?: string
  /** `--path /v1/payments,/v1/wallets/*,/v1/payments/{id}/cancel`. */
  path?: string
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']

/** The test of an entry that every filter given passes. Throws a TerminalError naming a value it cannot read. */
export function requestFilter(flags: RequestFilterFlags): (entry: SandboxRequest) => boolean {
  const tests = [
    flags.status === undefined ? undefined : statusTest(listOf(flags.status)),
    flags.method === undefined ? undefined : methodTest(listOf(flags.method)),
    flags.path === undefined ? undefined : pathTest(listOf(flags.path)),
  ].filter((test) => test !== undefined)
  return (entry) => tests.every((test) => test(entry))
}

const listOf = (spec: string) => spec.split(',').map((part) => part.trim()).filter((part) => part !== '')

/** The values a filter cannot read, as the error says them. */
function refuse(flag: string, takes: string, wrong: string[]): never {
  throw new TerminalError(`${flag} takes ${takes}; got ${wrong.length === 0 ? 'nothing' : wrong.map((part) => JSON.stringify(part)).join(', ')}`)
}

/** `4xx,5xx,404`: classes and codes. An entry without an answer (dropped) has no status, and passes none. */
function statusTest(parts: string[]): (entry: SandboxRequest) => boolean {
  const wanted = parts.map((part) => part.toLowerCase())
  const wrong = wanted.filter((part) => !/^[1-5](xx|\d\d)$/.test(part))
  if (wrong.length > 0 || wanted.length === 0) refuse('--status', 'classes and codes such as 4xx,5xx or 404,429', wrong)
  return ({ status }) => status !== null && wanted.some((part) => (part.endsWith('xx') ? String(status)[0] === part[0] : Number(part) === status))
}

function methodTest(parts: string[]): (entry: SandboxRequest) => boolean {
  const wanted = parts.map((part) => part.toUpperCase())
  const wrong = parts.filter((part) => !METHODS.includes(part.toUpperCase()))
  if (wrong.length > 0 || wanted.length === 0) refuse('--method', `HTTP methods such as GET or POST,DELETE (${METHODS.join(', ')})`, wrong)
  return ({ method }) => wanted.includes(method)
}

/**
 * Paths as the journal has them, without the query: `/v1/payments` exactly, `/v1/wallets/*` every
 * path under a prefix, `/v1/payments/{id}` one segment for each `{…}`.
 */
function pathTest(parts: string[]): (entry: SandboxRequest) => boolean {
  const wrong = parts.filter((part) => !/^\/[^*?\s]*\*?$/.test(part))
  if (wrong.length > 0 || parts.length === 0) refuse('--path', 'paths such as /v1/payments, a prefix such as /v1/wallets/* or a template such as /v1/payments/{id}', wrong)
  const patterns = parts.map((part) => {
    const prefix = part.endsWith('*')
    const body = (prefix ? part.slice(0, -1) : part).split(/\{[^/{}]*\}/).map(escape).join('[^/]+')
    return new RegExp(`^${body}${prefix ? '' : '$'}`)
  })
  return ({ path }) => patterns.some((pattern) => pattern.test(path))
}

const escape = (text: string) => text.replace(/[.+^${}()|[\]\\]/g, '\\$&')
