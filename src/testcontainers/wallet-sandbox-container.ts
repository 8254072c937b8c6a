import { AbstractStartedContainer, GenericContainer, Wait, type StartedTestContainer } from 'testcontainers'
import { createControlClient, type ControlClient } from '../client/control-client.js'
import { envName } from '../config.js'
import { HEALTH_PATH } from '../health-check.js'
import { DEFAULT_IMAGE, SANDBOX_PORT, sandboxEnvironment, type WalletSandboxContainerOptions } from './container-environment.js'

/**
 * The sandbox's image as a Testcontainers module: `await new WalletSandboxContainer().withSettle('instant').start()`.
 * It is configured by WALLET_SANDBOX_* variables only (as a CI service is), is ready once
 * `GET /_sandbox/health` answers 200, and the started form knows its URLs, the default API key and a
 * control client.
 */
export class WalletSandboxContainer extends GenericContainer {
  private settings: WalletSandboxContainerOptions = {}

  constructor(image = DEFAULT_IMAGE) {
    super(image)
    this.withExposedPorts(SANDBOX_PORT)
      .withWaitStrategy(Wait.forHttp(HEALTH_PATH, SANDBOX_PORT).forStatusCode(200))
      .withStartupTimeout(60_000)
  }

  /** `auto` (network delays), `instant`, or `manual` (only control calls settle). */
  withSettle(settle: NonNullable<WalletSandboxContainerOptions['settle']>): this {
    return this.withSandboxSettings({ settle })
  }

  withSeed(seed: string): this {
    return this.withSandboxSettings({ seed })
  }

  /** The control API then requires it; the started container's `control` sends it. */
  withControlToken(controlToken: string): this {
    return this.withSandboxSettings({ controlToken })
  }

  /**
   * Any setting, in `startSandbox()`'s form (`{ clock: 'manual', rateLimit: 0, webhookRetries: [1000] }`),
   * checked at once and set as its WALLET_SANDBOX_* variable (`withEnvironment` sets variables as given).
   */
  withSandboxSettings(options: WalletSandboxContainerOptions): this {
    const merged = { ...this.settings, ...options }
    const environment = sandboxEnvironment(merged)
    this.settings = merged
    return this.withEnvironment(environment)
  }

  /** Testcontainers' own, except that a variable set again replaces its value rather than being listed twice. */
  override withEnvironment(environment: Record<string, string>): this {
    super.withEnvironment(environment)
    // GenericContainer appends to the container's Env list, and with a name listed twice which value
    // a process sees is the C library's choice.
    this.createOpts.Env = Object.entries(this.environment).map(([name, value]) => `${name}=${value}`)
    return this
  }

  override async start(): Promise<StartedWalletSandboxContainer> {
    const started = await super.start()
    try {
      return new StartedWalletSandboxContainer(started, await defaultApiKey(started), this.environment[envName('controlToken')] || undefined)
    } catch (error) {
      await started.stop()
      throw error
    }
  }
}

export class StartedWalletSandboxContainer extends AbstractStartedContainer {
  constructor(
    started: StartedTestContainer,
    /** The default account's secret key, as the container's fixtures and seed give it (`sk_test_sandbox_default_key` with the shipped fixtures). */
    readonly apiKey: string,
    readonly controlToken: string | undefined,
  ) {
    super(started)
  }

  // Getters, not fields: a restart() may map the port anew.
  /** The address without `/v1`: `http://localhost:32771`. */
  get baseUrl(): string {
    const host = this.getHost().includes(':') ? `[${this.getHost()}]` : this.getHost()
    return `http://${host}:${this.getMappedPort(SANDBOX_PORT)}`
  }

  /** The REST base URL with `/v1`, what an SDK takes: `http://localhost:32771/v1`. */
  get url(): string {
    return `${this.baseUrl}/v1`
  }

  /** The WebSocket stream: `ws://localhost:32771/v1/stream`. */
  get streamUrl(): string {
    return `${this.baseUrl.replace(/^http/, 'ws')}/v1/stream`
  }

  /** A typed client of the control API (`/_sandbox`), with the control token when one is set. */
  get control(): ControlClient {
    return createControlClient({ baseUrl: this.baseUrl, controlToken: this.controlToken })
  }
}

/** Asks the image itself (`wallet-sandbox fixtures`, under the container's own variables), so custom fixtures count. */
async function defaultApiKey(container: StartedTestContainer): Promise<string> {
  const result = await container.exec(['node', 'bin/wallet-sandbox.js', 'fixtures'])
  const keys = result.exitCode === 0 ? (JSON.parse(result.stdout) as { accounts: Array<{ keys: Array<{ key: string; type: string }> }> }).accounts[0]?.keys : undefined
  const key = keys?.find((entry) => entry.type === 'secret')?.key
  if (!key) throw new Error(`WalletSandboxContainer: \`wallet-sandbox fixtures\` in the container gave no default secret key (exit ${result.exitCode}): ${result.output.slice(0, 500)}`)
  return key
}
