/**
 * What parity never shows (CONTRACT.md section 22): API keys, webhook signing secrets and private
 * keys. Anything that leaves the command (stdout, the report, the accept file, a recording) goes
 * through `redact` first; a known key is also cut out of the final text by `scrubKnown`.
 */

/** The placeholder a secret becomes, in normalised answers and in everything written. */
export const SECRET = '<secret>'

/** A secret found inside a longer string: a key in an error message, a PEM block in a field. */
const SECRET_INSIDE = /whsec_[A-Za-z0-9+/=_-]+|\b[sr]k_(?:test|live)_[A-Za-z0-9_]+|-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g

/** Fields whose value is a secret whatever it looks like. */
const SECRET_FIELDS = new Set(['secret', 'private_key', 'signing_secret', 'api_key', 'client_secret', 'password'])

/** A whole string that is a secret (the value of an endpoint's `secret`, a key). */
export function isSecretString(value: string): boolean {
  SECRET_INSIDE.lastIndex = 0
  const match = SECRET_INSIDE.exec(value)
  return match !== null && match.index === 0 && match[0].length === value.length
}

export const isSecretField = (name: string): boolean => SECRET_FIELDS.has(name.toLowerCase())

/** The string with every secret in it replaced by `<secret>`. */
export const redactText = (text: string): string => text.replace(SECRET_INSIDE, SECRET)

/** A copy of a JSON value with secret fields and secrets inside strings replaced. */
export function redact<T>(value: T): T {
  if (typeof value === 'string') return redactText(value) as T
  if (Array.isArray(value)) return value.map(redact) as T
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, isSecretField(name) && typeof item === 'string' ? SECRET : redact(item)])) as T
  }
  return value
}

/** The text with each of `known` (the keys this run holds) replaced: the last guard before anything is written. */
export function scrubKnown(text: string, known: ReadonlyArray<string | undefined>): string {
  let out = text
  for (const secret of known) if (secret !== undefined && secret.length >= 8) out = out.split(secret).join(SECRET)
  return out
}

/** `sk_live_…` (and `rk_live_…`): a production key, which parity and record never send anywhere. */
export const isLiveKey = (key: string): boolean => /^[sr]k_live_/.test(key.trim())
