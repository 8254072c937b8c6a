import { createHmac } from 'node:crypto'
import { Webhook } from 'standardwebhooks'
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.js'
import { nextRetryDelay } from '../../src/events/retry-schedule.js'
import { defaultConfiguredSecret, webhookHeaders } from '../../src/events/signing.js'
import { secretKey, signPayload, verificationError } from '../../src/standard-webhooks.js'
import { generateSecret } from '../../src/events/secret.js'
import { createRng } from '../../src/rng.js'

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const nowSeconds = () => Math.floor(Date.now() / 1000)

describe('webhook signatures', () => {
  it('are accepted by the standardwebhooks package', () => {
    const body = JSON.stringify({ id: 'evt_1', type: 'payment.succeeded', data: { object: { amount: '1.00' } } })
    const timestamp = nowSeconds()
    const headers = webhookHeaders({ secret: SECRET, id: 'evt_1', timestamp, body, userAgent: 'wallet-sandbox/test' })
    expect(new Webhook(SECRET).verify(body, headers)).toEqual(JSON.parse(body))
  })

  it('match the value the standardwebhooks package computes for the same inputs', () => {
    const timestamp = 1_700_000_000
    const expected = new Webhook(SECRET).sign('msg_p5jXN8AQM9LWM0D4loKWxJek', new Date(timestamp * 1000), '{"test": 2432232314}')
    expect(signPayload({ secret: SECRET, id: 'msg_p5jXN8AQM9LWM0D4loKWxJek', timestamp, body: '{"test": 2432232314}' })).toBe(expected)
  })

  it('are HMAC-SHA256 of "id.timestamp.body" keyed with the base64-decoded secret', () => {
    const key = Buffer.from(SECRET.slice('whsec_'.length), 'base64')
    const manual = createHmac('sha256', key).update('evt_9.1700000000.{"a":1}').digest('base64')
    expect(signPayload({ secret: SECRET, id: 'evt_9', timestamp: 1_700_000_000, body: '{"a":1}' })).toBe(`v1,${manual}`)
  })

  it('sign the exact bytes: non-ASCII bodies verify too', () => {
    const body = JSON.stringify({ description: 'Café ☕ – paiement' })
    const headers = webhookHeaders({ secret: SECRET, id: 'evt_2', timestamp: nowSeconds(), body, userAgent: 'x' })
    expect(() => new Webhook(SECRET).verify(body, headers)).not.toThrow()
  })

  it.each([
    ['another secret', { secret: 'whsec_' + Buffer.alloc(32, 7).toString('base64') }],
    ['another body', { body: '{"amount":"2.00"}' }],
    ['another id', { id: 'evt_other' }],
  ])('fail verification with %s', (_name, change) => {
    const base = { secret: SECRET, id: 'evt_3', timestamp: nowSeconds(), body: '{"amount":"1.00"}', userAgent: 'x' }
    const headers = webhookHeaders({ ...base, ...change })
    expect(() => new Webhook(SECRET).verify(base.body, { ...headers, 'webhook-id': base.id })).toThrow()
  })

  it('carry the Standard Webhooks headers, the JSON content type and the user agent', () => {
    const headers = webhookHeaders({ secret: SECRET, id: 'evt_4', timestamp: 1_700_000_000, body: '{}', userAgent: 'wallet-sandbox/1.2.3' })
    expect(headers).toEqual({
      'content-type': 'application/json',
      'user-agent': 'wallet-sandbox/1.2.3',
      'webhook-id': 'evt_4',
      'webhook-timestamp': '1700000000',
      'webhook-signature': expect.stringMatching(/^v1,[A-Za-z0-9+/]{43}=$/),
    })
  })
})

describe('webhook secrets', () => {
  it('are whsec_ followed by base64 of 32 bytes', () => {
    const secret = generateSecret(createRng('seed'))
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(secretKey(secret)).toHaveLength(32)
  })

  it('come from the generator: the same seed gives the same secret, another seed another', () => {
    expect(generateSecret(createRng('a'))).toBe(generateSecret(createRng('a')))
    expect(generateSecret(createRng('a'))).not.toBe(generateSecret(createRng('b')))
  })

  it('for --webhook-url without --webhook-secret are a function of the seed', () => {
    expect(defaultConfiguredSecret('s1')).toBe(defaultConfiguredSecret('s1'))
    expect(defaultConfiguredSecret('s1')).not.toBe(defaultConfiguredSecret('s2'))
    expect(() => new Webhook(defaultConfiguredSecret('s1'))).not.toThrow()
  })
})

describe('the webhook retry schedule', () => {
  it.each([
    ['5s,30s,2m,10m,1h', [5_000, 30_000, 120_000, 600_000, 3_600_000]],
    ['none', []],
    ['250ms, 1s', [250, 1_000]],
    ['1h', [3_600_000]],
  ])('--webhook-retries %s parses to %j', (flag, delays) => {
    expect(loadConfig({ flags: { webhookRetries: flag } }).webhookRetries).toEqual(delays)
  })

  it('defaults to 5s, 30s, 2m, 10m, 1h', () => {
    expect(loadConfig().webhookRetries).toEqual([5_000, 30_000, 120_000, 600_000, 3_600_000])
  })

  it.each(['5', '5x', '5s,,1m', 'soon'])('refuses --webhook-retries %s with a message naming the flag', (flag) => {
    expect(() => loadConfig({ flags: { webhookRetries: flag } })).toThrow(/--webhook-retries/)
  })

  it('gives the delay before each retry, then nothing once the schedule is used up', () => {
    const schedule = [5_000, 30_000]
    expect([0, 1, 2, 3].map((done) => nextRetryDelay(schedule, done))).toEqual([5_000, 30_000, undefined, undefined])
    expect(nextRetryDelay([], 0)).toBeUndefined()
  })
})

describe('verificationError (the helpers\' receivers)', () => {
  const body = '{"id":"evt_1","type":"payment.failed"}'
  const at = 1_700_000_000
  const signed = (overrides: Record<string, string> = {}) => ({ 'webhook-id': 'evt_1', 'webhook-timestamp': String(at), 'webhook-signature': new Webhook(SECRET).sign('evt_1', new Date(at * 1000), body), ...overrides })

  it('accepts what the standardwebhooks package signs, also among other signatures', () => {
    expect(verificationError(SECRET, signed(), body, at + 10)).toBeUndefined()
    expect(verificationError(SECRET, signed({ 'webhook-signature': `v1,AAAA ${signed()['webhook-signature']}` }), body, at)).toBeUndefined()
  })

  it.each([
    ['another body', signed(), `${body} `, at, 'no v1 signature matches'],
    ['another secret', signed({ 'webhook-signature': new Webhook('whsec_' + Buffer.alloc(24, 7).toString('base64')).sign('evt_1', new Date(at * 1000), body) }), body, at, 'no v1 signature matches'],
    ['another id', signed({ 'webhook-id': 'evt_2' }), body, at, 'no v1 signature matches'],
    ['a timestamp over five minutes old', signed(), body, at + 301, 'more than 300 s from now'],
    ['a timestamp from the future', signed(), body, at - 301, 'more than 300 s from now'],
    ['no signature header', signed({ 'webhook-signature': '' }), body, at, 'missing'],
    ['a timestamp that is not seconds', signed({ 'webhook-timestamp': '17e8' }), body, at, 'not whole seconds'],
    ['a v2 signature only', signed({ 'webhook-signature': 'v2,abc' }), body, at, 'no v1 signature matches'],
  ])('refuses %s, saying why', (_name, headers, text, now, reason) => {
    expect(verificationError(SECRET, headers, text, now)).toContain(reason)
  })
})
