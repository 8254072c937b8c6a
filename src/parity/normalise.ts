import { isValidAddress, networksForAddress } from '../chain/networks.js'
import { isNetwork } from '../model/networks.js'
import { idPrefix, isId } from './ids.js'
import { isSecretField, isSecretString, SECRET } from './secrets.js'

/**
 * One side's answer made comparable with the other's (CONTRACT.md section 22): ids become
 * `<prefix>#n` in order of first appearance on that side, `request_id` goes, timestamps and addresses
 * that have their format become `<timestamp>` and `<address:network>`, secrets `<secret>`. What
 * should have a format and has not stays visible as `Malformed`, so the comparison can say so.
 */

/** A value replaced by what it stands for: equal tokens on both sides are the same thing. */
export class Token {
  constructor(
    readonly kind: 'id' | 'timestamp' | 'address' | 'secret',
    readonly text: string,
  ) {}
}

/** A string where a timestamp or an address was expected, without its format. */
export class Malformed {
  constructor(
    readonly expected: 'timestamp' | 'address',
    readonly raw: string,
  ) {}
}

export type Normalised = null | boolean | number | string | Token | Malformed | Normalised[] | { [field: string]: Normalised }

/** One side's numbering of ids, kept for the whole run so that relations between steps compare. */
export class IdNumbering {
  private readonly numbers = new Map<string, string>()
  private readonly counts = new Map<string, number>()

  numberOf(id: string): string {
    let number = this.numbers.get(id)
    if (number === undefined) {
      const prefix = idPrefix(id)
      const count = (this.counts.get(prefix) ?? 0) + 1
      this.counts.set(prefix, count)
      number = `${prefix}#${count}`
      this.numbers.set(id, number)
    }
    return number
  }
}

/** ISO 8601 in UTC with `Z`, as the contract writes every timestamp. */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/
/** What a timestamp in another form looks like: a date and a time of day. */
const TIMESTAMP_LIKE = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/
/** Fields that hold an address (a payment's `destination` holds a wallet id when the recipient is a wallet). */
const ADDRESS_FIELDS = new Set(['address', 'destination', 'recipient', 'from_address', 'to_address'])

const isTimestampField = (field: string) => field.endsWith('_at') || field === 'timestamp'

export function normalise(value: unknown, ids: IdNumbering, field = '', parent?: Record<string, unknown>): Normalised {
  if (typeof value === 'string') return normaliseString(value, ids, field, parent)
  if (Array.isArray(value)) return value.map((item) => normalise(item, ids, field, parent))
  if (value !== null && typeof value === 'object') {
    const object = value as Record<string, unknown>
    const out: Record<string, Normalised> = {}
    for (const [name, item] of Object.entries(object)) if (name !== 'request_id') out[name] = normalise(item, ids, name, object)
    return out
  }
  if (typeof value === 'number' || typeof value === 'boolean') return value
  return null
}

function normaliseString(value: string, ids: IdNumbering, field: string, parent: Record<string, unknown> | undefined): Normalised {
  if (isSecretField(field) || isSecretString(value)) return new Token('secret', SECRET)
  if (isId(value)) return new Token('id', ids.numberOf(value))
  if (TIMESTAMP_LIKE.test(value) || isTimestampField(field)) {
    return TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value)) ? new Token('timestamp', '<timestamp>') : new Malformed('timestamp', value)
  }
  if (ADDRESS_FIELDS.has(field)) return normaliseAddress(value, parent?.network)
  return value
}

/** Checked against the network beside it (`network` of the same object), else against any network. */
function normaliseAddress(value: string, network: unknown): Normalised {
  if (typeof network === 'string' && isNetwork(network)) {
    return isValidAddress(network, value) ? new Token('address', `<address:${network}>`) : new Malformed('address', value)
  }
  return networksForAddress(value).length > 0 ? new Token('address', '<address>') : value
}

/** How a normalised value reads in a difference: the token's text, the malformed string as it came. */
export function shown(value: Normalised | undefined): unknown {
  if (value instanceof Token) return value.text
  if (value instanceof Malformed) return value.raw
  if (Array.isArray(value)) return value.map(shown)
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, shown(item)]))
  return value ?? null
}
