import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { buildIfNeeded, ROOT } from '../helpers/cli-process.js'

/**
 * A start and a test's first requests turn no Date into text through V8 (src/date-text.ts): V8's
 * first such call in a process reads the local time zone from the system, 0.2 ms of a cold start,
 * even for the UTC forms. Run in a plain node on the built library, with V8's Date-to-text methods
 * recording each call.
 */

beforeAll(buildIfNeeded, 180_000)

const pkg = createRequire(join(ROOT, 'package.json'))('./package.json') as { exports: Record<string, Record<string, string>> }
const libraryUrl = pathToFileURL(join(ROOT, pkg.exports['.']!.import!)).href

const script = `
  const called = []
  for (const name of ['toISOString', 'toUTCString', 'toString', 'toDateString', 'toTimeString', 'toJSON', 'toLocaleString', 'toLocaleDateString', 'toLocaleTimeString', 'getTimezoneOffset']) {
    const own = Date.prototype[name]
    Date.prototype[name] = function (...args) { called.push(name); return own.apply(this, args) }
  }
  const { startSandbox } = await import(${JSON.stringify(libraryUrl)})
  const sandbox = await startSandbox({ port: 0, host: '127.0.0.1' })
  const headers = { authorization: 'Bearer sk_test_sandbox_default_key', 'content-type': 'application/json' }
  const health = await fetch(new URL('/_sandbox/health', sandbox.url))
  const wallets = await (await fetch(new URL('/v1/wallets?limit=100', sandbox.url), { headers })).json()
  const source = wallets.data.find((w) => w.type === 'institutional' && w.network === 'polygon' && w.currency === 'USDC')
  const body = JSON.stringify({ amount: '1.00', currency: 'USDC', source_wallet: source.id, recipient: '0x000000000000000000000000000000000000dEaD', description: 'first' })
  const payment = await fetch(new URL('/v1/payments', sandbox.url), { method: 'POST', headers, body })
  const calledByTheSandbox = [...called]
  const created = await payment.json()
  await sandbox.close()
  process.stdout.write(JSON.stringify({
    calledByTheSandbox,
    statuses: [health.status, payment.status],
    date: health.headers.get('date'),
    startedAt: (await health.json()).data.started_at,
    createdAt: created.data.created_at,
  }))
`

describe('a start and its first requests', () => {
  it('turn no Date into text through V8, and their times read as before', () => {
    const before = Date.now()
    const seen = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' })) as Record<string, unknown>
    const after = Date.now()
    expect(seen.calledByTheSandbox).toEqual([])
    expect(seen.statuses).toEqual([200, 201])
    // RFC 9110's IMF-fixdate, as node writes it, within the run (to the second).
    expect(seen.date).toMatch(/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d\d:\d\d:\d\d GMT$/)
    expect(Date.parse(seen.date as string)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000)
    expect(Date.parse(seen.date as string)).toBeLessThanOrEqual(after)
    for (const iso of [seen.startedAt, seen.createdAt]) {
      expect(iso).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
      expect(Date.parse(iso as string)).toBeGreaterThanOrEqual(before)
      expect(Date.parse(iso as string)).toBeLessThanOrEqual(after)
    }
  })
})
