import { createServer } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { envName } from '../../src/config.js'
import { checkHealth, healthCheckUrl } from '../../src/health-check.js'
import { startSandbox, type RunningSandbox } from '../../src/public.js'

/** The container's health check, in-process (test/e2e/health-check.test.ts runs bin/health-check.js itself). */

const portOf = (sandbox: RunningSandbox) => new URL(sandbox.baseUrl).port

/** A port nothing listens on: bound once, then released. */
async function closedPort(): Promise<string> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return String(port)
}

describe('healthCheckUrl', () => {
  it('reads the variables the server reads for --host and --port', () => {
    expect(healthCheckUrl({ [envName('port')]: '5123', [envName('host')]: '10.1.2.3' })).toBe('http://10.1.2.3:5123/_sandbox/health')
  })

  it.each([
    [{}, 'http://127.0.0.1:4400/_sandbox/health'],
    [{ WALLET_SANDBOX_PORT: '', WALLET_SANDBOX_HOST: '' }, 'http://127.0.0.1:4400/_sandbox/health'],
    [{ WALLET_SANDBOX_HOST: '0.0.0.0' }, 'http://127.0.0.1:4400/_sandbox/health'],
    [{ WALLET_SANDBOX_HOST: '::', WALLET_SANDBOX_PORT: '8080' }, 'http://[::1]:8080/_sandbox/health'],
    [{ WALLET_SANDBOX_HOST: 'fd00::5' }, 'http://[fd00::5]:4400/_sandbox/health'],
    [{ WALLET_SANDBOX_HOST: 'localhost' }, 'http://localhost:4400/_sandbox/health'],
  ])('with %j asks %s', (env, url) => {
    expect(healthCheckUrl(env)).toBe(url)
  })
})

describe('checkHealth', () => {
  let sandbox: RunningSandbox | undefined
  afterEach(async () => {
    await sandbox?.close()
    sandbox = undefined
  })

  it('is healthy on a sandbox that requires a control token, without sending it', async () => {
    sandbox = await startSandbox({ controlToken: 'ci-secret' })
    const result = await checkHealth({ WALLET_SANDBOX_PORT: portOf(sandbox) })
    expect(result).toEqual({ healthy: true, message: expect.stringMatching(/^wallet-sandbox \S+ is healthy at http:\/\/127\.0\.0\.1:\d+\/_sandbox\/health$/) })
    // The token does guard the rest of the control API.
    expect((await fetch(`${sandbox.baseUrl}/_sandbox/config`)).status).toBe(401)
  })

  it('follows a wildcard IPv6 bind to ::1', async () => {
    sandbox = await startSandbox({ host: '::' })
    expect((await checkHealth({ WALLET_SANDBOX_HOST: '::', WALLET_SANDBOX_PORT: portOf(sandbox) })).healthy).toBe(true)
  })

  it('is unhealthy, naming the address, when nothing listens there', async () => {
    const port = await closedPort()
    expect(await checkHealth({ WALLET_SANDBOX_PORT: port })).toEqual({ healthy: false, message: `no answer from http://127.0.0.1:${port}/_sandbox/health (ECONNREFUSED)` })
  })

  it('is unhealthy when something else answers on the port', async () => {
    const fake = (async () => new Response('<html>', { status: 404 })) as typeof fetch
    expect(await checkHealth({}, { fetch: fake })).toEqual({ healthy: false, message: 'http://127.0.0.1:4400/_sandbox/health answered 404' })
  })

  it('gives up after its timeout when the server does not answer', async () => {
    const hanging = ((_url: string, init: RequestInit) => new Promise((_resolve, reject) => init.signal!.addEventListener('abort', () => reject(init.signal!.reason)))) as typeof fetch
    expect(await checkHealth({}, { fetch: hanging, timeoutMs: 1 })).toEqual({ healthy: false, message: 'no answer from http://127.0.0.1:4400/_sandbox/health (TimeoutError)' })
  })
})
