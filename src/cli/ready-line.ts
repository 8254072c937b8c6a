import type { SandboxAddresses } from '../sandbox-addresses.js'
import { VERSION } from '../version.js'

/**
 * What a program that starts the CLI reads to use it (CONTRACT.md section 20): the ready line that
 * `--ready-json` writes first on stdout, and the variables `exec` gives its command.
 */

export interface ReadyLine {
  ready: true
  url: string
  base_url: string
  stream_url: string
  api_key: string
  control_token: string | null
  port: number
  pid: number
  version: string
}

export const readyLine = (addresses: SandboxAddresses): ReadyLine => ({
  ready: true,
  url: addresses.url,
  base_url: addresses.baseUrl,
  stream_url: addresses.streamUrl,
  api_key: addresses.apiKey,
  control_token: addresses.controlToken,
  port: addresses.port,
  pid: process.pid,
  version: VERSION,
})

/** The environment of a sandbox in use. Outputs: the CLI reads none of them as a setting (the control token's is the same value either way). */
export function sandboxEnvironment(addresses: SandboxAddresses): Record<string, string> {
  return {
    WALLET_SANDBOX_URL: addresses.url,
    WALLET_SANDBOX_BASE_URL: addresses.baseUrl,
    WALLET_SANDBOX_STREAM_URL: addresses.streamUrl,
    WALLET_SANDBOX_API_KEY: addresses.apiKey,
    ...(addresses.controlToken === null ? {} : { WALLET_SANDBOX_CONTROL_TOKEN: addresses.controlToken }),
  }
}
