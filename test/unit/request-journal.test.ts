import type { Request, Response } from 'express'
import { describe, expect, it } from 'vitest'
import { createRequestJournal, SHORT_BODY_BYTES, UnknownRequestError, type RequestJournal } from '../../src/control/request-journal.js'

/** The request journal on its own: rings per account, the bytes it keeps of each request, and its budget. */

const KEY = 'sk_test_journal_unit_key'
const ACCOUNT = 'acct_unit'
const accountOfKey = (authorization: string) => (authorization === `Bearer ${KEY}` ? ACCOUNT : undefined)

/** A request and its answer as the HTTP kit hands them to the journal. */
function exchange(options: { path?: string; method?: string; headers?: string[]; body?: string; answer?: string | Buffer; accountId?: string; status?: number }) {
  const raw = options.headers ?? ['Host', 'localhost', 'Authorization', `Bearer ${KEY}`]
  const headers: Record<string, string> = {}
  for (let i = 0; i < raw.length; i += 2) headers[raw[i]!.toLowerCase()] = raw[i + 1]!
  const req = { originalUrl: options.path ?? '/v1/wallets', url: options.path ?? '/v1/wallets', method: options.method ?? 'GET', headers, rawHeaders: raw } as unknown as Request
  // responseBytes as send() notes it (src/http/respond.ts): the answer's length in bytes.
  const responseBytes = typeof options.answer === 'string' ? Buffer.byteLength(options.answer) : options.answer?.length
  const locals = { accountId: options.accountId, requestBody: options.body === undefined ? undefined : Buffer.from(options.body), responseBody: options.answer, responseBytes }
  const res = { writableFinished: true, statusCode: options.status ?? 200, getHeader: () => undefined, locals } as unknown as Response
  return [req, res] as const
}

let ids = 0
const record = (journal: RequestJournal, options: Parameters<typeof exchange>[0] = {}) => {
  const [req, res] = exchange(options)
  journal.record(req, res, { requestId: `req_${++ids}`, durationMs: 1.234 }, Date.UTC(2026, 0, 1))
}
/** The requests of `whose` (the account, `null`: without one, `'every'`: all), newest first. */
const all = (journal: RequestJournal, whose: string | null = ACCOUNT) => journal.list(whose === 'every' ? undefined : whose, () => true, { offset: 0, limit: 100_000 }).items

describe('the request journal', () => {
  it('keeps each account’s newest requests in order through growth and wrapping, and those without an account apart', () => {
    const journal = createRequestJournal({ limit: 50, accountOfKey })
    for (let i = 0; i < 130; i++) record(journal, { path: `/v1/wallets/wal_${i}`, answer: `{"i":${i},"pad":"${'x'.repeat(i * 40)}"}` })
    record(journal, { headers: ['Host', 'localhost'] })
    const kept = all(journal)
    expect(kept.map((entry) => entry.path)).toEqual(Array.from({ length: 50 }, (_, i) => `/v1/wallets/wal_${129 - i}`))
    expect(JSON.parse(kept[0]!.response_body!)).toMatchObject({ i: 129 })
    expect(JSON.parse(kept[49]!.response_body!)).toMatchObject({ i: 80 })
    expect(kept[0]).toMatchObject({ account_id: ACCOUNT, api_key: 'sk_test_…_key', duration_ms: 1.2, at: '2026-01-01T00:00:00.000Z', status: 200, query: null, idempotency_key: null })
    expect(all(journal, null).map((entry) => [entry.account_id, entry.api_key])).toEqual([[null, null]])
    expect(all(journal, 'every')).toHaveLength(51)
  })

  it('keeps an all-ASCII answer (written as latin1) and any other (as UTF-8) as they were sent, whole or cut on a character', () => {
    const journal = createRequestJournal({ limit: 10, accountOfKey })
    const answers = ['{"data":{"description":"plain"}}', '{"data":{"description":"caf\u00e9 \u00ff \u20ac \ud83d\ude00"}}', '{"a":"\u00e9"}', 'x'.repeat(70_000), `${'y'.repeat(65_535)}\u00e9`]
    for (const answer of answers) record(journal, { answer })
    expect(all(journal).map((entry) => entry.response_body).reverse()).toEqual([answers[0], answers[1], answers[2], 'x'.repeat(65_536), 'y'.repeat(65_535)])
    expect(all(journal).map((entry) => entry.truncated).reverse()).toEqual([false, false, false, true, true])
  })

  it('masks secrets in the headers, keeps them to 8 KB, and keeps the rest as sent', () => {
    const journal = createRequestJournal({ limit: 10, accountOfKey })
    record(journal, { headers: ['Host', 'h', 'AUTHORIZATION', `Bearer ${KEY}`, 'Proxy-Authorization', 'Basic dXNlcjpwYXNz', 'Cookie', 'session=secret', 'X-Twice', 'a', 'x-twice', 'b', 'X-Latin', 'caf\u00e9'] })
    expect(all(journal)[0]!.headers).toEqual({ host: 'h', authorization: 'Bearer sk_test_…_key', 'proxy-authorization': 'Basic …', cookie: '…', 'x-twice': 'a, b', 'x-latin': 'caf\u00e9' })
    record(journal, { headers: ['Authorization', `Bearer ${KEY}`, 'X-Big', 'y'.repeat(9000), 'X-After', '1'] })
    const [cut] = all(journal)
    expect(cut!.headers).toEqual({ authorization: 'Bearer sk_test_…_key' })
    expect(cut!.truncated).toBe(true)
  })

  it('cuts a body at 64 KB on a character, and once the journal holds its budget, new bodies at 4 KB', () => {
    const journal = createRequestJournal({ limit: 100, accountOfKey, byteBudget: 200_000 })
    record(journal, { method: 'POST', body: `"${'é'.repeat(40_000)}"`, answer: 'ü'.repeat(40_000) })
    const [first] = all(journal)
    expect(Buffer.byteLength(first!.request_body!)).toBe(65_535)
    expect(first!.response_body).toBe('ü'.repeat(32_768))
    expect(first!.truncated).toBe(true)
    for (let i = 0; i < 3; i++) record(journal, { method: 'POST', body: 'z'.repeat(60_000), answer: Buffer.from('{"ok":true}') })
    const bodies = all(journal).map((entry) => [entry.request_body!.length, entry.truncated])
    // 128 KB, then 60 KB twice: past 200,000 bytes, the next is cut to 4 KB.
    expect(bodies).toEqual([[SHORT_BODY_BYTES, true], [60_000, false], [60_000, false], [32_768, true]])
  })

  it('gives the room of a reset account back to the budget', () => {
    const journal = createRequestJournal({ limit: 100, accountOfKey, byteBudget: 100_000 })
    record(journal, { method: 'POST', body: 'z'.repeat(60_000) })
    record(journal, { method: 'POST', body: 'z'.repeat(60_000) })
    journal.clear(ACCOUNT)
    expect(all(journal)).toEqual([])
    record(journal, { method: 'POST', body: 'z'.repeat(60_000) })
    expect(all(journal)[0]!.request_body).toHaveLength(60_000)
  })

  // The ring of requests without an account is made with the first of them (issue 33, round 10).
  it('answers for requests without an account before the first of them, and after a clear, as an empty ring', () => {
    const journal = createRequestJournal({ limit: 10, accountOfKey })
    expect(all(journal, null)).toEqual([])
    expect(all(journal, 'every')).toEqual([])
    expect(() => journal.list(null, () => true, { after: 'req_none', offset: 0, limit: 10 })).toThrow(UnknownRequestError)
    record(journal, { headers: ['Host', 'localhost'], path: '/v1/wallets/wal_a' })
    record(journal)
    expect(all(journal, null).map((entry) => entry.path)).toEqual(['/v1/wallets/wal_a'])
    expect(all(journal, 'every')).toHaveLength(2)
    journal.clear()
    expect(all(journal, null)).toEqual([])
    expect(all(journal, 'every')).toEqual([])
    record(journal, { headers: ['Host', 'localhost'], path: '/v1/wallets/wal_b' })
    expect(all(journal, null).map((entry) => entry.path)).toEqual(['/v1/wallets/wal_b'])
  })
})
