import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { institutionalWallet, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

/**
 * Bad input, endpoint by endpoint: each case gets its exact error code (and `param`), and the ledger
 * is exactly as it was afterwards.
 */

const EVM = '0x52908400098527886E0F7030069857D2E4169EE7'
const SOLANA = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'
const STELLAR = 'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7'

/** Flips the case of the first letter of an EIP-55 address: same account, wrong checksum. */
function flipOneLetter(address: string): string {
  const index = address.slice(2).search(/[a-fA-F]/) + 2
  const letter = address[index]!
  const flipped = letter === letter.toUpperCase() ? letter.toLowerCase() : letter.toUpperCase()
  return address.slice(0, index) + flipped + address.slice(index + 1)
}
const BAD_CHECKSUM_EVM = flipOneLetter(EVM)
/** A different last character breaks the StrKey CRC16. */
const BAD_CHECKSUM_STELLAR = STELLAR.slice(0, -1) + (STELLAR.endsWith('A') ? 'B' : 'A')
const NOT_BASE58_SOLANA = SOLANA.slice(0, -2) + '0O'
const HUGE = 'x'.repeat(150 * 1024)

const manyKeys = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`key_${i}`, 'v']))
const LONG_KEY = 'k'.repeat(41)

/** A case: what to send (an object merged over a valid body, a function of it, or raw JSON text) and what must come back. */
interface Case {
  name: string
  body: Record<string, unknown> | ((valid: Record<string, unknown>) => unknown) | { raw: string }
  status: number
  code: string
  param?: string
  contentType?: string
}

const without = (field: string) => (valid: Record<string, unknown>) => {
  const copy = { ...valid }
  delete copy[field]
  return copy
}

/** Metadata and body-level cases every endpoint with a body shares. */
function commonCases(rawPrefix: string): Case[] {
  return [
    { name: '__proto__ key in metadata', body: { raw: `${rawPrefix}"metadata":{"__proto__":"x"}}` }, status: 400, code: 'parameter_invalid', param: 'metadata' },
    { name: '__proto__ object in metadata', body: { raw: `${rawPrefix}"metadata":{"__proto__":{"polluted":"yes"}}}` }, status: 400, code: 'parameter_invalid', param: 'metadata' },
    { name: 'constructor key in metadata', body: { metadata: { constructor: 'x' } }, status: 400, code: 'parameter_invalid', param: 'metadata' },
    { name: 'metadata with 51 keys', body: { metadata: manyKeys(51) }, status: 400, code: 'parameter_invalid', param: 'metadata' },
    { name: 'a metadata key of 41 characters', body: { metadata: { [LONG_KEY]: 'v' } }, status: 400, code: 'parameter_invalid', param: `metadata.${LONG_KEY}` },
    { name: 'a metadata value of 501 characters', body: { metadata: { note: 'v'.repeat(501) } }, status: 400, code: 'parameter_invalid', param: 'metadata.note' },
    { name: 'a number as a metadata value', body: { metadata: { count: 3 } }, status: 400, code: 'parameter_invalid', param: 'metadata.count' },
    { name: 'an object as a metadata value', body: { metadata: { nested: { a: 'b' } } }, status: 400, code: 'parameter_invalid', param: 'metadata.nested' },
    { name: 'metadata as a string', body: { metadata: 'tier=gold' }, status: 400, code: 'parameter_invalid', param: 'metadata' },
    { name: 'metadata as an array', body: { metadata: ['a'] }, status: 400, code: 'parameter_invalid', param: 'metadata' },
    { name: 'a huge body', body: { metadata: { note: HUGE } }, status: 413, code: 'body_too_large' },
    { name: 'invalid JSON', body: { raw: `${rawPrefix}"metadata":{` }, status: 400, code: 'invalid_json' },
    { name: 'a JSON array', body: { raw: '[]' }, status: 400, code: 'parameter_invalid' },
    { name: 'a JSON string', body: { raw: '"hello"' }, status: 400, code: 'parameter_invalid' },
    { name: 'a text body', body: { raw: 'hello' }, contentType: 'text/plain', status: 415, code: 'unsupported_media_type' },
  ]
}

let sb: TestSandbox
beforeEach(async () => {
  sb = await startTestSandbox()
})
afterEach(async () => {
  await sb.close()
  // A "__proto__" key must never reach an object's prototype.
  expect(({} as Record<string, unknown>).polluted).toBeUndefined()
})

async function send(method: 'post' | 'put', path: string, testCase: Case, valid: Record<string, unknown>) {
  const req = sb.api[method](path).set(sb.auth())
  const { body } = testCase
  if (typeof body === 'function') return req.send(body(valid) as object)
  if ('raw' in body && typeof body.raw === 'string') return req.set('Content-Type', testCase.contentType ?? 'application/json').send(body.raw)
  return req.send({ ...valid, ...body })
}

function expectError(res: { status: number; body: any; headers: Record<string, string> }, testCase: Case) {
  expect(res.status).toBe(testCase.status)
  expect(res.body.error.code).toBe(testCase.code)
  if (testCase.param !== undefined) expect(res.body.error.param).toBe(testCase.param)
  else expect(res.body.error.param).toBeUndefined()
  if (testCase.code === 'parameter_missing') expect(res.body.error.message).toBe(`${testCase.param} is required.`)
  expect(res.body.request_id).toBe(res.headers['x-request-id'])
}

/** Everything a bad request could have changed: all wallets with their balances, payments and whitelist. */
async function ledgerState() {
  const wallets = (await sb.api.get('/v1/wallets?limit=100').set(sb.auth()).expect(200)).body
  const balances = await Promise.all(wallets.data.map(async (w: { id: string }) => (await sb.api.get(`/v1/wallets/${w.id}/balance`).set(sb.auth()).expect(200)).body.data))
  const payments = (await sb.api.get('/v1/payments?limit=100').set(sb.auth()).expect(200)).body
  const whitelist = (await sb.api.get('/v1/whitelisted_addresses?limit=100').set(sb.auth()).expect(200)).body
  return { wallets: wallets.data, balances, payments: payments.data, whitelist: whitelist.data }
}

describe('POST /v1/payments', () => {
  const sources = { polygon: ['polygon', 'USDC'], stellar: ['stellar', 'XLM'], solana: ['solana', 'SOL'], ethereum: ['ethereum', 'ETH'] } as const
  type SourceCase = Case & { source?: keyof typeof sources }
  const at = (source: keyof typeof sources, testCase: Case): SourceCase => ({ ...testCase, source })

  const cases: SourceCase[] = [
    { name: 'no amount', body: without('amount'), status: 400, code: 'parameter_missing', param: 'amount' },
    { name: 'no currency', body: without('currency'), status: 400, code: 'parameter_missing', param: 'currency' },
    { name: 'no source_wallet', body: without('source_wallet'), status: 400, code: 'parameter_missing', param: 'source_wallet' },
    { name: 'no recipient', body: without('recipient'), status: 400, code: 'parameter_missing', param: 'recipient' },
    { name: 'an empty object', body: () => ({}), status: 400, code: 'parameter_missing', param: 'amount' },
    { name: 'amount as a JSON number', body: { amount: 10 }, status: 400, code: 'parameter_invalid', param: 'amount' },
    { name: 'amount as a JSON fraction', body: { amount: 10.5 }, status: 400, code: 'parameter_invalid', param: 'amount' },
    { name: 'amount as true', body: { amount: true }, status: 400, code: 'parameter_invalid', param: 'amount' },
    { name: 'amount as null', body: { amount: null }, status: 400, code: 'parameter_invalid', param: 'amount' },
    { name: 'amount as an object', body: { amount: { value: '10' } }, status: 400, code: 'parameter_invalid', param: 'amount' },
    { name: 'amount as an array', body: { amount: ['10'] }, status: 400, code: 'parameter_invalid', param: 'amount' },
    { name: 'amount 1e3', body: { amount: '1e3' }, status: 400, code: 'parameter_invalid', param: 'amount' },
    { name: 'amount 1E3', body: { amount: '1E3' }, status: 400, code: 'parameter_invalid', param: 'amount' },
    { name: 'a negative amount', body: { amount: '-5.00' }, status: 400, code: 'parameter_invalid', param: 'amount' },
    { name: 'an amount with a plus sign', body: { amount: '+5' }, status: 400, code: 'parameter_invalid', param: 'amount' },
    { name: 'a zero amount', body: { amount: '0' }, status: 400, code: 'parameter_invalid', param: 'amount' },
    { name: 'a zero amount with decimals', body: { amount: '0.000000' }, status: 400, code: 'parameter_invalid', param: 'amount' },
    { name: 'an empty amount', body: { amount: '' }, status: 400, code: 'parameter_invalid', param: 'amount' },
    { name: 'an amount with a leading zero', body: { amount: '05' }, status: 400, code: 'parameter_invalid', param: 'amount' },
    { name: 'an amount without a whole part', body: { amount: '.5' }, status: 400, code: 'parameter_invalid', param: 'amount' },
    { name: 'an amount ending in a point', body: { amount: '5.' }, status: 400, code: 'parameter_invalid', param: 'amount' },
    { name: 'an amount with spaces', body: { amount: ' 5' }, status: 400, code: 'parameter_invalid', param: 'amount' },
    { name: 'an amount with a thousands separator', body: { amount: '1,000' }, status: 400, code: 'parameter_invalid', param: 'amount' },
    { name: 'amount NaN', body: { amount: 'NaN' }, status: 400, code: 'parameter_invalid', param: 'amount' },
    { name: 'amount Infinity', body: { amount: 'Infinity' }, status: 400, code: 'parameter_invalid', param: 'amount' },
    { name: 'a hex amount', body: { amount: '0x10' }, status: 400, code: 'parameter_invalid', param: 'amount' },
    { name: '7 decimals for USDC (6)', body: { amount: '1.1234567' }, status: 400, code: 'parameter_invalid', param: 'amount' },
    at('stellar', { name: '8 decimals for XLM (7)', body: { amount: '1.12345678' }, status: 400, code: 'parameter_invalid', param: 'amount' }),
    at('solana', { name: '10 decimals for SOL (9)', body: { amount: '1.1234567891' }, status: 400, code: 'parameter_invalid', param: 'amount' }),
    at('ethereum', { name: '19 decimals for ETH (18)', body: { amount: '0.0000000000000000001' }, status: 400, code: 'parameter_invalid', param: 'amount' }),
    { name: 'an unknown currency', body: { currency: 'DOGE' }, status: 400, code: 'parameter_invalid', param: 'currency' },
    { name: 'a lower-case currency', body: { currency: 'usdc' }, status: 400, code: 'parameter_invalid', param: 'currency' },
    { name: 'an empty currency', body: { currency: '' }, status: 400, code: 'parameter_invalid', param: 'currency' },
    { name: 'currency as a number', body: { currency: 840 }, status: 400, code: 'parameter_invalid', param: 'currency' },
    { name: 'a currency not on the source’s network (XLM on polygon)', body: { currency: 'XLM' }, status: 400, code: 'parameter_invalid', param: 'currency' },
    { name: 'a currency of the network but not of the source (USDT)', body: { currency: 'USDT' }, status: 400, code: 'parameter_invalid', param: 'currency' },
    { name: 'source_wallet as a number', body: { source_wallet: 42 }, status: 400, code: 'parameter_invalid', param: 'source_wallet' },
    { name: 'an empty source_wallet', body: { source_wallet: '' }, status: 400, code: 'parameter_invalid', param: 'source_wallet' },
    { name: 'an unknown source_wallet', body: { source_wallet: 'wal_000000000000000000000000' }, status: 404, code: 'resource_missing', param: 'source_wallet' },
    { name: 'recipient as a number', body: { recipient: 1 }, status: 400, code: 'parameter_invalid', param: 'recipient' },
    { name: 'recipient as null', body: { recipient: null }, status: 400, code: 'parameter_invalid', param: 'recipient' },
    { name: 'an empty recipient', body: { recipient: '' }, status: 400, code: 'parameter_invalid', param: 'recipient' },
    { name: 'a recipient that is no address', body: { recipient: 'not-an-address' }, status: 400, code: 'parameter_invalid', param: 'recipient' },
    { name: 'a wrongly checksummed EVM address', body: { recipient: BAD_CHECKSUM_EVM }, status: 400, code: 'parameter_invalid', param: 'recipient' },
    { name: 'an EVM address one digit short', body: { recipient: EVM.slice(0, -1) }, status: 400, code: 'parameter_invalid', param: 'recipient' },
    { name: 'an EVM address without 0x', body: { recipient: EVM.slice(2) }, status: 400, code: 'parameter_invalid', param: 'recipient' },
    { name: 'a solana address for a polygon source', body: { recipient: SOLANA }, status: 400, code: 'parameter_invalid', param: 'recipient' },
    { name: 'a stellar address for a polygon source', body: { recipient: STELLAR }, status: 400, code: 'parameter_invalid', param: 'recipient' },
    at('stellar', { name: 'a stellar address with a bad checksum', body: { recipient: BAD_CHECKSUM_STELLAR }, status: 400, code: 'parameter_invalid', param: 'recipient' }),
    at('stellar', { name: 'a lower-case stellar address', body: { recipient: STELLAR.toLowerCase() }, status: 400, code: 'parameter_invalid', param: 'recipient' }),
    at('solana', { name: 'a solana address with non-base58 characters', body: { recipient: NOT_BASE58_SOLANA }, status: 400, code: 'parameter_invalid', param: 'recipient' }),
    at('solana', { name: 'an EVM address for a solana source', body: { recipient: EVM }, status: 400, code: 'parameter_invalid', param: 'recipient' }),
    at('ethereum', { name: 'a wrongly checksummed address on ethereum', body: { recipient: BAD_CHECKSUM_EVM }, status: 400, code: 'parameter_invalid', param: 'recipient' }),
    { name: 'an unknown recipient wallet', body: { recipient: 'wal_000000000000000000000000' }, status: 404, code: 'resource_missing', param: 'recipient' },
    { name: 'a description as a number', body: { description: 5 }, status: 400, code: 'parameter_invalid', param: 'description' },
    { name: 'a description of 1001 characters', body: { description: 'd'.repeat(1001) }, status: 400, code: 'parameter_invalid', param: 'description' },
    { name: 'an unknown field', body: { fee: '1.00' }, status: 400, code: 'parameter_invalid', param: 'fee' },
    { name: 'a __proto__ field at the top level', body: { raw: '{"amount":"1","currency":"USDC","source_wallet":"$SOURCE","recipient":"' + EVM + '","__proto__":{"admin":true}}' }, status: 400, code: 'parameter_invalid', param: '__proto__' },
    ...commonCases(`{"amount":"1","currency":"USDC","source_wallet":"$SOURCE","recipient":"${EVM}",`),
  ]

  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, testCase) => {
    const [network, currency] = sources[testCase.source ?? 'polygon']
    const source = await institutionalWallet(sb, network, currency)
    const recipient = network === 'stellar' ? STELLAR : network === 'solana' ? SOLANA : EVM
    const valid = { amount: '10.00', currency, source_wallet: source.id, recipient }
    const before = await ledgerState()
    const raw = 'raw' in testCase.body && typeof testCase.body.raw === 'string' ? { ...testCase, body: { raw: testCase.body.raw.replace('$SOURCE', source.id) } } : testCase
    expectError(await send('post', '/v1/payments', raw, valid), testCase)
    expect(await ledgerState()).toEqual(before)
    expect(before.payments).toEqual([])
    // The valid body goes through, so the case failed for the reason it names.
    await sb.api.post('/v1/payments').set(sb.auth()).send(valid).expect(201)
  })
})

describe('POST /v1/wallets', () => {
  const valid = { name: 'Matrix', currency: 'USDC', network: 'polygon' }
  const cases: Case[] = [
    { name: 'no name', body: without('name'), status: 400, code: 'parameter_missing', param: 'name' },
    { name: 'no currency', body: without('currency'), status: 400, code: 'parameter_missing', param: 'currency' },
    { name: 'no network', body: without('network'), status: 400, code: 'parameter_missing', param: 'network' },
    { name: 'an empty name', body: { name: '' }, status: 400, code: 'parameter_invalid', param: 'name' },
    { name: 'a name of 101 characters', body: { name: 'n'.repeat(101) }, status: 400, code: 'parameter_invalid', param: 'name' },
    { name: 'a name as a number', body: { name: 5 }, status: 400, code: 'parameter_invalid', param: 'name' },
    { name: 'a name as null', body: { name: null }, status: 400, code: 'parameter_invalid', param: 'name' },
    { name: 'an unknown currency', body: { currency: 'DOGE' }, status: 400, code: 'parameter_invalid', param: 'currency' },
    { name: 'a lower-case currency', body: { currency: 'usdc' }, status: 400, code: 'parameter_invalid', param: 'currency' },
    { name: 'currency as a number', body: { currency: 1 }, status: 400, code: 'parameter_invalid', param: 'currency' },
    { name: 'an unknown network', body: { network: 'bitcoin' }, status: 400, code: 'parameter_invalid', param: 'network' },
    { name: 'a capitalised network', body: { network: 'Polygon' }, status: 400, code: 'parameter_invalid', param: 'network' },
    { name: 'XLM on polygon', body: { currency: 'XLM' }, status: 400, code: 'parameter_invalid', param: 'currency' },
    { name: 'ETH on polygon', body: { currency: 'ETH' }, status: 400, code: 'parameter_invalid', param: 'currency' },
    { name: 'MATIC on ethereum', body: { currency: 'MATIC', network: 'ethereum' }, status: 400, code: 'parameter_invalid', param: 'currency' },
    { name: 'SOL on stellar', body: { currency: 'SOL', network: 'stellar' }, status: 400, code: 'parameter_invalid', param: 'currency' },
    { name: 'USDT on solana', body: { currency: 'USDT', network: 'solana' }, status: 400, code: 'parameter_invalid', param: 'currency' },
    { name: 'an unknown type', body: { type: 'savings' }, status: 400, code: 'parameter_invalid', param: 'type' },
    { name: 'a balance (not settable)', body: { balance: '1000.00' }, status: 400, code: 'parameter_invalid', param: 'balance' },
    { name: 'a status (not settable on creation)', body: { status: 'frozen' }, status: 400, code: 'parameter_invalid', param: 'status' },
    ...commonCases('{"name":"Matrix","currency":"USDC","network":"polygon",'),
  ]

  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, testCase) => {
    const before = await ledgerState()
    expectError(await send('post', '/v1/wallets', testCase, valid), testCase)
    expect(await ledgerState()).toEqual(before)
    await sb.api.post('/v1/wallets').set(sb.auth()).send(valid).expect(201)
  })
})

describe('PUT /v1/wallets/{id}', () => {
  const cases: Case[] = [
    { name: 'an empty name', body: { name: '' }, status: 400, code: 'parameter_invalid', param: 'name' },
    { name: 'a name of 101 characters', body: { name: 'n'.repeat(101) }, status: 400, code: 'parameter_invalid', param: 'name' },
    { name: 'a name as a number', body: { name: 7 }, status: 400, code: 'parameter_invalid', param: 'name' },
    { name: 'status closed', body: { status: 'closed' }, status: 400, code: 'parameter_invalid', param: 'status' },
    { name: 'an unknown status', body: { status: 'deleted' }, status: 400, code: 'parameter_invalid', param: 'status' },
    { name: 'status as a boolean', body: { status: true }, status: 400, code: 'parameter_invalid', param: 'status' },
    { name: 'a currency (not changeable)', body: { currency: 'USDT' }, status: 400, code: 'parameter_invalid', param: 'currency' },
    { name: 'a network (not changeable)', body: { network: 'ethereum' }, status: 400, code: 'parameter_invalid', param: 'network' },
    { name: 'an address (not changeable)', body: { address: EVM }, status: 400, code: 'parameter_invalid', param: 'address' },
    { name: 'a balance (not changeable)', body: { balance: '1.00' }, status: 400, code: 'parameter_invalid', param: 'balance' },
    ...commonCases('{"name":"Renamed",'),
  ]

  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, testCase) => {
    const [user] = (await sb.api.get('/v1/wallets?type=user&network=polygon').set(sb.auth()).expect(200)).body.data
    const before = await ledgerState()
    expectError(await send('put', `/v1/wallets/${user.id}`, testCase, { name: 'Renamed' }), testCase)
    expect(await ledgerState()).toEqual(before)
    await sb.api.put(`/v1/wallets/${user.id}`).set(sb.auth()).send({ name: 'Renamed' }).expect(200)
  })
})

describe('POST /v1/whitelisted_addresses', () => {
  const valid = { address: EVM, network: 'polygon', label: 'Exchange' }
  const cases: Case[] = [
    { name: 'no address', body: without('address'), status: 400, code: 'parameter_missing', param: 'address' },
    { name: 'no network', body: without('network'), status: 400, code: 'parameter_missing', param: 'network' },
    { name: 'an empty address', body: { address: '' }, status: 400, code: 'parameter_invalid', param: 'address' },
    { name: 'an address as a number', body: { address: 12 }, status: 400, code: 'parameter_invalid', param: 'address' },
    { name: 'an unknown network', body: { network: 'bitcoin' }, status: 400, code: 'parameter_invalid', param: 'network' },
    { name: 'an address that is no address', body: { address: 'not-an-address' }, status: 400, code: 'parameter_invalid', param: 'address' },
    { name: 'a wrongly checksummed EVM address', body: { address: BAD_CHECKSUM_EVM }, status: 400, code: 'parameter_invalid', param: 'address' },
    { name: 'a solana address on polygon', body: { address: SOLANA }, status: 400, code: 'parameter_invalid', param: 'address' },
    { name: 'an EVM address on stellar', body: { network: 'stellar' }, status: 400, code: 'parameter_invalid', param: 'address' },
    { name: 'a stellar address with a bad checksum', body: { address: BAD_CHECKSUM_STELLAR, network: 'stellar' }, status: 400, code: 'parameter_invalid', param: 'address' },
    { name: 'a solana address with non-base58 characters', body: { address: NOT_BASE58_SOLANA, network: 'solana' }, status: 400, code: 'parameter_invalid', param: 'address' },
    { name: 'a label of 101 characters', body: { label: 'l'.repeat(101) }, status: 400, code: 'parameter_invalid', param: 'label' },
    { name: 'a label as a number', body: { label: 5 }, status: 400, code: 'parameter_invalid', param: 'label' },
    { name: 'an unknown field', body: { currency: 'USDC' }, status: 400, code: 'parameter_invalid', param: 'currency' },
    { name: 'a huge body', body: { label: HUGE }, status: 413, code: 'body_too_large' },
    { name: 'invalid JSON', body: { raw: `{"address":"${EVM}",` }, status: 400, code: 'invalid_json' },
    { name: 'a JSON array', body: { raw: '[]' }, status: 400, code: 'parameter_invalid' },
    { name: 'a text body', body: { raw: 'hello' }, contentType: 'text/plain', status: 415, code: 'unsupported_media_type' },
  ]

  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, testCase) => {
    const before = await ledgerState()
    expectError(await send('post', '/v1/whitelisted_addresses', testCase, valid), testCase)
    expect(await ledgerState()).toEqual(before)
    await sb.api.post('/v1/whitelisted_addresses').set(sb.auth()).send(valid).expect(201)
  })
})

describe('list queries', () => {
  const pageCases = (path: string): Array<[string, string]> => [
    [`${path}?limit=0`, 'limit'],
    [`${path}?limit=101`, 'limit'],
    [`${path}?limit=-1`, 'limit'],
    [`${path}?limit=abc`, 'limit'],
    [`${path}?limit=1.5`, 'limit'],
    [`${path}?limit=1e1`, 'limit'],
    [`${path}?limit=1&limit=2`, 'limit'],
    [`${path}?offset=-1`, 'offset'],
    [`${path}?offset=x`, 'offset'],
    [`${path}?unknown=1`, 'unknown'],
  ]
  const cases: Array<[string, string]> = [
    ...pageCases('/v1/wallets'),
    ['/v1/wallets?network=bitcoin', 'network'],
    ['/v1/wallets?currency=DOGE', 'currency'],
    ['/v1/wallets?currency=usdc', 'currency'],
    ['/v1/wallets?type=savings', 'type'],
    ['/v1/wallets?status=deleted', 'status'],
    ['/v1/wallets?external_user_id=', 'external_user_id'],
    ...pageCases('/v1/payments'),
    ['/v1/payments?status=done', 'status'],
    ['/v1/payments?currency=DOGE', 'currency'],
    ['/v1/payments?recipient_id=', 'recipient_id'],
    ...pageCases('/v1/whitelisted_addresses'),
    ['/v1/whitelisted_addresses?network=bitcoin', 'network'],
  ]

  it.each(cases)('GET %s is 400 parameter_invalid on %s', async (url, param) => {
    const res = await sb.api.get(url).set(sb.auth())
    expectError(res, { name: url, body: {}, status: 400, code: 'parameter_invalid', param })
  })
})
