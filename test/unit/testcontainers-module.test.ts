import { describe, expect, it } from 'vitest'
import type { StartedTestContainer } from 'testcontainers'
import { ConfigError, loadConfig } from '../../src/config.js'
import { toFlags } from '../../src/sandbox-options.js'
import { DEFAULT_IMAGE, SANDBOX_PORT, sandboxEnvironment, StartedWalletSandboxContainer, WalletSandboxContainer, type WalletSandboxContainerOptions } from '../../src/testcontainers/index.js'

/**
 * The Testcontainers module without a container engine: settings → variables → the configuration the
 * container starts with. `npm run test:container` (test/container/) starts it for real.
 */

/** What GenericContainer keeps for the container it creates (protected fields, read here only). */
interface ContainerInternals {
  imageName: { string: string }
  environment: Record<string, string>
  createOpts: { Env?: string[] }
  exposedPorts: unknown[]
  waitStrategy: { path: string; port: number; predicates: unknown[] }
  startupTimeoutMs?: number
}
const internals = (container: WalletSandboxContainer) => container as unknown as ContainerInternals

describe('sandboxEnvironment', () => {
  it('turns settings into WALLET_SANDBOX_ variables, in the forms the flags take', () => {
    expect(sandboxEnvironment({
      settle: 'manual', seed: 'ci', controlToken: 'ci-token', rateLimit: 0, lenient: true, dataFile: '/data/ledger.json',
      latency: [20, 80], webhookRetries: [1000, 5000], clockStart: new Date('2026-03-01T00:00:00.000Z'),
    })).toEqual({
      WALLET_SANDBOX_SETTLE: 'manual',
      WALLET_SANDBOX_SEED: 'ci',
      WALLET_SANDBOX_CONTROL_TOKEN: 'ci-token',
      WALLET_SANDBOX_RATE_LIMIT: '0',
      WALLET_SANDBOX_LENIENT: 'true',
      WALLET_SANDBOX_DATA_FILE: '/data/ledger.json',
      WALLET_SANDBOX_LATENCY: '20-80',
      WALLET_SANDBOX_WEBHOOK_RETRIES: '1000ms,5000ms',
      WALLET_SANDBOX_CLOCK_START: '2026-03-01T00:00:00.000Z',
    })
  })

  it.each<[string, WalletSandboxContainerOptions]>([
    ['switches off', { lenient: false, quiet: false, whitelistEnforced: true }],
    ['lists and ranges', { latency: 50, webhookRetries: [] }],
    ['strings of lists', { latency: '10-20', webhookRetries: '5s,2m' }],
    ['modes', { auth: 'strict', envelope: 'bare', clock: 'manual', durability: 'strict', errorRate: 0.25, settleDelay: 0 }],
  ])('gives the server, through its variables, the configuration startSandbox() would get (%s)', (_name, options) => {
    expect(loadConfig({ env: sandboxEnvironment(options) })).toEqual(loadConfig({ flags: toFlags(options, 'test') }))
  })

  it('refuses port and host: the container sets them', () => {
    expect(() => sandboxEnvironment({ port: 5000 } as never)).toThrow(ConfigError)
    expect(() => sandboxEnvironment({ port: 5000, host: '::' } as never)).toThrow(
      'WalletSandboxContainer sets port and host itself: the sandbox listens on 0.0.0.0:4400 in the container, and the started container\'s url has the host port Testcontainers mapped.',
    )
  })

  it('refuses a bad value or an unknown setting before any container starts, naming it', () => {
    expect(() => sandboxEnvironment({ rateLimit: -1 })).toThrow(/^Invalid WalletSandboxContainer settings:\n {2}rateLimit: /)
    expect(() => sandboxEnvironment({ settel: 'instant' } as never)).toThrow(/^Unknown WalletSandboxContainer option: settel\. The options are: port, host, seed/)
  })
})

describe('WalletSandboxContainer', () => {
  it('runs the locally built image by default, exposes 4400 and waits for the health endpoint', () => {
    const container = internals(new WalletSandboxContainer())
    expect(container.imageName.string).toBe(DEFAULT_IMAGE)
    expect(DEFAULT_IMAGE).toBe('wallet-sandbox:latest')
    expect(container.exposedPorts).toEqual([SANDBOX_PORT])
    expect(container.waitStrategy).toMatchObject({ path: '/_sandbox/health', port: 4400 })
    expect(container.waitStrategy.predicates).toHaveLength(1)
    expect(container.environment).toEqual({})
  })

  it('takes another image', () => {
    expect(internals(new WalletSandboxContainer('ghcr.io/acme/wallet-sandbox:0.1.0')).imageName.string).toBe('ghcr.io/acme/wallet-sandbox:0.1.0')
  })

  it('sets settle mode, seed, control token and any other setting as variables', () => {
    const container = new WalletSandboxContainer()
      .withSettle('instant')
      .withSeed('ci')
      .withControlToken('ci-token')
      .withSandboxSettings({ clock: 'manual', webhookRetries: 'none' })
      .withEnvironment({ TZ: 'UTC' })
    expect(internals(container).environment).toEqual({
      WALLET_SANDBOX_SETTLE: 'instant', WALLET_SANDBOX_SEED: 'ci', WALLET_SANDBOX_CONTROL_TOKEN: 'ci-token',
      WALLET_SANDBOX_CLOCK: 'manual', WALLET_SANDBOX_WEBHOOK_RETRIES: 'none', TZ: 'UTC',
    })
  })

  it('creates the container with each variable once, at its last value', () => {
    const container = new WalletSandboxContainer().withSeed('first').withSettle('manual').withSeed('second').withEnvironment({ WALLET_SANDBOX_SETTLE: 'instant' })
    expect(internals(container).createOpts.Env).toEqual(['WALLET_SANDBOX_SEED=second', 'WALLET_SANDBOX_SETTLE=instant'])
  })

  it('refuses a bad setting when it is given, not when the container starts', () => {
    const container = new WalletSandboxContainer().withSeed('ci')
    expect(() => container.withSettle('later' as never)).toThrow(/settle: Invalid option: expected one of "auto"\|"instant"\|"manual"/)
    expect(internals(container).environment).toEqual({ WALLET_SANDBOX_SEED: 'ci' })
  })
})

describe('StartedWalletSandboxContainer', () => {
  const started = (host: string) => ({ getHost: () => host, getMappedPort: (port: number) => (port === 4400 ? 32771 : 0) }) as unknown as StartedTestContainer

  it('knows its URLs from the mapped port, its API key and its control token', () => {
    const container = new StartedWalletSandboxContainer(started('localhost'), 'sk_test_sandbox_default_key', 'ci-token')
    expect([container.url, container.baseUrl, container.streamUrl]).toEqual(['http://localhost:32771/v1', 'http://localhost:32771', 'ws://localhost:32771/v1/stream'])
    expect([container.apiKey, container.controlToken]).toEqual(['sk_test_sandbox_default_key', 'ci-token'])
    expect(typeof container.control.advanceClock).toBe('function')
  })

  it('puts an IPv6 host in brackets', () => {
    expect(new StartedWalletSandboxContainer(started('::1'), 'sk_test_x_key_1234', undefined).url).toBe('http://[::1]:32771/v1')
  })
})
