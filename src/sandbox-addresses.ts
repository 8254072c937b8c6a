import type { Sandbox } from './sandbox.js'

/** Where a listening sandbox is reached, as the CLI's banner, ready line and `exec` and `startSandbox()` give it. */
export interface SandboxAddresses {
  /** The REST base URL with `/v1`, what an SDK takes as its base URL. */
  url: string
  /** The address without `/v1`: where `/_sandbox` lives. */
  baseUrl: string
  /** The WebSocket stream. */
  streamUrl: string
  /** The default account's secret key. */
  apiKey: string
  /** `--control-token`, or null when the control API needs none. */
  controlToken: string | null
  port: number
}

export function addressesOf(sandbox: Pick<Sandbox, 'config' | 'fixtures'>, bound: { url: string; port: number }): SandboxAddresses {
  // A wildcard bind (0.0.0.0 in a container) is reached through the loopback address.
  const baseUrl = bound.url.replace('//0.0.0.0:', '//127.0.0.1:').replace('//[::]:', '//[::1]:')
  return {
    url: `${baseUrl}/v1`,
    baseUrl,
    streamUrl: `${baseUrl.replace(/^http/, 'ws')}/v1/stream`,
    apiKey: sandbox.fixtures.accounts.default_account.keys.find((key) => key.type === 'secret')?.key ?? '',
    controlToken: sandbox.config.controlToken ?? null,
    port: bound.port,
  }
}
