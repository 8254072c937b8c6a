import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SandboxControlError } from '../../src/client/control-client.js'
import { StartedWalletSandboxContainer, WalletSandboxContainer } from '../../src/testcontainers/index.js'

/**
 * The Testcontainers module against a real container engine (`npm run test:container`, not part of
 * `npm test`): it needs a Docker-compatible socket (DOCKER_HOST) and the image built beforehand,
 * `SANDBOX_TEST_IMAGE` (default `wallet-sandbox:latest`). See docs/testcontainers.md.
 */

const IMAGE = process.env.SANDBOX_TEST_IMAGE || 'wallet-sandbox:latest'
const EVM = '0x52908400098527886E0F7030069857D2E4169EE7'
let sandbox: StartedWalletSandboxContainer

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${sandbox.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${sandbox.apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, body: await res.json() }
}

beforeAll(async () => {
  sandbox = await new WalletSandboxContainer(IMAGE)
    .withSettle('manual')
    .withSeed('container-test')
    .withControlToken('ci-token')
    .withSandboxSettings({ clock: 'manual', rateLimit: 0, dataFile: '/data/ledger.json' })
    .start()
}, 180_000)

afterAll(async () => {
  await sandbox?.stop()
}, 60_000)

describe('WalletSandboxContainer, started', () => {
  it('is healthy, and configured by its variables alone', async () => {
    expect(await sandbox.control.health()).toMatchObject({ status: 'ok', version: expect.any(String) })
    expect(await sandbox.control.request('GET', '/config')).toMatchObject({
      host: '0.0.0.0', port: 4400, settle: 'manual', seed: 'container-test', clock: 'manual', rateLimit: 0, dataFile: '/data/ledger.json', controlToken: '********',
    })
    expect(sandbox.url).toMatch(/^http:\/\/[^/]+:\d+\/v1$/)
  })

  it('knows the default API key, and its control client sends the control token', async () => {
    expect(sandbox.apiKey).toBe('sk_test_sandbox_default_key')
    const without = await fetch(`${sandbox.baseUrl}/_sandbox/clock`)
    expect([without.status, ((await without.json()) as { error: { code: string } }).error.code]).toEqual([401, 'control_token_invalid'])
    expect((await sandbox.control.advanceClock(1000)).now).toBe('2026-01-01T00:00:01.000Z')
  })

  it('serves the API: a payment waits under manual settle until the control client completes it, and survives a restart', async () => {
    const wallets = await api('GET', '/wallets?type=institutional&network=polygon&currency=USDC')
    expect(wallets.status).toBe(200)
    const created = await api('POST', '/payments', { amount: '12.5', currency: 'USDC', source_wallet: wallets.body.data[0].id, recipient: EVM })
    expect([created.status, created.body.data.status]).toEqual([201, 'pending'])
    expect((await sandbox.control.completePayment(created.body.data.id)).status).toBe('completed')
    await expect(sandbox.control.completePayment(created.body.data.id)).rejects.toThrow(SandboxControlError)

    await sandbox.restart()
    const after = await api('GET', `/payments/${created.body.data.id}`)
    expect([after.status, after.body.data.status]).toEqual([200, 'completed'])
  }, 120_000)
})
