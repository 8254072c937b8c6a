import { createHmac, createPublicKey, verify } from 'node:crypto'
import { parseDictionary, type InnerList } from 'structured-headers'
import { describe, expect, it } from 'vitest'
import { buildSignatureBase } from '../../src/access/signatures/base.js'
import { componentValue } from '../../src/access/signatures/components.js'
import { assertContentDigest } from '../../src/access/signatures/digest.js'
import type { SignedMessage } from '../../src/access/signatures/message.js'
import { createNonceMemory } from '../../src/access/signatures/nonces.js'
import { SignatureFormatError } from '../../src/access/signatures/signature-error.js'
import { ApiError } from '../../src/errors.js'

/** The test-request of RFC 9421 appendix B.2. */
const TEST_REQUEST: SignedMessage = {
  method: 'POST',
  scheme: 'https',
  host: 'example.com',
  target: '/foo?param=Value&Pet=dog',
  fields: [
    ['host', 'example.com'],
    ['date', 'Tue, 20 Apr 2021 02:07:55 GMT'],
    ['content-type', 'application/json'],
    ['content-digest', 'sha-512=:WZDPaVn/7XgHaAy8pmojAkGWoRx2UFChF41A2svX+TaPm+AbwAgBWnrIiYllu7BNNyealdVLvRwEmTHWXvJwew==:'],
    ['content-length', '18'],
  ],
  body: Buffer.from('{"hello": "world"}'),
}

const innerList = (signatureInput: string, label: string) => parseDictionary(signatureInput).get(label) as InnerList

describe('the signature base (RFC 9421 section 2.5) against the RFC test vectors', () => {
  it('B.2.5 (hmac-sha256): the base is the RFC text byte for byte, and its HMAC is the RFC signature', () => {
    const base = buildSignatureBase(innerList('sig-b25=("date" "@authority" "content-type");created=1618884473;keyid="test-shared-secret"', 'sig-b25'), TEST_REQUEST)
    expect(base).toBe([
      '"date": Tue, 20 Apr 2021 02:07:55 GMT',
      '"@authority": example.com',
      '"content-type": application/json',
      '"@signature-params": ("date" "@authority" "content-type");created=1618884473;keyid="test-shared-secret"',
    ].join('\n'))
    // The RFC's shared secret (appendix B.1.5), base64 as the sandbox takes secrets.
    const secret = Buffer.from('uzvJfB4u3N0Jy4T7NZ75MDVcr8zSTInedJtkgcu46YW4XByzNJjxBdtjUkdJPBtbmHhIDi6pcl8jsasjlTMtDQ==', 'base64')
    expect(createHmac('sha256', secret).update(base).digest('base64')).toBe('pxcQw6G3AjtMBQjwo8XzkZf/bws5LelbaMk5rGIGtE8=')
  })

  it('B.2.6 (ed25519): the base is the RFC text byte for byte, and the RFC signature verifies over it', () => {
    const input = 'sig-b26=("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"'
    const base = buildSignatureBase(innerList(input, 'sig-b26'), TEST_REQUEST)
    expect(base).toBe([
      '"date": Tue, 20 Apr 2021 02:07:55 GMT',
      '"@method": POST',
      '"@path": /foo',
      '"@authority": example.com',
      '"content-type": application/json',
      '"content-length": 18',
      '"@signature-params": ("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"',
    ].join('\n'))
    // The RFC's test-key-ed25519 (appendix B.1.4).
    const publicKey = createPublicKey('-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAJrQLj5P/89iXES9+vFgrIy29clF9CC/oPPsw3c5D0bs=\n-----END PUBLIC KEY-----\n')
    const signature = Buffer.from('wqcAqbmYJ2ji2glfAMaRy4gruYYnx2nEFN2HN6jrnDnQCK1u02Gb04v9EDgwUPiu4A0w6vuQv5lIp5WPpBKRCw==', 'base64')
    expect(verify(null, Buffer.from(base), publicKey, signature)).toBe(true)
  })
})

describe('components', () => {
  const value = (component: string, message: SignedMessage = TEST_REQUEST) => componentValue(innerList(`s=(${component})`, 's')[0][0]!, message)

  it.each([
    ['"@method"', 'POST'],
    ['"@target-uri"', 'https://example.com/foo?param=Value&Pet=dog'],
    ['"@authority"', 'example.com'],
    ['"@scheme"', 'https'],
    ['"@request-target"', '/foo?param=Value&Pet=dog'],
    ['"@path"', '/foo'],
    ['"@query"', '?param=Value&Pet=dog'],
    ['"@query-param";name="Pet"', 'dog'],
    ['"content-digest";key="sha-512"', ':WZDPaVn/7XgHaAy8pmojAkGWoRx2UFChF41A2svX+TaPm+AbwAgBWnrIiYllu7BNNyealdVLvRwEmTHWXvJwew==:'],
  ])('%s is %s', (component, expected) => {
    expect(value(component)).toBe(expected)
  })

  it('@query without a query is "?", @path of an empty path is "/", and the default port leaves @authority', () => {
    const message = { ...TEST_REQUEST, scheme: 'http', host: 'EXAMPLE.com:80', target: '' }
    expect(value('"@query"', message)).toBe('?')
    expect(value('"@path"', message)).toBe('/')
    expect(value('"@authority"', message)).toBe('example.com')
  })

  it('joins the lines of a repeated field with ", " after trimming each, and ;bs wraps each line', () => {
    const message = { ...TEST_REQUEST, fields: [['x-list', ' a '], ['x-list', 'b,  c']] as Array<[string, string]> }
    expect(value('"x-list"', message)).toBe('a, b,  c')
    expect(value('"x-list";bs', message)).toBe(':YQ==:, :YiwgIGM=:')
  })

  it('re-serialises a known structured field with ;sf', () => {
    const message = { ...TEST_REQUEST, fields: [['content-digest', 'sha-256=:AAAA:,   sha-512=:AAAA:']] as Array<[string, string]> }
    expect(value('"content-digest";sf', message)).toBe('sha-256=:AAAA:, sha-512=:AAAA:')
  })

  it.each([
    ['"x-absent"', 'the request has no x-absent header'],
    ['"@status"', '@status belongs to responses'],
    ['"@nonsense"', 'not a derived component'],
    ['"Date"', 'component names are lower case'],
    ['"date";req', ';req and ;tr do not apply'],
    ['"@query-param";name="param2"', 'the query has no parameter "param2"'],
    ['"date";sf', 'date is not one'],
  ])('%s cannot be derived: %s', (component, message) => {
    expect(() => value(component)).toThrow(SignatureFormatError)
    expect(() => value(component)).toThrow(message)
  })
})

describe('Content-Digest (RFC 9530)', () => {
  it('accepts the RFC test request\'s sha-512 and refuses it for another body', () => {
    const header = TEST_REQUEST.fields.find(([name]) => name === 'content-digest')![1]
    expect(() => assertContentDigest(header, TEST_REQUEST.body)).not.toThrow()
    expect(() => assertContentDigest(header, Buffer.from('{"hello": "World"}'))).toThrow(ApiError)
  })

  it.each([
    ['md5=:AAAA:', 'neither sha-256 nor sha-512'],
    ['sha-256="abc"', 'must be a byte sequence'],
    ['sha-256=:not base64', 'not a structured-field dictionary'],
  ])('%s is a content_digest_mismatch: %s', (header, message) => {
    expect(() => assertContentDigest(header, Buffer.from('x'))).toThrow(message)
  })
})

describe('nonce memory', () => {
  it('remembers a nonce for the window after its created time, then forgets it', () => {
    const nonces = createNonceMemory(300)
    nonces.remember('sk_a', 'n1', 1000, 1000)
    expect(nonces.seen('sk_a', 'n1', 1299)).toBe(true)
    expect(nonces.seen('sk_b', 'n1', 1299)).toBe(false)
    expect(nonces.seen('sk_a', 'n1', 1300)).toBe(false)
    expect(nonces.size()).toBe(0)
  })

  it('stays bounded by the requests of one window', () => {
    const nonces = createNonceMemory(10)
    for (let second = 0; second < 1000; second++) nonces.remember('sk_a', `n${second}`, second, second)
    expect(nonces.size()).toBeLessThanOrEqual(11)
  })
})
