import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { buildIfNeeded, killAll, launch, lineOf, runToExit, startCli, type CliProcess } from '../../helpers/cli-process.js'

/** `wallet-sandbox tail` as a child process against a real sandbox (CONTRACT.md section 21). */

beforeAll(buildIfNeeded, 180_000)
afterEach(killAll)

const KEY = 'sk_test_sandbox_default_key'

async function tailing(baseUrl: string, args: string[] = []): Promise<CliProcess> {
  const proc = launch(['tail', '--base-url', baseUrl, ...args])
  await lineOf(proc, (line) => (line === 'Ready' ? line : undefined))
  return proc
}
const api = (base: string, method: string, path: string, body?: object) =>
  fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: body && JSON.stringify(body) })
const untilLine = (proc: CliProcess, pattern: RegExp) => lineOf(proc, (line) => (pattern.test(line) ? line : undefined))

describe('wallet-sandbox tail', () => {
  it('prints each /v1 request live, oldest first: time, method, path, status, duration, request id, shortened key', async () => {
    const sandbox = await startCli(['--clock', 'manual', '--rate-limit', '0'])
    await api(sandbox.ready.url, 'GET', '/wallets?limit=1')
    const proc = await tailing(sandbox.ready.base_url)
    const first = await api(sandbox.ready.url, 'GET', '/wallets?limit=2')
    const second = await api(sandbox.ready.url, 'GET', '/payments/pay_missing')
    await untilLine(proc, /pay_missing/)
    expect(proc.stdout().split('\n').filter(Boolean)).toEqual([
      'Ready',
      expect.stringMatching(new RegExp(`^00:00:00\\.000 GET +/v1/wallets\\?limit=2 200 \\d+\\.\\dms ${first.headers.get('x-request-id')} sk_test_…_key$`)),
      expect.stringMatching(new RegExp(`^00:00:00\\.000 GET +/v1/payments/pay_missing 404 \\d+\\.\\dms ${second.headers.get('x-request-id')} sk_test_…_key$`)),
    ])
    proc.child.kill('SIGINT')
    expect(await proc.exited).toEqual({ code: 0, signal: null })
  })

  it('shows only the answers --status names, and the bodies with --verbose', async () => {
    const sandbox = await startCli(['--clock', 'manual', '--rate-limit', '0'])
    const proc = await tailing(sandbox.ready.base_url, ['--status', '4xx', '--verbose'])
    await api(sandbox.ready.url, 'GET', '/wallets?limit=1')
    await api(sandbox.ready.url, 'POST', '/wallets', { name: 'x', currency: 'DOGE', network: 'polygon' })
    await untilLine(proc, /^ {2}< /)
    const lines = proc.stdout().split('\n').filter(Boolean)
    expect(lines).toHaveLength(4)
    expect(lines[1]).toMatch(/ POST +\/v1\/wallets 400 /)
    expect(lines[2]).toBe('  > {"name":"x","currency":"DOGE","network":"polygon"}')
    expect(JSON.parse(lines[3]!.slice(4)).error.param).toBe('currency')
  })

  it('refuses a --status it cannot read', async () => {
    const sandbox = await startCli()
    const { code, stderr } = await runToExit(['tail', '--status', '4xx,teapot', '--base-url', sandbox.ready.base_url])
    expect(code).toBe(1)
    expect(stderr).toBe('wallet-sandbox tail: --status takes classes and codes such as 4xx,5xx or 404,429; got "teapot"\n')
  })

  it('says that a sandbox started with --request-log-limit 0 keeps no requests, and exits 1', async () => {
    const sandbox = await startCli(['--request-log-limit', '0'])
    const { code, stderr } = await runToExit(['tail', '--base-url', sandbox.ready.base_url])
    expect(code).toBe(1)
    expect(stderr).toMatch(/^wallet-sandbox tail: The sandbox keeps no requests \(--request-log-limit 0\).*\(request_log_disabled\)\n$/)
  })

  it('survives a restart of the sandbox: says so, and prints the new sandbox\'s requests, each once', async () => {
    const flags = ['--clock', 'manual', '--rate-limit', '0']
    const first = await startCli(flags)
    const { port, base_url: baseUrl, url } = first.ready
    const proc = await tailing(baseUrl)
    await api(url, 'GET', '/wallets?limit=1')
    await untilLine(proc, /limit=1 /)
    first.child.kill('SIGTERM')
    await first.exited
    await lineOf(proc, (line) => (line.includes('reconnecting') ? line : undefined), { stream: 'stderr' })
    await startCli([...flags, '--port', String(port)])
    await api(url, 'GET', '/wallets?limit=2')
    await untilLine(proc, /limit=2 /)
    expect(proc.stderr()).toMatch(new RegExp(`lost the sandbox at ${baseUrl} \\(.*\\); reconnecting…\\nreconnected to ${baseUrl} \\(restarted: its logs begin again\\)\\n`))
    expect(proc.stdout().split('\n').filter((line) => line.includes('/v1/wallets'))).toEqual([expect.stringContaining('limit=1 '), expect.stringContaining('limit=2 ')])
  }, 60_000)
})
