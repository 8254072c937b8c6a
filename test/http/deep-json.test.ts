import { afterEach, describe, expect, it } from 'vitest'
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../src/schemas/json-depth.js'
import { institutionalWallet, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

const EVM = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'

let sb: TestSandbox
afterEach(() => sb?.close())

/** `{"a":{"a":…"x"…}}` as text: a value `levels` objects deep. */
const nestedObject = (levels: number) => `${'{"a":'.repeat(levels)}"x"${'}'.repeat(levels)}`
const nestedArray = (levels: number) => `${'['.repeat(levels)}"x"${']'.repeat(levels)}`

const post = (path: string, raw: string, idempotencyKey?: string) => {
  const request = sb.api.post(path).set(sb.auth()).set('Content-Type', 'application/json')
  return (idempotencyKey ? request.set('Idempotency-Key', idempotencyKey) : request).send(raw)
}

describe('deeply nested JSON bodies', () => {
  it.each([
    ['label of a whitelisted address', '/v1/whitelisted_addresses', (deep: string) => `{"address":"${EVM}","network":"polygon","label":${deep}}`],
    ['metadata of a payment', '/v1/payments', (deep: string) => `{"amount":"1.00","currency":"USDC","source_wallet":"wal_x","recipient":"${EVM}","metadata":${deep}}`],
    ['currency of a payout', '/v1/payouts', (deep: string) => `{"source_wallet":"wal_x","currency":${deep},"items":[{"amount":"1.00","recipient":"${EVM}"}]}`],
  ])('answer 400 invalid_json naming the limit, with an Idempotency-Key too (%s)', async (_name, path, body) => {
    sb = await startTestSandbox()
    for (const deep of [nestedObject(10_000), nestedArray(5_000)]) {
      const res = await post(path, body(deep), 'deep-key').expect(400)
      expect(res.body.error).toEqual({
        type: 'invalid_request_error',
        code: 'invalid_json',
        message: `The request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep; no request needs that many.`,
      })
    }
    // Nothing was kept for the key (a 400 is not stored): another body under it is not a reuse.
    expect((await post(path, '{}', 'deep-key').expect(400)).body.error.code).toBe('parameter_missing')
  })

  it('accepts a body exactly at the limit and refuses one level more', async () => {
    sb = await startTestSandbox()
    const wallet = await institutionalWallet(sb, 'polygon', 'USDC')
    const at = (levels: number) => `{"amount":"1.00","currency":"USDC","source_wallet":"${wallet.id}","recipient":"${EVM}","metadata":{"k":${nestedArray(levels - 2)}}}`
    // At the limit the body parses and the field fails validation (metadata values are strings).
    expect((await post('/v1/payments', at(MAX_JSON_DEPTH)).expect(400)).body.error).toMatchObject({ code: 'parameter_invalid', param: 'metadata.k' })
    expect((await post('/v1/payments', at(MAX_JSON_DEPTH + 1)).expect(400)).body.error.code).toBe('invalid_json')
  })

  it.each(['/_sandbox/restore', '/_sandbox/outcomes', '/_sandbox/faults', '/_sandbox/keys', '/_sandbox/clock/advance'])(
    'is refused by the control API too (%s)',
    async (path) => {
      sb = await startTestSandbox()
      const res = await sb.api.post(path).set('Content-Type', 'application/json').send(`{"control":${nestedObject(10_000)}}`).expect(400)
      expect(res.body.error.code).toBe('invalid_json')
      await sb.api.post('/_sandbox/reset').send({}).expect(200)
    },
  )

  it('does not count brackets inside strings', () => {
    expect(nestsDeeperThan(`{"a":"${'['.repeat(100)}"}`, 2)).toBe(false)
    expect(nestsDeeperThan(`{"a":"\\"${'{'.repeat(100)}"}`, 2)).toBe(false)
    expect(nestsDeeperThan('[[[1]]]', 2)).toBe(true)
    expect(nestsDeeperThan('[[1],[2]]', 2)).toBe(false)
  })

  it('finds the depth whether a text has few opening brackets or many (the count before the walk)', () => {
    // At the limit and one past it, in objects, arrays and both mixed.
    expect(nestsDeeperThan(nestedObject(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false)
    expect(nestsDeeperThan(nestedObject(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true)
    expect(nestsDeeperThan(nestedArray(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true)
    expect(nestsDeeperThan(`${'[{"a":'.repeat(33)}1${'}]'.repeat(33)}`, MAX_JSON_DEPTH)).toBe(true)
    expect(nestsDeeperThan(`${'[{"a":'.repeat(32)}1${'}]'.repeat(32)}`, MAX_JSON_DEPTH)).toBe(false)
    // Many brackets side by side, never deep: the walk decides.
    expect(nestsDeeperThan(`[${'{},[],'.repeat(200)}1]`, MAX_JSON_DEPTH)).toBe(false)
    expect(nestsDeeperThan('{"amount":"1.00","currency":"USDC"}', MAX_JSON_DEPTH)).toBe(false)
  })
})

describe('error messages that repeat a received value', () => {
  it('cut long values instead of echoing them whole', async () => {
    sb = await startTestSandbox()
    const long = 'X'.repeat(50_000)
    const wallet = await institutionalWallet(sb, 'polygon', 'USDC')
    const answers = [
      await sb.api.post('/v1/payouts').set(sb.auth()).send({ source_wallet: wallet.id, currency: long, items: [{ amount: '1.00', recipient: EVM }] }).expect(400),
      await sb.api.post('/v1/wallets').set(sb.auth()).send({ name: 'a', currency: 'USDC', network: long }).expect(400),
      await sb.api.post('/v1/payments').set(sb.auth()).send({ amount: '1.00', currency: 'USDC', source_wallet: wallet.id, recipient: long }).expect(400),
      await sb.api.post('/v1/whitelisted_addresses').set(sb.auth()).send({ address: long, network: 'polygon' }).expect(400),
      await sb.api.post('/v1/wallets').set(sb.auth()).send({ name: 'a', currency: 'USDC', network: 'polygon', [long]: 1 }).expect(400),
      await sb.api.post('/v1/webhooks').set(sb.auth()).send({ url: 'http://127.0.0.1:1/x', events: [long] }).expect(400),
      await sb.api.get(`/v1/payments/pay_${long.slice(0, 5_000)}`).set(sb.auth()).expect(404),
      await sb.api.delete('/_sandbox/screening').send({ network: 'polygon', address: long }).expect(404),
      await sb.api.post('/_sandbox/reset').send({ api_key: long }).expect(404),
    ]
    for (const res of answers) {
      // The value is cut to 60 characters; the rest is the message's own text (the longest lists every event type).
      expect(res.body.error.message).not.toContain('X'.repeat(61))
      expect(res.body.error.message.length).toBeLessThan(600)
      expect(res.body.error.message).toContain('XXX…')
      expect((res.body.error.param ?? '').length).toBeLessThan(100)
    }
    expect(answers[0]!.body.error.message).toMatch(/; got "X{60}…"\.$/)
  })
})
