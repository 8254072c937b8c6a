import { describe, expect, it } from 'vitest'
import { bearerKey } from '../../src/access/keys.js'
import { ApiError } from '../../src/errors.js'

const codeOf = (header: string | undefined) => {
  try {
    return bearerKey(header)
  } catch (error) {
    return (error as ApiError).code
  }
}

// bearerKey remembers the last well-formed header and its key (issue 33, round 9): whatever came
// before, each header answers what it answers on its own.
describe('bearerKey', () => {
  const headers = [undefined, '', 'Bearer sk_test_abcdefgh', 'Bearer sk_test_abcdefgh', 'bearer   sk_test_abcdefgh  ', 'Basic sk_test_abcdefgh', 'Bearer ', 'Bearer sk_test_other_key', 'sk_test_abcdefgh']
  const alone = headers.map((header) => codeOf(header))

  it('answers each header as it does alone, after any other', () => {
    expect(alone).toEqual(['api_key_missing', 'api_key_missing', 'sk_test_abcdefgh', 'sk_test_abcdefgh', 'sk_test_abcdefgh', 'api_key_invalid', 'api_key_invalid', 'sk_test_other_key', 'api_key_invalid'])
    for (const before of headers) {
      for (let i = 0; i < headers.length; i++) {
        codeOf(before)
        expect(codeOf(headers[i])).toBe(alone[i])
        // The same header twice: the remembered answer.
        expect(codeOf(headers[i])).toBe(alone[i])
        // A copy of the text (another string): the same answer.
        const copy = headers[i] === undefined ? undefined : Buffer.from(headers[i]!, 'latin1').toString('latin1')
        expect(codeOf(copy)).toBe(alone[i])
      }
    }
  })
})
