import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { IdTranslation } from '../../../src/parity/id-translation.js'
import { pathTemplate } from '../../../src/parity/ids.js'
import { authKind, readRecording } from '../../../src/parity/recording.js'
import { hostedRoot, sandboxKey, UsageError } from '../../../src/parity/usage.js'

/** The parts of a replay: id translation, reading a recording, and the checks made before any request. */

describe('IdTranslation', () => {
  it('maps a hosted id to the local id at the same place of the answer, and translates later requests', () => {
    const ids = new IdTranslation()
    ids.learn(
      { data: [{ id: 'wal_hostedhosted0001', wallet: 'wal_hostedhosted0002' }], request_id: 'req_hostedhosted0003' },
      { data: [{ id: 'wal_locallocal00001', wallet: 'wal_locallocal00002' }], request_id: 'req_locallocal00003' },
    )
    const unmapped = new Set<string>()
    expect(ids.translatePath('/v1/wallets/wal_hostedhosted0001/balance', unmapped)).toBe('/v1/wallets/wal_locallocal00001/balance')
    expect(ids.translate({ source_wallet: 'wal_hostedhosted0002', items: [{ recipient: 'wal_hostedhosted0001' }], amount: '1.00' }, unmapped)).toEqual({
      source_wallet: 'wal_locallocal00002',
      items: [{ recipient: 'wal_locallocal00001' }],
      amount: '1.00',
    })
    expect(ids.translate({ recipient_id: 'wal_hostedhosted0002' }, unmapped)).toEqual({ recipient_id: 'wal_locallocal00002' })
    expect(unmapped.size).toBe(0)
  })

  it('keeps the first mapping, maps only ids of the same prefix, and names the ids never mapped', () => {
    const ids = new IdTranslation()
    ids.learn({ id: 'wal_hostedhosted0001', other: 'pay_hostedhosted0009' }, { id: 'wal_locallocal00001', other: 'wal_locallocal00009' })
    ids.learn({ id: 'wal_hostedhosted0001' }, { id: 'wal_locallocal00002' })
    const unmapped = new Set<string>()
    expect(ids.translatePath('/v1/wallets/wal_hostedhosted0001', unmapped)).toBe('/v1/wallets/wal_locallocal00001')
    ids.translate({ payment: 'pay_hostedhosted0009', wallet: 'wal_neverseenneverseen' }, unmapped)
    expect([...unmapped]).toEqual(['pay_hostedhosted0009', 'wal_neverseenneverseen'])
  })
})

describe('pathTemplate', () => {
  it('reads every id segment as {id}', () => {
    expect(pathTemplate('/v1/orders/ord_M8tMrDBQ5xalOhAtDtasxSWX/cancel?x=1')).toBe('/v1/orders/{id}/cancel')
    expect(pathTemplate('/v1/wallets/%E0')).toBe('/v1/wallets/%E0')
  })
})

describe('a recording', () => {
  const dir = mkdtempSync(join(tmpdir(), 'parity-recording-'))
  const file = (name: string, text: string) => {
    writeFileSync(join(dir, name), text)
    return join(dir, name)
  }

  it('is read line by line, with defaults for what a line leaves out', () => {
    const exchanges = readRecording(file('ok.jsonl', `${JSON.stringify({ seq: 1, at: 'x', request: { method: 'GET', path: '/v1/wallets' }, answer: { status: 200 } })}\n\n`))
    expect(exchanges).toEqual([{ seq: 1, at: 'x', request: { method: 'GET', path: '/v1/wallets', query: {}, headers: {}, body: null, auth: 'key' }, answer: { status: 200, headers: {}, body: null } }])
  })

  it.each([
    ['a line that is not JSON', '{"seq": 1\n', /line 1: not JSON/],
    ['a line that is not an exchange', '{"seq": 1}\n', /line 1: not an exchange/],
  ])('refuses %s, naming the line', (_, text, message) => {
    expect(() => readRecording(file('bad.jsonl', text))).toThrow(message)
  })

  it('says how a request authenticated, never with what', () => {
    expect([authKind(undefined), authKind('Bearer sk_test_abcdefgh'), authKind('Basic abc')]).toEqual(['none', 'key', 'malformed'])
  })
})

describe('the checks before any request', () => {
  it.each([
    ['a live key', () => sandboxKey('sk_live_abcdefgh', '--api-key'), /live key/],
    ['a missing key', () => sandboxKey(undefined, '--api-key'), /missing/],
    ['a URL that is not http(s)', () => hostedRoot('ftp://sandbox.example.com/v1'), /not http\(s\)/],
    ['a URL without /v1', () => hostedRoot('https://sandbox.example.com'), /ending in \/v1/],
    ['a URL with credentials', () => hostedRoot('https://u:p@sandbox.example.com/v1'), /credentials/],
  ])('refuse %s', (_, check, message) => {
    expect(check).toThrow(UsageError)
    expect(check).toThrow(message)
  })

  it('take the hosted root from the API URL', () => {
    expect(hostedRoot('https://sandbox.example.com/v1/')).toBe('https://sandbox.example.com')
  })
})
