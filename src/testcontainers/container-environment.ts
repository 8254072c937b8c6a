import { ConfigError, envName, loadConfig, type ConfigKey, type SettingNames } from '../config.js'
import { toFlags, type SandboxOptions } from '../sandbox-options.js'

/** The port the image listens on inside the container (its WALLET_SANDBOX_PORT); Testcontainers maps it to a free host port. */
export const SANDBOX_PORT = 4400
/** The image `docker build -t wallet-sandbox .` makes. */
export const DEFAULT_IMAGE = 'wallet-sandbox:latest'

/** Every setting but the address: the container listens on 0.0.0.0:4400 and Testcontainers picks the host's port. */
export type WalletSandboxContainerOptions = Omit<SandboxOptions, 'port' | 'host'>

const OPTION_NAMES: SettingNames = { title: 'Invalid WalletSandboxContainer settings', name: (key) => key }

/**
 * The `WALLET_SANDBOX_*` variables that configure the image as `options` say (the image takes no
 * flags, like a CI service container). The settings are checked here, before a container starts,
 * with the errors `startSandbox()` gives.
 */
export function sandboxEnvironment(options: WalletSandboxContainerOptions): Record<string, string> {
  const placed = (['port', 'host'] as const).filter((key) => key in options)
  if (placed.length > 0) {
    throw new ConfigError(`WalletSandboxContainer sets ${placed.join(' and ')} itself: the sandbox listens on 0.0.0.0:${SANDBOX_PORT} in the container, and the started container's url has the host port Testcontainers mapped.`)
  }
  const flags = toFlags(options, 'WalletSandboxContainer')
  loadConfig({ flags }, OPTION_NAMES)
  const environment: Record<string, string> = {}
  for (const [key, value] of Object.entries(flags) as Array<[ConfigKey, unknown]>) {
    if (value !== undefined) environment[envName(key)] = String(value)
  }
  return environment
}
