/**
 * A request as the signature check sees it: what RFC 9421 derives components from, taken from the
 * wire (the target as sent, every field line), so that the base is built from what the client sent
 * and not from what a framework made of it.
 */
export interface SignedMessage {
  method: string
  /** `http` or `https`. */
  scheme: string
  /** The Host header as sent (normalised when a component is derived from it). */
  host: string
  /** The request target as sent: path and query, such as `/v1/payments?limit=5`. */
  target: string
  /** Every field line, names lower-cased, in the order received. */
  fields: ReadonlyArray<readonly [name: string, value: string]>
  /** The body's bytes exactly as received (empty when there is none). */
  body: Uint8Array
}

/** `rawHeaders` (`[name, value, name, value, …]`) → field lines with lower-case names. */
export function fieldLines(rawHeaders: readonly string[]): Array<[string, string]> {
  const lines: Array<[string, string]> = []
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) lines.push([rawHeaders[i]!.toLowerCase(), rawHeaders[i + 1]!])
  return lines
}

/** All values of one field (RFC 9421 section 2.1: each line's value with surrounding whitespace trimmed). */
export function fieldValues(message: SignedMessage, name: string): string[] {
  return message.fields.filter(([field]) => field === name).map(([, value]) => value.replace(/\r?\n[ \t]+/g, ' ').trim())
}
