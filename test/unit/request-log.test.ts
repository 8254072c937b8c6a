import type { Request, Response } from 'express'
import { describe, expect, it } from 'vitest'
import { createRequestLog, formatJson, formatPretty, keySuffix, resolveLogFormat, toEntry, type RequestLogEntry } from '../../src/http/middleware/request-log.js'

const entry: RequestLogEntry = {
  time: '2026-01-01T12:34:56.789Z',
  method: 'POST',
  path: '/v1/payments',
  status: 201,
  duration_ms: 4.25,
  request_id: 'req_abcdefghijklmnopqrstuvwx',
  key_suffix: '_key',
}

const fakeRequest = (url: string, authorization?: string) =>
  ({ method: 'GET', originalUrl: url, url, headers: authorization === undefined ? {} : { authorization } }) as unknown as Request
const fakeResponse = (statusCode: number) => ({ statusCode }) as unknown as Response

describe('keySuffix', () => {
  it.each([
    ['shows the last 4 characters of a /v1 bearer key', '/v1/wallets', 'Bearer sk_test_sandbox_default_key', '_key'],
    ['shows nothing without an Authorization header', '/v1/wallets', undefined, null],
    ['shows nothing for a header that is not Bearer', '/v1/wallets', 'Basic dXNlcjpwYXNz', null],
    ['shows nothing for a key too short to hide', '/v1/wallets', 'Bearer sk_test_1', null],
    ['never shows the control token of a /_sandbox request', '/_sandbox/reset', 'Bearer a-long-control-token', null],
  ])('%s', (_name, path, header, expected) => {
    expect(keySuffix(path, header)).toBe(expected)
  })
})

describe('toEntry', () => {
  it('drops the query string, so that ?api_key= never reaches the log', () => {
    const logged = toEntry(fakeRequest('/v1/stream?api_key=sk_test_secret_value_1234'), fakeResponse(401), { requestId: 'req_1', durationMs: 1.234 }, Date.UTC(2026, 0, 1))
    expect(logged).toEqual({ time: '2026-01-01T00:00:00.000Z', method: 'GET', path: '/v1/stream', status: 401, duration_ms: 1.2, request_id: 'req_1', key_suffix: null })
    expect(JSON.stringify(logged)).not.toContain('secret')
  })

  it('never holds the whole API key', () => {
    const logged = toEntry(fakeRequest('/v1/wallets', 'Bearer sk_test_sandbox_default_key'), fakeResponse(200), { requestId: 'req_1', durationMs: 2 })
    expect(JSON.stringify(logged)).not.toContain('sk_test_sandbox_default_key')
    expect(logged.key_suffix).toBe('_key')
  })
})

describe('formatPretty', () => {
  it('writes time, method, path, status, duration, request id and key suffix on one line', () => {
    expect(formatPretty(entry, { colour: false })).toBe('12:34:56.789 POST   /v1/payments 201 4.3ms req_abcdefghijklmnopqrstuvwx key …_key')
  })

  it('leaves out the key when the request had none', () => {
    expect(formatPretty({ ...entry, key_suffix: null }, { colour: false })).not.toContain('key')
  })

  it.each([
    [201, '\x1b[32m201\x1b[0m'],
    [304, '\x1b[36m304\x1b[0m'],
    [404, '\x1b[33m404\x1b[0m'],
    [503, '\x1b[31m503\x1b[0m'],
  ])('colours status %i by its class on a terminal', (status, painted) => {
    expect(formatPretty({ ...entry, status }, { colour: true })).toContain(painted)
  })

  it('has no escape codes without colour', () => {
    expect(formatPretty(entry, { colour: false })).not.toContain('\x1b')
  })
})

describe('formatJson', () => {
  it('is one JSON object with every field', () => {
    const line = formatJson(entry)
    expect(line).not.toContain('\n')
    expect(JSON.parse(line)).toEqual({ level: 'info', message: 'request', ...entry })
  })
})

describe('createRequestLog', () => {
  const capture = (isTTY: boolean) => {
    const lines: string[] = []
    return { lines, stream: { isTTY, write: (text: string) => lines.push(text) } }
  }
  const answer = (log: ReturnType<typeof createRequestLog>) =>
    log(fakeRequest('/v1/wallets', 'Bearer sk_test_sandbox_default_key'), fakeResponse(200), { requestId: 'req_1', durationMs: 3 })

  it.each([
    ['auto on a terminal is pretty and coloured', 'auto', true, /^\x1b\[2m\d\d:\d\d:\d\d\.\d{3}\x1b\[0m GET {4}\/v1\/wallets \x1b\[32m200/],
    ['auto when piped is JSON', 'auto', false, /^\{"level":"info","message":"request"/],
    ['json on a terminal is JSON', 'json', true, /^\{"level":"info"/],
    ['pretty when piped has no colour', 'pretty', false, /^\d\d:\d\d:\d\d\.\d{3} GET {4}\/v1\/wallets 200 3\.0ms req_1 key …_key$/],
  ] as const)('%s', (_name, format, isTTY, expected) => {
    const { lines, stream } = capture(isTTY)
    answer(createRequestLog({ format, stream }))
    expect(lines).toHaveLength(1)
    expect(lines[0]!.endsWith('\n')).toBe(true)
    expect(lines[0]!.trimEnd()).toMatch(expected)
  })

  it.each([
    ['/_sandbox/requests'], ['/_sandbox/events'], ['/_sandbox/ui/app.js'], ['/_sandbox'],
  ])('leaves out the control API (%s) unless asked, so that the tools polling it do not drown the app\'s requests', (path) => {
    const { lines, stream } = capture(false)
    const request = (log: ReturnType<typeof createRequestLog>) => log(fakeRequest(`${path}?api_key=sk_test_sandbox_default_key`), fakeResponse(200), { requestId: 'req_2', durationMs: 1 })
    request(createRequestLog({ format: 'json', stream }))
    answer(createRequestLog({ format: 'json', stream }))
    expect(lines.map((line) => JSON.parse(line).path)).toEqual(['/v1/wallets'])
    request(createRequestLog({ format: 'json', stream, control: true }))
    expect(lines.map((line) => JSON.parse(line).path)).toEqual(['/v1/wallets', path])
  })

  it('logs a /v1 path that only starts like the control API', () => {
    const { lines, stream } = capture(false)
    createRequestLog({ format: 'json', stream })(fakeRequest('/_sandboxes'), fakeResponse(404), { requestId: 'req_3', durationMs: 1 })
    expect(lines).toHaveLength(1)
  })

  it('resolves auto from the stream', () => {
    expect(resolveLogFormat('auto', { isTTY: true })).toBe('pretty')
    expect(resolveLogFormat('auto', {})).toBe('json')
    expect(resolveLogFormat('pretty', {})).toBe('pretty')
  })
})
