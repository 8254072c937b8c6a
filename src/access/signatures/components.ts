import { isInnerList, parseDictionary, parseItem, parseList, serializeDictionary, serializeInnerList, serializeItem, serializeList, type Item } from 'structured-headers'
import { fieldValues, type SignedMessage } from './message.js'
import { SignatureFormatError } from './signature-error.js'

/**
 * The value of one covered component (RFC 9421 section 2): a derived component (`@method`, …) or
 * a header field with its parameters (`sf`, `key`, `bs`).
 */
export function componentValue(component: Item, message: SignedMessage): string {
  const [name, params] = component
  if (typeof name !== 'string') throw new SignatureFormatError('a covered component must be a string such as "@method" or "content-digest"')
  if (name !== name.toLowerCase()) throw new SignatureFormatError(`component names are lower case: write "${name.toLowerCase()}", not "${name}"`)
  for (const param of params.keys()) {
    if (!KNOWN_PARAMS.has(param)) throw new SignatureFormatError(`the component parameter ;${param} is not defined by RFC 9421`)
  }
  if (params.has('req') || params.has('tr')) throw new SignatureFormatError(`;req and ;tr do not apply to a request's own signature (component "${name}")`)
  if (name.startsWith('@')) return derivedValue(name, params, message)
  return fieldValue(name, params, message)
}

const KNOWN_PARAMS = new Set(['sf', 'key', 'bs', 'req', 'tr', 'name'])

/** A component as the left side of a base line shows it: `"@method"`, `"@query-param";name="id"`. */
export const componentIdentifier = (component: Item): string => serializeItem(component)

function derivedValue(name: string, params: Item[1], message: SignedMessage): string {
  if (name !== '@query-param' && params.size > 0) throw new SignatureFormatError(`the derived component ${name} takes no parameters`)
  const [path = '', query] = splitTarget(message.target)
  switch (name) {
    case '@method':
      return message.method
    case '@target-uri':
      return `${message.scheme}://${authority(message)}${message.target}`
    case '@authority':
      return authority(message)
    case '@scheme':
      return message.scheme.toLowerCase()
    case '@request-target':
      return message.target
    case '@path':
      return path === '' ? '/' : path
    case '@query':
      return `?${query ?? ''}`
    case '@query-param':
      return queryParam(params.get('name'), query ?? '')
    case '@status':
      throw new SignatureFormatError('@status belongs to responses; a request cannot cover it')
    default:
      throw new SignatureFormatError(`${name} is not a derived component of RFC 9421`)
  }
}

function splitTarget(target: string): [string, string | undefined] {
  const at = target.indexOf('?')
  return at < 0 ? [target, undefined] : [target.slice(0, at), target.slice(at + 1)]
}

/** Host as RFC 9110 section 4.2.3 normalises it: lower case, without the scheme's default port. */
function authority(message: SignedMessage): string {
  const host = message.host.trim().toLowerCase()
  const defaultPort = message.scheme === 'https' ? ':443' : ':80'
  return host.endsWith(defaultPort) ? host.slice(0, -defaultPort.length) : host
}

function queryParam(name: unknown, query: string): string {
  if (typeof name !== 'string') throw new SignatureFormatError('@query-param needs a string parameter ;name="…"')
  const values = new URLSearchParams(query).getAll(name)
  if (values.length === 0) throw new SignatureFormatError(`the query has no parameter "${name}" (component "@query-param";name="${name}")`)
  if (values.length > 1) throw new SignatureFormatError(`the query parameter "${name}" occurs ${values.length} times; cover @query instead`)
  return encodeURIComponent(values[0]!)
}

/** Fields whose structured type the sandbox knows, for ;sf and ;key. */
const STRUCTURED_FIELDS: Record<string, 'dictionary' | 'list' | 'item'> = {
  'content-digest': 'dictionary',
  'repr-digest': 'dictionary',
  'signature': 'dictionary',
  'signature-input': 'dictionary',
  'accept-signature': 'dictionary',
  'idempotency-key': 'item',
}

function fieldValue(name: string, params: Item[1], message: SignedMessage): string {
  const values = fieldValues(message, name)
  if (values.length === 0) throw new SignatureFormatError(`the request has no ${name} header, but the signature covers it`)
  if (params.has('bs')) {
    if (params.has('sf') || params.has('key')) throw new SignatureFormatError(`;bs cannot be combined with ;sf or ;key (component "${name}")`)
    return values.map((value) => serializeItem([Buffer.from(value, 'latin1'), new Map()])).join(', ')
  }
  const combined = values.join(', ')
  if (!params.has('sf') && !params.has('key')) return combined
  const type = STRUCTURED_FIELDS[name]
  if (!type) throw new SignatureFormatError(`;sf and ;key need a structured field the sandbox knows (${Object.keys(STRUCTURED_FIELDS).join(', ')}); ${name} is not one`)
  try {
    const key = params.get('key')
    if (key !== undefined) {
      if (type !== 'dictionary' || typeof key !== 'string') throw new SignatureFormatError(`;key needs a string and a dictionary field (component "${name}")`)
      const member = parseDictionary(combined).get(key)
      if (member === undefined) throw new SignatureFormatError(`the ${name} header has no member "${key}"`)
      return isInnerList(member) ? serializeInnerList(member) : serializeItem(member)
    }
    if (type === 'dictionary') return serializeDictionary(parseDictionary(combined))
    if (type === 'list') return serializeList(parseList(combined))
    return serializeItem(parseItem(combined))
  } catch (error) {
    if (error instanceof SignatureFormatError) throw error
    throw new SignatureFormatError(`the ${name} header is not a valid structured field: ${(error as Error).message}`)
  }
}
