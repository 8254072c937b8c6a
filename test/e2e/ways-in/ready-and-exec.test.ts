import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { VERSION } from '../../../src/version.js'
import { BIN, buildIfNeeded, cleanEnv, killAll, launch, lineOf, ROOT, runToExit } from '../../helpers/cli-process.js'

/** The language-neutral ways in (CONTRACT.md section 20): the ready line, the variables and `exec`. */

let dir: string
beforeAll(() => {
  buildIfNeeded()
  dir = mkdtempSync(join(tmpdir(), 'wallet-sandbox-exec-'))
}, 180_000)
afterEach(killAll)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A node one-liner as exec's command: `node -e <script>`. */
const node = (script: string) => [process.execPath, '-e', script]

describe('--ready-json', () => {
  it('writes one JSON line first on stdout once listening, with the port --port 0 picked', async () => {
    const proc = launch(['--port', '0', '--ready-json', '--log-format', 'json'])
    const ready = await lineOf(proc, (line) => JSON.parse(line))
    expect(proc.stdout().split('\n')[0]).toBe(JSON.stringify(ready))
    const base = `http://127.0.0.1:${ready.port}`
    expect(ready).toEqual({
      ready: true, url: `${base}/v1`, base_url: base, stream_url: `ws://127.0.0.1:${ready.port}/v1/stream`,
      api_key: 'sk_test_sandbox_default_key', control_token: null, port: expect.any(Number), pid: proc.child.pid, version: VERSION,
    })
    expect(ready.port).toBeGreaterThan(0)
    const health = await fetch(`${ready.base_url}/_sandbox/health`)
    expect(health.headers.get('wallet-sandbox-version')).toBe(VERSION)
    await fetch(`${ready.url}/wallets`, { headers: { authorization: `Bearer ${ready.api_key}` } })
    // The request log follows the ready line (the API's requests: the control API's are left out); the banner is left out.
    const logged = await lineOf(proc, (line) => (line.includes('"message":"request"') ? line : undefined))
    expect(JSON.parse(logged)).toMatchObject({ message: 'request', path: '/v1/wallets', status: 200 })
    expect(proc.stdout()).not.toContain('listening on')
  })

  it('gives the control token when one is set, and writes the line with --quiet too', async () => {
    const proc = launch(['--port', '0', '--ready-json', '--quiet', '--control-token', 'tok'])
    expect(await lineOf(proc, (line) => JSON.parse(line))).toMatchObject({ ready: true, control_token: 'tok' })
  })

  it('reads none of the variables it gives as a setting', async () => {
    const env = { WALLET_SANDBOX_URL: 'http://elsewhere:1/v1', WALLET_SANDBOX_BASE_URL: 'http://elsewhere:1', WALLET_SANDBOX_STREAM_URL: 'ws://elsewhere:1/v1/stream', WALLET_SANDBOX_API_KEY: 'sk_test_not_the_default' }
    const ready = await lineOf(launch(['--port', '0', '--ready-json'], { env }), (line) => JSON.parse(line))
    expect(ready).toMatchObject({ base_url: `http://127.0.0.1:${ready.port}`, api_key: 'sk_test_sandbox_default_key' })
  })
})

describe('wallet-sandbox exec', () => {
  it('runs the command with the variables of a sandbox that answers, and exits with its exit code', async () => {
    const script = `
      const base = process.env.WALLET_SANDBOX_BASE_URL
      fetch(process.env.WALLET_SANDBOX_URL + '/wallets', { headers: { authorization: 'Bearer ' + process.env.WALLET_SANDBOX_API_KEY } })
        .then((res) => { console.log(JSON.stringify({ status: res.status, base, url: process.env.WALLET_SANDBOX_URL, stream: process.env.WALLET_SANDBOX_STREAM_URL, token: process.env.WALLET_SANDBOX_CONTROL_TOKEN ?? null })); process.exit(3) })`
    const { code, stdout } = await runToExit(['exec', '--', ...node(script)])
    expect(code).toBe(3)
    const seen = JSON.parse(stdout)
    expect(seen).toEqual({ status: 200, base: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), url: `${seen.base}/v1`, stream: `${seen.base.replace('http', 'ws')}/v1/stream`, token: null })
  })

  it('runs the README\'s example as printed', async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
    const [line] = /^npx wallet-sandbox exec -- .*$/m.exec(readme) ?? []
    expect(line).toBeDefined()
    const { stdout } = await promisify(execFile)('bash', ['-c', line!.replace(/^npx wallet-sandbox/, `${process.execPath} ${BIN}`)], { cwd: ROOT, env: cleanEnv() })
    expect(JSON.parse(stdout)).toMatchObject({ data: [{ object: 'wallet', currency: 'USDC' }], pagination: { limit: 1 } })
  })

  it('works for a Python command as for any other', async () => {
    const script = 'import os, sys, urllib.request; r = urllib.request.urlopen(os.environ["WALLET_SANDBOX_BASE_URL"] + "/_sandbox/health"); print(r.status, r.headers["Wallet-Sandbox-Version"]); sys.exit(5)'
    const { code, stdout } = await runToExit(['exec', '--', 'python3', '-c', script])
    expect({ code, stdout }).toEqual({ code: 5, stdout: `200 ${VERSION}\n` })
  })

  it('passes the control token on, and keeps the sandbox log off the command\'s stdout', async () => {
    const script = `
      fetch(process.env.WALLET_SANDBOX_BASE_URL + '/_sandbox/clock', { headers: { authorization: 'Bearer ' + process.env.WALLET_SANDBOX_CONTROL_TOKEN } })
        .then((res) => console.log('clock', res.status))
        .then(() => fetch(process.env.WALLET_SANDBOX_URL + '/wallets', { headers: { authorization: 'Bearer ' + process.env.WALLET_SANDBOX_API_KEY } }))`
    const { code, stdout, stderr } = await runToExit(['exec', '--no-quiet', '--log-format', 'json', '--control-token', 'tok', '--', ...node(script)])
    expect({ code, stdout }).toEqual({ code: 0, stdout: 'clock 200\n' })
    expect(stderr).toContain('"path":"/v1/wallets"')
    expect(stderr).not.toContain('"path":"/_sandbox/clock"')
  })

  it('exits 128 + n when the command dies of signal n', async () => {
    expect((await runToExit(['exec', '--', ...node("process.kill(process.pid, 'SIGTERM')")])).code).toBe(143)
    expect((await runToExit(['exec', '--', 'sh', '-c', 'kill -KILL $$'])).code).toBe(137)
  })

  it('hands SIGTERM and SIGINT to the command first, and exits as it does', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const proc = launch(['exec', '--', ...node(`process.on('${signal}', () => { console.log('got ${signal}'); process.exit(7) }); console.log('ready'); setInterval(() => {}, 1000)`)])
      await lineOf(proc, (line) => (line === 'ready' ? line : undefined))
      proc.child.kill(signal)
      expect(await proc.exited).toEqual({ code: 7, signal: null })
      expect(proc.stdout()).toBe(`ready\ngot ${signal}\n`)
    }
  })

  it('flushes a data file before it exits', async () => {
    const file = join(dir, 'ledger.jsonl')
    const script = `
      const key = { authorization: 'Bearer ' + process.env.WALLET_SANDBOX_API_KEY, 'content-type': 'application/json' }
      const url = process.env.WALLET_SANDBOX_URL
      fetch(url + '/wallets', { method: 'POST', headers: key, body: JSON.stringify({ name: 'kept', currency: 'USDC', network: 'solana' }) })
        .then((res) => res.json()).then((body) => console.log(body.data.id))`
    const { code, stdout } = await runToExit(['exec', '--data-file', file, '--durability', 'batched', '--', ...node(script)])
    expect(code).toBe(0)
    const walletId = stdout.trim()
    const check = `fetch(process.env.WALLET_SANDBOX_URL + '/wallets/${walletId}', { headers: { authorization: 'Bearer ' + process.env.WALLET_SANDBOX_API_KEY } }).then((res) => res.json()).then((body) => console.log(body.data.name))`
    expect((await runToExit(['exec', '--data-file', file, '--', ...node(check)])).stdout).toBe('kept\n')
  })

  it('runs nothing and exits 1 with the reason when the sandbox cannot start', async () => {
    const blocker: Server = createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    const port = (blocker.address() as { port: number }).port
    const marker = join(dir, 'ran')
    const { code, stdout, stderr } = await runToExit(['exec', '--port', String(port), '--', ...node(`require('fs').writeFileSync(${JSON.stringify(marker)}, 'x')`)])
    blocker.close()
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' })
    expect(stderr).toContain(`the sandbox cannot listen, so ${process.execPath} was not run: port ${port} on 127.0.0.1 is already in use`)
    expect(existsSync(marker)).toBe(false)
  })

  it('says so, exit 127, for a command that does not exist', async () => {
    const { code, stderr } = await runToExit(['exec', '--', 'no-such-command-here'])
    expect(code).toBe(127)
    expect(stderr).toContain('cannot run no-such-command-here: no such command')
  })
})
