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
const api = (base: string, method: string, path: string, body?: object, key = KEY) =>
  fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body && JSON.stringify(body) })
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

  it('with --api-key (or WALLET_SANDBOX_API_KEY), shows only the requests of that key\'s account, a key used by no request yet too', async () => {
    const sandbox = await startCli(['--clock', 'manual', '--rate-limit', '0'])
    const mine = 'sk_test_tail_mine_0001'
    const other = 'sk_test_tail_other_0001'
    const byFlag = await tailing(sandbox.ready.base_url, ['--api-key', mine])
    const byVariable = launch(['tail', '--base-url', sandbox.ready.base_url], { env: { WALLET_SANDBOX_API_KEY: mine } })
    await lineOf(byVariable, (line) => (line === 'Ready' ? line : undefined))
    const everyone = await tailing(sandbox.ready.base_url)
    await api(sandbox.ready.url, 'GET', '/wallets?limit=3', undefined, other)
    await api(sandbox.ready.url, 'GET', '/wallets?limit=4', undefined, mine)
    await api(sandbox.ready.url, 'GET', '/wallets?limit=5', undefined, KEY)
    await api(sandbox.ready.url, 'GET', '/wallets?limit=6', undefined, mine)
    for (const proc of [byFlag, byVariable, everyone]) await untilLine(proc, /limit=6 /)
    const limits = (proc: CliProcess) => proc.stdout().split('\n').filter((line) => line.includes('/v1/')).map((line) => /limit=(\d)/.exec(line)![1])
    expect(limits(byFlag)).toEqual(['4', '6'])
    expect(limits(byVariable)).toEqual(['4', '6'])
    expect(limits(everyone)).toEqual(['3', '4', '5', '6'])
  })

  it('with --json, writes each request as one JSON object a line and nothing else on stdout; --method and --path filter', async () => {
    const sandbox = await startCli(['--clock', 'manual', '--rate-limit', '0'])
    const proc = launch(['tail', '--base-url', sandbox.ready.base_url, '--json', '--method', 'GET', '--path', '/v1/payments/{id},/v1/wallets'])
    await lineOf(proc, (line) => (line === 'Ready' ? line : undefined), { stream: 'stderr' })
    await api(sandbox.ready.url, 'GET', '/wallets')
    await api(sandbox.ready.url, 'POST', '/wallets', { name: 'x', currency: 'DOGE', network: 'polygon' })
    await api(sandbox.ready.url, 'GET', '/wallets/wal_missing')
    await api(sandbox.ready.url, 'GET', '/payments/pay_missing')
    await lineOf(proc, (line) => (line.includes('pay_missing') ? line : undefined))
    const entries = proc.stdout().split('\n').filter(Boolean).map((line) => JSON.parse(line) as { method: string; path: string; status: number; id: string; response_body: string })
    expect(entries.map(({ method, path, status }) => `${method} ${path} ${status}`)).toEqual(['GET /v1/wallets 200', 'GET /v1/payments/pay_missing 404'])
    expect(entries[1]!.id).toMatch(/^req_/)
    expect(JSON.parse(entries[1]!.response_body).error.code).toBe('resource_missing')
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
