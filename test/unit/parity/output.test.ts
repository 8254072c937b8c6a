import { describe, expect, it } from 'vitest'
import { formatAcceptFile, judge } from '../../../src/parity/baseline.js'
import { paintFor, wantsColour } from '../../../src/colour.js'

const plain = paintFor(false)
import type { Difference } from '../../../src/parity/compare.js'
import { humanReport } from '../../../src/parity/human-output.js'
import { createProgress } from '../../../src/parity/progress.js'
import { buildReport, reportText } from '../../../src/parity/report.js'
import { redact, scrubKnown } from '../../../src/parity/secrets.js'
import type { StepResult } from '../../../src/parity/step-result.js'

/** The baseline's verdict, the report and what a person reads. */

const difference = (key: string, local: unknown = 'a', hosted: unknown = 'b'): Difference => {
  const parts = key.split(' ')
  return { key, class: parts.at(-1) as Difference['class'], path: parts[2]!, local, hosted }
}
const step = (name: string, operation: string, differences: Difference[] = [], skipped: string | null = null): StepResult => {
  const [method, path] = operation.split(' ') as [string, string]
  return { name, operation, request: { method, path, auth: 'key' }, local: null, hosted: null, differences, skipped }
}

const STEPS = [
  step('read a wallet', 'GET /v1/wallets/{id}', [difference('GET /v1/wallets/{id} $.data.label missing', null, 'x')]),
  step('read another', 'GET /v1/wallets/{id}', [difference('GET /v1/wallets/{id} $.data.label missing', null, 'y')]),
  step('list wallets', 'GET /v1/wallets'),
  step('pay', 'POST /v1/payments', [], 'needs --source-wallet'),
]

describe('judge', () => {
  it('is new for a key not accepted, accepted for one that is, fixed for an accepted key of an operation that ran without it', () => {
    const verdict = judge(STEPS, ['GET /v1/wallets $.data.name missing', 'POST /v1/payments $.data.fee missing', 'GET /v1/wallets/{id} $.data.label missing'])
    expect(verdict).toEqual({
      new: [],
      accepted: ['GET /v1/wallets/{id} $.data.label missing'],
      fixed: ['GET /v1/wallets $.data.name missing'],
    })
    expect(judge(STEPS, []).new).toEqual(['GET /v1/wallets/{id} $.data.label missing'])
  })

  it('writes the accept file as a JSON list, one key a line, sorted, without repeats', () => {
    expect(formatAcceptFile(['b key', 'a key', 'b key'])).toBe('[\n  "a key",\n  "b key"\n]\n')
  })
})

describe('the human output', () => {
  const report = buildReport({ against: 'https://h/v1', pack: 'core', startedAt: new Date(0), steps: STEPS, retries429: 1, verdict: judge(STEPS, []) })

  it('has a table per operation, each difference once with both values side by side, the skipped, the new keys and the totals', () => {
    expect(humanReport(report, plain, 'title')).toEqual([
      'title',
      '',
      'operation             steps  same  different  skipped',
      'GET /v1/wallets/{id}      2     0          2        0',
      'GET /v1/wallets           1     1          0        0',
      'POST /v1/payments         1     0          0        1',
      '',
      '1 difference:',
      '',
      '  new GET /v1/wallets/{id} $.data.label missing',
      '      at       $.data.label',
      '      request  GET /v1/wallets/{id}  (read a wallet; and 1 more step)',
      '      local    (absent)                                hosted   "x"',
      '',
      'skipped 1 step:',
      '  needs --source-wallet (1): pay',
      '',
      'new: GET /v1/wallets/{id} $.data.label missing',
      '',
      '4 steps: 1 same, 2 different, 1 skipped; 1 retry after a 429; 1 new, 0 accepted, 0 fixed',
    ])
  })

  it('is coloured on a terminal only, and never with NO_COLOR', () => {
    expect(humanReport(report, paintFor(wantsColour({ isTTY: true }, {})), 'title').join('\n')).toContain('\u001b[31mnew: ')
    expect(humanReport(report, paintFor(wantsColour({ isTTY: true }, { NO_COLOR: '1' })), 'title').join('\n')).not.toContain('\u001b[')
    expect(humanReport(report, paintFor(wantsColour({ isTTY: false }, {})), 'title').join('\n')).not.toContain('\u001b[')
  })

  it('shows a progress line on a terminal only, and clears it', () => {
    const written: string[] = []
    const tty = createProgress({ isTTY: true, columns: 40, write: (text) => written.push(text) }, 'parity core')
    tty.step(0, 49, 'create a user wallet of USDC on polygon')
    tty.done()
    expect(written).toEqual(['\r\u001b[Kparity core [1/49] create a user walle…', '\r\u001b[K'])
    const piped: string[] = []
    const none = createProgress({ isTTY: false, write: (text) => piped.push(text) }, 'parity core')
    none.step(0, 1, 'x')
    none.done()
    expect(piped).toEqual([])
  })
})

describe('secrets', () => {
  it('never reach the report: secret fields, keys and signing secrets inside text, and the run\'s own keys', () => {
    const steps = [step('x', 'POST /v1/webhooks', [difference('POST /v1/webhooks $.data.secret missing', null, '<secret>')])]
    steps[0]!.hosted = { status: 401, headers: {}, body: { data: { secret: 'whsec_c2VjcmV0', private_key: 'abc' }, error: { message: 'Invalid API key sk_live_abcdefgh12 or rk_test_abcdefghij' } } }
    const text = reportText(buildReport({ against: 'https://h/v1', pack: 'webhooks', startedAt: new Date(0), steps, retries429: 0, verdict: judge(steps, []) }), ['hosted-key-123'])
    expect(text).not.toMatch(/whsec_c2V|sk_live_|rk_test_|"abc"/)
    expect(scrubKnown('a hosted-key-123 b', ['hosted-key-123'])).toBe('a <secret> b')
    expect(redact({ note: '-----BEGIN PRIVATE KEY-----\nMC4CAQ\n-----END PRIVATE KEY-----' })).toEqual({ note: '<secret>' })
  })
})
