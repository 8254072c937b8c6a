import { describe, expect, it } from 'vitest'
import { compareAnswers, type Answer } from '../../../src/parity/compare.js'
import { IdNumbering, Malformed, normalise, Token } from '../../../src/parity/normalise.js'

/** Normalisation and comparison of one step (CONTRACT.md section 22), on answers written by hand. */

const answer = (body: unknown, status = 200, headers: Record<string, string> = { 'content-type': 'application/json', 'x-request-id': 'req_x' }, ids = new IdNumbering()): Answer => ({
  status,
  headers,
  body: normalise(body, ids),
})
const compare = (local: Answer, hosted: Answer, options: { requestBody?: unknown; lengths?: boolean } = {}) => compareAnswers(local, hosted, { operation: 'GET /v1/wallets/{id}', ...options })

const WALLET = {
  id: 'wal_3FqLxY8s0bTq1vZ9aXcD2eRf',
  object: 'wallet',
  name: 'Treasury',
  address: '0x52908400098527886E0F7030069857D2E4169EE7',
  currency: 'USDC',
  network: 'polygon',
  status: 'active',
  balance: '10.00',
  created_at: '2026-01-01T00:00:00.000Z',
}

describe('normalise', () => {
  it('numbers ids by first appearance per prefix, drops request_id, and replaces timestamps, addresses and secrets', () => {
    const ids = new IdNumbering()
    const body = normalise({ data: { ...WALLET, secret: 'whsec_abc', other: 'wal_3FqLxY8s0bTq1vZ9aXcD2eRf', next: 'wal_zzzzzzzzzzzzzzzzzzzzzzzz', pay: 'pay_aaaaaaaaaaaaaaaaaaaaaaaa' }, request_id: 'req_whatever000000000000' }, ids) as { data: Record<string, unknown> }
    expect(body).not.toHaveProperty('request_id')
    expect(body.data.id).toEqual(new Token('id', 'wal#1'))
    expect(body.data.other).toEqual(new Token('id', 'wal#1'))
    expect(body.data.next).toEqual(new Token('id', 'wal#2'))
    expect(body.data.pay).toEqual(new Token('id', 'pay#1'))
    expect(body.data.created_at).toEqual(new Token('timestamp', '<timestamp>'))
    expect(body.data.address).toEqual(new Token('address', '<address:polygon>'))
    expect(body.data.secret).toEqual(new Token('secret', '<secret>'))
    expect(body.data.status).toBe('active')
  })

  it.each([
    ['a timestamp without Z', { created_at: '2026-01-01T00:00:00.000' }, 'created_at', new Malformed('timestamp', '2026-01-01T00:00:00.000')],
    ['a timestamp with an offset', { created_at: '2026-01-01T00:00:00+00:00' }, 'created_at', new Malformed('timestamp', '2026-01-01T00:00:00+00:00')],
    ['a field named *_at that is no timestamp', { expires_at: 'soon' }, 'expires_at', new Malformed('timestamp', 'soon')],
    ['an address with a wrong checksum', { address: '0x52908400098527886e0F7030069857D2E4169EE7', network: 'polygon' }, 'address', new Malformed('address', '0x52908400098527886e0F7030069857D2E4169EE7')],
    ['a solana address on polygon', { address: 'kgERWXbLfq6MHcWLd86a5dpmSvM86QhQrQjL2gGPbnD', network: 'polygon' }, 'address', new Malformed('address', 'kgERWXbLfq6MHcWLd86a5dpmSvM86QhQrQjL2gGPbnD')],
  ])('keeps %s visible as malformed', (_, body, field, expected) => {
    expect((normalise(body, new IdNumbering()) as Record<string, unknown>)[field]).toEqual(expected)
  })

  it('takes no status, code or short value for an id', () => {
    const body = normalise({ status: 'partially_filled', code: 'insufficient_funds', user: 'user_l90kwqzmkv' }, new IdNumbering())
    expect(body).toEqual({ status: 'partially_filled', code: 'insufficient_funds', user: 'user_l90kwqzmkv' })
  })
})

describe('compareAnswers', () => {
  it('finds nothing between two accounts\' answers that differ only where accounts differ', () => {
    const other = { ...WALLET, id: 'wal_otherotherotherother12', name: 'Another name', address: '0x000000000000000000000000000000000000dEaD'.toLowerCase(), balance: '99.00', created_at: '2027-05-05T05:05:05.5Z' }
    expect(compare(answer({ data: WALLET }), answer({ data: other }))).toEqual([])
  })

  it('names each class with its stable key', () => {
    const hosted = { ...WALLET, label: 'Treasury', balance: 10, status: 'frozen', created_at: '2026-01-01T00:00:00.000' } as Record<string, unknown>
    delete hosted.name
    const differences = compare(answer({ data: WALLET }), answer({ data: hosted }, 201, { 'content-type': 'application/json' }))
    expect(differences.map((d) => d.key)).toEqual([
      'GET /v1/wallets/{id} status status',
      'GET /v1/wallets/{id} headers.x-request-id header',
      'GET /v1/wallets/{id} $.data.status value',
      'GET /v1/wallets/{id} $.data.balance kind',
      'GET /v1/wallets/{id} $.data.created_at format',
      'GET /v1/wallets/{id} $.data.label missing',
      'GET /v1/wallets/{id} $.data.name extra',
    ])
    expect(differences.find((d) => d.class === 'kind')).toMatchObject({ path: '$.data.balance', local: '10.00', hosted: 10 })
    expect(differences.find((d) => d.class === 'missing')).toMatchObject({ local: null, hosted: 'Treasury' })
    expect(differences.find((d) => d.class === 'header')).toMatchObject({ local: 'req_x', hosted: null })
  })

  it('compares error codes and params by value, messages by kind', () => {
    const error = (code: string, param: string, message: string) => answer({ error: { type: 'invalid_request_error', code, param, message } }, 400)
    expect(compare(error('parameter_invalid', 'amount', 'one'), error('parameter_invalid', 'amount', 'two'))).toEqual([])
    expect(compare(error('parameter_invalid', 'amount', 'x'), error('parameter_missing', 'currency', 'x')).map((d) => d.key)).toEqual([
      'GET /v1/wallets/{id} $.error.code value',
      'GET /v1/wallets/{id} $.error.param value',
    ])
  })

  it('compares relations: a source that is another wallet on one side is a value difference', () => {
    const local = new IdNumbering()
    const hosted = new IdNumbering()
    const wallets = (ids: IdNumbering, a: string, b: string) => [answer({ data: { id: a } }, 200, {}, ids), answer({ data: { id: b } }, 200, {}, ids)]
    wallets(local, 'wal_aaaaaaaaaaaaaaaaaaaaaaaa', 'wal_bbbbbbbbbbbbbbbbbbbbbbbb')
    wallets(hosted, 'wal_cccccccccccccccccccccccc', 'wal_dddddddddddddddddddddddd')
    const payment = (ids: IdNumbering, source: string) => answer({ data: { source } }, 200, {}, ids)
    expect(compare(payment(local, 'wal_aaaaaaaaaaaaaaaaaaaaaaaa'), payment(hosted, 'wal_cccccccccccccccccccccccc'))).toEqual([])
    expect(compare(payment(local, 'wal_aaaaaaaaaaaaaaaaaaaaaaaa'), payment(hosted, 'wal_dddddddddddddddddddddddd'))).toMatchObject([{ class: 'value', local: 'wal#1', hosted: 'wal#2' }])
  })

  it('compares amounts the request gave by value, other amounts by kind', () => {
    const pay = (amount: string, fee: string) => answer({ data: { amount, fee } })
    expect(compare(pay('10.00', '0.10'), pay('10.00', '0.20'), { requestBody: { amount: '10' } })).toEqual([])
    expect(compare(pay('10.00', '0.10'), pay('10.50', '0.10'), { requestBody: { amount: '10' } }).map((d) => d.key)).toEqual(['GET /v1/wallets/{id} $.data.amount value'])
    expect(compare(pay('10.00', '0.10'), pay('10.50', '0.10'))).toEqual([])
  })

  it('compares lists item by item up to the shorter one, and their lengths only when asked, with one key for every item', () => {
    const list = (...statuses: string[]) => answer({ data: statuses.map((status) => ({ object: 'payment', status })), pagination: { limit: 20, offset: 0, total: statuses.length, has_more: false } })
    expect(compare(list('pending'), list('pending', 'failed'))).toEqual([])
    expect(compare(list('pending'), list('pending', 'failed'), { lengths: true }).map((d) => d.key)).toEqual(['GET /v1/wallets/{id} $.data.length value'])
    const differences = compare(list('pending', 'pending'), list('failed', 'failed'))
    expect(differences).toHaveLength(1)
    expect(differences[0]).toMatchObject({ key: 'GET /v1/wallets/{id} $.data[*].status value', path: '$.data[0].status' })
  })
})
