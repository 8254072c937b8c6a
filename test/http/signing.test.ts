import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSigner, httpbis } from 'http-message-signatures'
import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_KEY, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'
import { contentDigest, signedFetch, type SignedRequest } from '../helpers/signed-fetch.js'

let sb: TestSandbox | undefined
afterEach(async () => {
  await sb?.close()
  sb = undefined
})

/** Real time as the sandbox sees it for signatures: the tests move it, nobody waits. */
const REAL_NOW = 1_900_000_000
let realNow = REAL_NOW
const start = (overrides: Parameters<typeof startTestSandbox>[0] = {}) => {
  realNow = REAL_NOW
  return startTestSandbox(overrides, { realTime: () => realNow * 1000 })
}

interface CreatedKey {
  key: string
  signing: { key_id: string; alg: 'hmac-sha256' | 'ed25519'; secret?: string; public_key?: string; private_key?: string }
}

async function createKey(body: Record<string, unknown>): Promise<CreatedKey> {
  return (await sb!.api.post('/_sandbox/keys').send({ account_id: 'acct_sandboxDefaultAccount000', ...body }).expect(201)).body.data
}

const hmacKey = (created: CreatedKey) => ({ alg: 'hmac-sha256' as const, keyId: created.signing.key_id, material: Buffer.from(created.signing.secret!, 'base64') })
const send = (request: SignedRequest) => signedFetch(sb!.url, { created: realNow, ...request })

function expectError(res: { status: number; body: any; headers: Headers }, status: number, code: string) {
  expect(res.body?.error?.code, JSON.stringify(res.body)).toBe(code)
  expect(res.status).toBe(status)
}

describe('keys that must sign', () => {
  it('an hmac-sha256 key comes with a key id and a base64 secret of 32 bytes, the same for the same seed', async () => {
    sb = await start()
    const first = await createKey({ signing: 'hmac-sha256' })
    expect(first.signing).toEqual({ key_id: expect.stringMatching(/^key_[A-Za-z0-9]{24}$/), alg: 'hmac-sha256', secret: expect.any(String) })
    expect(Buffer.from(first.signing.secret!, 'base64')).toHaveLength(32)
    await sb.close()
    sb = await start()
    expect(await createKey({ signing: 'hmac-sha256' })).toEqual(first)
  })

  it('an ed25519 key comes with an SPKI public key and, once, the PKCS#8 private key of the same pair', async () => {
    sb = await start()
    const created = await createKey({ signing: 'ed25519' })
    expect(created.signing.public_key).toMatch(/^-----BEGIN PUBLIC KEY-----\n/)
    expect(created.signing.private_key).toMatch(/^-----BEGIN PRIVATE KEY-----\n/)
    const derived = createPublicKey(createPrivateKey(created.signing.private_key!)).export({ type: 'spki', format: 'pem' })
    expect(derived).toBe(created.signing.public_key)
    const listed = (await sb.api.get('/_sandbox/accounts').query({ api_key: created.key }).expect(200)).body.data[0].keys
    expect(listed.find((key: { key: string }) => key.key === created.key).signing).toEqual({ key_id: created.signing.key_id, alg: 'ed25519', public_key: created.signing.public_key })
  })

  it('accounts list an hmac key\'s key id and algorithm, never its secret', async () => {
    sb = await start()
    const created = await createKey({ signing: 'hmac-sha256' })
    const listed = (await sb.api.get('/_sandbox/accounts').query({ api_key: created.key }).expect(200)).body.data[0].keys
    expect(listed.find((key: { key: string }) => key.key === created.key).signing).toEqual({ key_id: created.signing.key_id, alg: 'hmac-sha256' })
  })

  it('takes a supplied Ed25519 public key as SPKI PEM or as base64 of the raw 32 bytes, and answers it as SPKI PEM', async () => {
    sb = await start()
    const { publicKey } = generateKeyPairSync('ed25519')
    const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString()
    const raw = (publicKey.export({ type: 'spki', format: 'der' }) as Buffer).subarray(-32).toString('base64')
    for (const supplied of [pem, raw]) {
      const created = await createKey({ signing: 'ed25519', public_key: supplied })
      expect(created.signing).toEqual({ key_id: expect.any(String), alg: 'ed25519', public_key: pem })
    }
  })

  it.each([
    [{ signing: 'hmac-sha256', public_key: 'MCowBQYDK2VwAyEAJrQLj5P/89iXES9+vFgrIy29clF9CC/oPPsw3c5D0bs=' }, 'public_key', 'public_key goes with signing "ed25519"'],
    [{ signing: 'ed25519', public_key: 'AAAA' }, 'public_key', 'public_key must be an Ed25519 public key'],
    [{ public_key: 'AAAA' }, 'public_key', 'public_key goes with signing "ed25519"'],
    [{ signing: 'rsa' }, 'signing', 'signing must be hmac-sha256 or ed25519'],
  ])('refuses %j with 400 parameter_invalid naming %s', async (body, param, message) => {
    sb = await start()
    const res = await sb.api.post('/_sandbox/keys').send(body).expect(400)
    expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param })
    expect(res.body.error.message).toContain(message)
  })
})

describe('requests signed by an independent RFC 9421 implementation', () => {
  it('hmac-sha256: a GET and a POST with a body are accepted', async () => {
    sb = await start()
    const created = await createKey({ signing: 'hmac-sha256' })
    expect((await send({ path: '/v1/wallets?limit=2', apiKey: created.key, key: hmacKey(created) })).status).toBe(200)
    const posted = await send({ path: '/v1/wallets', apiKey: created.key, key: hmacKey(created), body: { name: 'Signed', currency: 'USDC', network: 'polygon' } })
    expect(posted.status).toBe(201)
    expect(posted.body.data.name).toBe('Signed')
  })

  it('ed25519 with the generated private key, and with a supplied public key', async () => {
    sb = await start()
    const generated = await createKey({ signing: 'ed25519' })
    const ownPair = generateKeyPairSync('ed25519')
    const supplied = await createKey({ signing: 'ed25519', public_key: ownPair.publicKey.export({ type: 'spki', format: 'pem' }) })
    const body = { name: 'Ed', currency: 'USDC', network: 'solana' }
    const viaGenerated = await send({ path: '/v1/wallets', apiKey: generated.key, body, key: { alg: 'ed25519', keyId: generated.signing.key_id, material: generated.signing.private_key! } })
    expect(viaGenerated.status).toBe(201)
    const viaSupplied = await send({ path: '/v1/wallets', apiKey: supplied.key, body, key: { alg: 'ed25519', keyId: supplied.signing.key_id, material: ownPair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() } })
    expect(viaSupplied.status).toBe(201)
  })

  it('@path with @query instead of @target-uri is accepted; without @query on a request with a query it is not', async () => {
    sb = await start()
    const created = await createKey({ signing: 'hmac-sha256' })
    const ok = await send({ path: '/v1/wallets?limit=1', apiKey: created.key, key: hmacKey(created), components: ['@method', '@path', '@query', '@authority', 'authorization'] })
    expect(ok.status).toBe(200)
    const res = await send({ path: '/v1/wallets?limit=1', apiKey: created.key, key: hmacKey(created), components: ['@method', '@path', 'authorization'] })
    expectError(res, 401, 'signature_invalid')
    expect(res.body.error.message).toContain('"@query"')
  })

  it('a Content-Digest in sha-512 is accepted too', async () => {
    sb = await start()
    const created = await createKey({ signing: 'hmac-sha256' })
    const text = JSON.stringify({ name: 'Sha512', currency: 'USDC', network: 'polygon' })
    const headers = { authorization: `Bearer ${created.key}`, 'content-type': 'application/json', 'content-digest': contentDigest(text, 'sha-512') }
    const url = `${sb.url}/v1/wallets`
    const signed = await httpbis.signMessage(
      { key: createSigner(hmacKey(created).material, 'hmac-sha256', created.signing.key_id), fields: ['@method', '@target-uri', 'authorization', 'content-digest'], params: ['created', 'keyid'], paramValues: { created: new Date(realNow * 1000) } },
      { method: 'POST', url, headers },
    )
    const sent = await fetch(url, { method: 'POST', headers: signed.headers as Record<string, string>, body: text })
    expect(sent.status).toBe(201)
  })

  it('the base in a signature_invalid error is the base the independent implementation signed', async () => {
    sb = await start()
    const created = await createKey({ signing: 'hmac-sha256' })
    const url = `${sb.url}/v1/wallets?limit=3`
    const request = { method: 'GET', url, headers: { authorization: `Bearer ${created.key}`, 'x-trace': '  padded  ' } }
    const fields = ['@method', '@target-uri', '@authority', '@scheme', '@request-target', '@path', '@query', '@query-param;name="limit"', 'authorization', 'x-trace']
    const signed = await httpbis.signMessage(
      { key: createSigner(Buffer.from('not the secret'), 'hmac-sha256', created.signing.key_id), fields, params: ['created', 'keyid', 'alg'], paramValues: { created: new Date(realNow * 1000) } },
      request,
    )
    const res = await fetch(url, { headers: signed.headers as Record<string, string> })
    const body = await res.json() as any
    expect(res.status).toBe(401)
    expect(body.error.code).toBe('signature_invalid')
    expect(body.error.message).toContain('does not verify')
    const signatureParams = ((signed.headers as Record<string, string>)['Signature-Input']!).replace(/^sig=/, '')
    const expected = httpbis.formatSignatureBase(httpbis.createSignatureBase({ fields }, request)) + `\n"@signature-params": ${signatureParams}`
    expect(body.error.signature_base).toBe(expected)
  })
})

describe('one error per code', () => {
  it('signature_missing: a request without Signature-Input and Signature', async () => {
    sb = await start()
    const created = await createKey({ signing: 'hmac-sha256' })
    const res = await sb.api.get('/v1/wallets').set(sb.auth(created.key))
    expect(res.status).toBe(401)
    expect(res.body.error).toEqual({ type: 'authentication_error', code: 'signature_missing', message: expect.stringContaining(created.signing.key_id) })
  })

  it('signature_invalid with signature_base null: a header that is not a structured field', async () => {
    sb = await start()
    const created = await createKey({ signing: 'hmac-sha256' })
    const res = await sb.api.get('/v1/wallets').set(sb.auth(created.key)).set('Signature-Input', 'sig1=("@method" ;created=1').set('Signature', 'sig1=:AAAA:')
    expect(res.status).toBe(401)
    expect(res.body.error).toMatchObject({ type: 'authentication_error', code: 'signature_invalid', signature_base: null })
    expect(res.body.error.message).toContain('Signature-Input is not a structured-field dictionary')
  })

  it.each([
    ['an unknown keyid', 'keyid="key_someoneElse"', 'Unknown keyid "key_someoneElse"'],
    ['the wrong alg', 'alg="ed25519"', 'alg "ed25519" is not this key\'s algorithm'],
  ])('signature_invalid with the base: %s', async (_name, parameter, message) => {
    sb = await start()
    const created = await createKey({ signing: 'hmac-sha256' })
    const res = await send({
      path: '/v1/wallets', apiKey: created.key, key: hmacKey(created),
      afterSigning: (request) => {
        const [name] = parameter.split('=')
        request.headers['Signature-Input'] = request.headers['Signature-Input']!.replace(new RegExp(`${name}="[^"]*"`), parameter)
      },
    })
    expectError(res, 401, 'signature_invalid')
    expect(res.body.error.message).toContain(message)
    expect(res.body.error.signature_base).toMatch(/^"@method": GET\n"@target-uri": http:\/\/127\.0\.0\.1:\d+\/v1\/wallets\n"authorization": Bearer /)
  })

  it('signature_invalid: a required component not covered (authorization)', async () => {
    sb = await start()
    const created = await createKey({ signing: 'hmac-sha256' })
    const res = await send({ path: '/v1/wallets', apiKey: created.key, key: hmacKey(created), components: ['@method', '@target-uri'] })
    expectError(res, 401, 'signature_invalid')
    expect(res.body.error.message).toBe('The signature must cover "authorization".')
  })

  it('signature_invalid: a body whose content-digest is not covered', async () => {
    sb = await start()
    const created = await createKey({ signing: 'hmac-sha256' })
    const res = await send({ path: '/v1/wallets', apiKey: created.key, key: hmacKey(created), body: { name: 'x', currency: 'USDC', network: 'polygon' }, components: ['@method', '@target-uri', 'authorization'] })
    expectError(res, 401, 'signature_invalid')
    expect(res.body.error.message).toContain('"content-digest" (the request has a body)')
  })

  it('signature_invalid: no created parameter', async () => {
    sb = await start()
    const created = await createKey({ signing: 'hmac-sha256' })
    const res = await send({
      path: '/v1/wallets', apiKey: created.key, key: hmacKey(created),
      afterSigning: (request) => { request.headers['Signature-Input'] = request.headers['Signature-Input']!.replace(/;created=\d+/, '') },
    })
    expectError(res, 401, 'signature_invalid')
    expect(res.body.error.message).toContain('has no ;created parameter')
    expect(res.body.error.signature_base).toContain('"@signature-params": ("@method" "@target-uri" "authorization");keyid=')
  })

  it('signature_invalid: a wrong signature (another secret)', async () => {
    sb = await start()
    const created = await createKey({ signing: 'hmac-sha256' })
    const res = await send({ path: '/v1/wallets', apiKey: created.key, key: { ...hmacKey(created), material: Buffer.alloc(32, 7) } })
    expectError(res, 401, 'signature_invalid')
    expect(res.body.error.signature_base).toEqual(expect.any(String))
  })

  it('signature_expired: created more than --signature-max-age ago (the limit itself is accepted)', async () => {
    sb = await start({ signatureMaxAge: '2m' })
    const created = await createKey({ signing: 'hmac-sha256' })
    expect((await send({ path: '/v1/wallets', apiKey: created.key, key: hmacKey(created), created: realNow - 120 })).status).toBe(200)
    const res = await send({ path: '/v1/wallets', apiKey: created.key, key: hmacKey(created), created: realNow - 121 })
    expectError(res, 401, 'signature_expired')
    expect(res.body.error.message).toContain('created 121 s ago; signatures are accepted for 120 s')
  })

  it('signature_future: created more than 30 s ahead (30 s is tolerated)', async () => {
    sb = await start()
    const created = await createKey({ signing: 'hmac-sha256' })
    expect((await send({ path: '/v1/wallets', apiKey: created.key, key: hmacKey(created), created: realNow + 30 })).status).toBe(200)
    expectError(await send({ path: '/v1/wallets', apiKey: created.key, key: hmacKey(created), created: realNow + 31 }), 401, 'signature_future')
  })

  it('signature_replayed: a nonce used again within the window; after the window it is forgotten', async () => {
    sb = await start()
    const created = await createKey({ signing: 'hmac-sha256' })
    const request = { path: '/v1/wallets', apiKey: created.key, key: hmacKey(created), nonce: 'n-0001' }
    expect((await send(request)).status).toBe(200)
    realNow += 10
    expectError(await send(request), 401, 'signature_replayed')
    realNow += 300
    expect((await send(request)).status).toBe(200)
  })

  it('content_digest_mismatch: a body changed after signing', async () => {
    sb = await start()
    const created = await createKey({ signing: 'hmac-sha256' })
    const res = await send({
      path: '/v1/wallets', apiKey: created.key, key: hmacKey(created), body: { name: 'Honest', currency: 'USDC', network: 'polygon' },
      afterSigning: (request) => { request.body = request.body!.replace('Honest', 'Forged') },
    })
    expectError(res, 400, 'content_digest_mismatch')
    expect(res.body.error.type).toBe('invalid_request_error')
    const wallets = (await send({ path: '/v1/wallets?limit=100', apiKey: created.key, key: hmacKey(created) })).body.data
    expect(wallets.map((wallet: { name: string }) => wallet.name)).not.toContain('Forged')
  })
})

describe('where the check runs', () => {
  it('created is checked on real time, whatever the manual sandbox clock says', async () => {
    sb = await start()
    const created = await createKey({ signing: 'hmac-sha256' })
    await sb.api.post('/_sandbox/clock/advance').send({ ms: 24 * 3600 * 1000 }).expect(200)
    // The sandbox clock stands in 2026; real time (REAL_NOW) is years later: only real time counts.
    expect((await send({ path: '/v1/wallets', apiKey: created.key, key: hmacKey(created) })).status).toBe(200)
    const sandboxNow = Math.floor(Date.parse((await sb.api.get('/_sandbox/clock').expect(200)).body.data.now) / 1000)
    expectError(await send({ path: '/v1/wallets', apiKey: created.key, key: hmacKey(created), created: sandboxNow }), 401, 'signature_expired')
  })

  it('refused signatures use no rate-limit budget and carry no rate-limit headers', async () => {
    sb = await start({ rateLimit: 2 })
    const created = await createKey({ signing: 'hmac-sha256' })
    for (let i = 0; i < 6; i++) {
      const res = await send({ path: '/v1/wallets', apiKey: created.key, key: { ...hmacKey(created), material: Buffer.alloc(32) } })
      expectError(res, 401, 'signature_invalid')
      expect(res.headers.get('ratelimit')).toBeNull()
    }
    const res = await send({ path: '/v1/wallets', apiKey: created.key, key: hmacKey(created) })
    expect(res.status).toBe(200)
    expect(res.headers.get('ratelimit')).toBe('"sandbox";r=1;t=0')
  })

  it('a refused request stores nothing for its Idempotency-Key', async () => {
    sb = await start()
    const created = await createKey({ signing: 'hmac-sha256' })
    const wallet = (body: Record<string, string>, key = hmacKey(created)) => send({
      path: '/v1/wallets', apiKey: created.key, key, body: { currency: 'USDC', network: 'polygon', ...body },
      afterSigning: (request) => { request.headers['Idempotency-Key'] = 'signed-once' },
    })
    expectError(await wallet({ name: 'Badly signed' }, { ...hmacKey(created), material: Buffer.alloc(32) }), 401, 'signature_invalid')
    const res = await wallet({ name: 'Well signed' })
    expect(res.status).toBe(201)
    expect(res.headers.get('idempotent-replayed')).toBeNull()
  })

  it('scope and IP refusals come first: an unsigned request without the scope gets 403', async () => {
    sb = await start()
    const created = await createKey({ type: 'restricted', scopes: ['payments:read'], signing: 'hmac-sha256' })
    const res = await sb.api.get('/v1/wallets').set(sb.auth(created.key)).expect(403)
    expect(res.body.error.code).toBe('insufficient_permissions')
    const blocked = await createKey({ allowed_ips: ['10.0.0.1'], signing: 'hmac-sha256' })
    expect((await sb.api.get('/v1/wallets').set(sb.auth(blocked.key)).expect(403)).body.error.code).toBe('ip_not_allowed')
  })

  it('keys without signing and the control API stay unsigned', async () => {
    sb = await start()
    await createKey({ signing: 'hmac-sha256' })
    await sb.api.get('/v1/wallets').set(sb.auth()).expect(200)
  })
})

describe('--signing-secret', () => {
  const SECRET = Buffer.alloc(32, 3).toString('base64')

  it('makes every key sign with HMAC under keyid "sandbox"; GET /v1/openapi.json stays open', async () => {
    sb = await start({ signingSecret: SECRET })
    expectError(await signedFetch(sb.url, { path: '/v1/wallets', apiKey: DEFAULT_KEY, key: { alg: 'hmac-sha256', keyId: 'other', material: Buffer.from(SECRET, 'base64') }, created: realNow }), 401, 'signature_invalid')
    expect((await sb.api.get('/v1/wallets').set(sb.auth('sk_test_fresh_account_1'))).body.error.code).toBe('signature_missing')
    const res = await send({ path: '/v1/wallets', apiKey: 'sk_test_fresh_account_1', key: { alg: 'hmac-sha256', keyId: 'sandbox', material: Buffer.from(SECRET, 'base64') } })
    expect(res.status).toBe(200)
    await sb.api.get('/v1/openapi.json').expect(200)
    expect((await sb.api.get('/_sandbox/config').expect(200)).body.data.signingSecret).toBe('********')
  })

  it('a key with signing of its own keeps it', async () => {
    sb = await start({ signingSecret: SECRET })
    const created = await createKey({ signing: 'hmac-sha256' })
    expect((await send({ path: '/v1/wallets', apiKey: created.key, key: hmacKey(created) })).status).toBe(200)
  })
})

describe('signing keys survive', () => {
  it('a restart on the same data file', async () => {
    const dataFile = join(mkdtempSync(join(tmpdir(), 'ws-signing-')), 'ledger.json')
    sb = await start({ dataFile })
    const created = await createKey({ signing: 'ed25519' })
    await sb.close()
    sb = await start({ dataFile })
    const key = { alg: 'ed25519' as const, keyId: created.signing.key_id, material: created.signing.private_key! }
    expect((await send({ path: '/v1/wallets', apiKey: created.key, key })).status).toBe(200)
    expect((await sb.api.get('/v1/wallets').set(sb.auth(created.key))).body.error.code).toBe('signature_missing')
  })

  it('a snapshot and a restore into another sandbox', async () => {
    sb = await start()
    const created = await createKey({ signing: 'hmac-sha256' })
    const snapshot = (await sb.api.get('/_sandbox/snapshot').expect(200)).body.data
    expect(snapshot.keys.find((key: { key: string }) => key.key === created.key).signing).toEqual({ alg: 'hmac-sha256', key_id: created.signing.key_id, secret: created.signing.secret })
    await sb.close()
    sb = await start({ seed: 'another seed' })
    await sb.api.post('/_sandbox/restore').send(snapshot).expect(200)
    expectError(await signedFetch(sb.url, { path: '/v1/wallets', apiKey: created.key, key: { ...hmacKey(created), material: Buffer.alloc(32) }, created: realNow }), 401, 'signature_invalid')
    expect((await send({ path: '/v1/wallets', apiKey: created.key, key: hmacKey(created) })).status).toBe(200)
  })
})
