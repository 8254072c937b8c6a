/**
 * `wallet-sandbox/testcontainers`: the sandbox's Docker image for Node test suites through
 * Testcontainers (an optional peer dependency: install `testcontainers` to use this entry).
 */
export { StartedWalletSandboxContainer, WalletSandboxContainer } from './wallet-sandbox-container.js'
export { DEFAULT_IMAGE, SANDBOX_PORT, sandboxEnvironment, type WalletSandboxContainerOptions } from './container-environment.js'
export { ConfigError } from '../config.js'
