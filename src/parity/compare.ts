import { Malformed, shown, Token, type Normalised } from './normalise.js'

/**
 * One step compared (CONTRACT.md section 22): the status codes, then the normalised bodies field by
 * field (by kind, and by value for the fields that mean the same on every account), then the
 * presence of the headers a client reads. Each difference has a stable key, `<METHOD> <path
 * template> <json path> <class>`, in which array indexes read `[*]`: the key of a field that differs
 * in every item of a list is one key.
 */

export const DIFFERENCE_CLASSES = ['status', 'missing', 'extra', 'kind', 'format', 'value', 'header'] as const
export type DifferenceClass = (typeof DIFFERENCE_CLASSES)[number]

export interface Difference {
  key: string
  class: DifferenceClass
  /** Where, with real indexes: `$.data[3].status`, `headers.x-request-id`, `status`. */
  path: string
  /** The local value as compared (a token's text, a malformed string as it came); null where absent. */
  local: unknown
  hosted: unknown
}

/** Headers compared by presence: what a client reads besides the body. */
export const COMPARED_HEADERS = [
  'content-type', 'retry-after', 'ratelimit', 'ratelimit-policy', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'idempotent-replayed', 'x-request-id',
] as const

/** Fields whose value means the same on every account, compared by value wherever they are. */
const BY_VALUE = new Set(['object', 'status', 'type', 'currency', 'network', 'has_more', 'limit', 'offset'])
/** And these, inside `error`. */
const ERROR_BY_VALUE = new Set(['type', 'code', 'param'])

export interface Answer {
  status: number
  headers: Record<string, string>
  body: Normalised
}

export interface CompareOptions {
  /** `POST /v1/payments`: the start of every key. */
  operation: string
  /** The request body's own amounts (`amount`, `source_amount`, `limit_price`…): the answer's resource must echo them. */
  requestBody?: unknown
  /** Compare the lengths of arrays too (a step whose lists hold only what the step made). */
  lengths?: boolean
}

export function compareAnswers(local: Answer, hosted: Answer, options: CompareOptions): Difference[] {
  const found: Array<Omit<Difference, 'key'> & { keyPath: string }> = []
  const add = (cls: DifferenceClass, path: string, keyPath: string, l: unknown, h: unknown): void => void found.push({ class: cls, path, keyPath, local: l, hosted: h })
  if (local.status !== hosted.status) add('status', 'status', 'status', local.status, hosted.status)
  for (const name of COMPARED_HEADERS) {
    if ((name in local.headers) !== (name in hosted.headers)) add('header', `headers.${name}`, `headers.${name}`, local.headers[name] ?? null, hosted.headers[name] ?? null)
  }
  const amounts = amountPaths(options.requestBody)
  const byValue = (field: string, parentKeyPath: string, keyPath: string) =>
    BY_VALUE.has(field) || (parentKeyPath === '$.error' && ERROR_BY_VALUE.has(field)) || amounts.has(keyPath)

  const walk = (l: Normalised, h: Normalised, path: string, keyPath: string, field: string, parentKeyPath: string): void => {
    const [lk, hk] = [kindOf(l), kindOf(h)]
    if (lk !== hk) return add('kind', path, keyPath, shown(l), shown(h))
    if (Array.isArray(l) && Array.isArray(h)) {
      for (let i = 0; i < Math.min(l.length, h.length); i++) walk(l[i]!, h[i]!, `${path}[${i}]`, `${keyPath}[*]`, field, parentKeyPath)
      if (options.lengths && l.length !== h.length) add('value', `${path}.length`, `${keyPath}.length`, l.length, h.length)
      return
    }
    if (lk === 'object') {
      const [lo, ho] = [l as Record<string, Normalised>, h as Record<string, Normalised>]
      for (const name of new Set([...Object.keys(ho), ...Object.keys(lo)])) {
        const [childPath, childKeyPath] = [`${path}.${name}`, `${keyPath}.${name}`]
        if (!(name in lo)) add('missing', childPath, childKeyPath, null, shown(ho[name]))
        else if (!(name in ho)) add('extra', childPath, childKeyPath, shown(lo[name]), null)
        else walk(lo[name]!, ho[name]!, childPath, childKeyPath, name, keyPath)
      }
      return
    }
    const cls = compareScalars(l, h, byValue(field, parentKeyPath, keyPath))
    if (cls) add(cls, path, keyPath, shown(l), shown(h))
  }
  walk(local.body, hosted.body, '$', '$', '', '')

  const seen = new Set<string>()
  const differences: Difference[] = []
  for (const { keyPath, ...difference } of found) {
    const key = `${options.operation} ${keyPath} ${difference.class}`
    if (seen.has(key)) continue
    seen.add(key)
    differences.push({ key, ...difference })
  }
  return differences
}

type Kind = 'null' | 'string' | 'number' | 'boolean' | 'array' | 'object'

function kindOf(value: Normalised): Kind {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'string' || value instanceof Token || value instanceof Malformed) return 'string'
  if (typeof value === 'object') return 'object'
  return typeof value as 'number' | 'boolean'
}

/** Two values of the same scalar kind: a format one side lacks, a different value where values must agree. */
function compareScalars(l: Normalised, h: Normalised, byValue: boolean): 'format' | 'value' | undefined {
  const [lm, hm] = [l instanceof Malformed, h instanceof Malformed]
  if (lm || hm) return lm && hm ? undefined : 'format'
  const [lt, ht] = [l instanceof Token, h instanceof Token]
  if (lt !== ht) return 'format'
  if (lt && ht) {
    const [a, b] = [l as Token, h as Token]
    if (a.kind !== b.kind) return 'format'
    return a.text === b.text ? undefined : 'value'
  }
  return byValue && l !== h ? 'value' : undefined
}

/** `{amount: "10.00"}` → the answer's `$.data.amount` (and `$.amount`, for bare answers). */
function amountPaths(requestBody: unknown): Set<string> {
  const paths = new Set<string>()
  if (requestBody === null || typeof requestBody !== 'object' || Array.isArray(requestBody)) return paths
  for (const name of Object.keys(requestBody)) {
    if (/amount|price/.test(name)) for (const root of ['$.data', '$']) paths.add(`${root}.${name}`)
  }
  return paths
}
