import { nodeCrypto } from '../../node-crypto.js'
import { isInnerList, parseDictionary } from 'structured-headers'
import { ApiError } from '../../errors.js'

const ALGORITHMS = { 'sha-256': 'sha256', 'sha-512': 'sha512' } as const

/**
 * `Content-Digest` (RFC 9530) against the body's bytes: at least one of sha-256 and sha-512, and
 * every one given must match; other algorithms are ignored, as the RFC lets a recipient do.
 */
export function assertContentDigest(header: string, body: Uint8Array): void {
  let members
  try {
    members = parseDictionary(header)
  } catch (error) {
    throw mismatch(`Content-Digest is not a structured-field dictionary (${(error as Error).message}); send sha-256=:<base64 of the SHA-256 of the body>:.`)
  }
  let checked = 0
  for (const [name, algorithm] of Object.entries(ALGORITHMS)) {
    const member = members.get(name)
    if (member === undefined) continue
    const [value] = isInnerList(member) ? [undefined] : member
    if (!(value instanceof ArrayBuffer)) throw mismatch(`Content-Digest ${name} must be a byte sequence, :<base64>:.`)
    const expected = nodeCrypto().createHash(algorithm).update(body).digest()
    const given = Buffer.from(value)
    if (given.length !== expected.length || !nodeCrypto().timingSafeEqual(given, expected)) {
      throw mismatch(`Content-Digest ${name} does not match the body: the body's ${name} is :${expected.toString('base64')}:. Compute it over the exact bytes sent.`)
    }
    checked++
  }
  if (checked === 0) throw mismatch('Content-Digest has neither sha-256 nor sha-512; the sandbox checks those two.')
}

const mismatch = (message: string) => new ApiError('content_digest_mismatch', message)
