import { createApiRequest, type ApiRequest } from '../../client/api-request.js'
import { createControlClient, type ControlClient } from '../../client/control-client.js'
import { VERSION, VERSION_HEADER } from '../../version.js'
import { DEFAULT_API_KEY, DEFAULT_BASE_URL } from './defaults.js'

/**
 * Which sandbox a terminal command talks to (CONTRACT.md section 21): `--base-url`, else
 * `WALLET_SANDBOX_BASE_URL`, else the default address; the key and the control token likewise.
 * The commands are clients of a running sandbox, like a user's code: HTTP only.
 */


export interface Target {
  baseUrl: string
  /** Where `baseUrl` came from, for a message that says where it looked. */
  from: 'flag' | 'environment' | 'default'
  apiKey: string
  /** Whether a key was named (`--api-key` or `WALLET_SANDBOX_API_KEY`) rather than the default taken. */
  keyNamed: boolean
  controlToken: string | undefined
}

/** A failure the command reports in one line on stderr, exit code 1. */
export class TerminalError extends Error {
  override name = 'TerminalError'
}

export function resolveTarget(flags: { baseUrl?: string; apiKey?: string; controlToken?: string }, env: Record<string, string | undefined>): Target {
  const baseUrl = flags.baseUrl ?? env.WALLET_SANDBOX_BASE_URL
  return {
    baseUrl: (baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, ''),
    from: flags.baseUrl !== undefined ? 'flag' : baseUrl !== undefined ? 'environment' : 'default',
    apiKey: flags.apiKey ?? env.WALLET_SANDBOX_API_KEY ?? DEFAULT_API_KEY,
    keyNamed: (flags.apiKey ?? env.WALLET_SANDBOX_API_KEY) !== undefined,
    controlToken: flags.controlToken ?? env.WALLET_SANDBOX_CONTROL_TOKEN,
  }
}

export interface Connection {
  target: Target
  api: ApiRequest
  control: ControlClient
  /** The sandbox's `started_at` (health): another one after a lost connection means it restarted, its logs new. */
  startedAt: string | undefined
}

const WHERE = { flag: '--base-url', environment: 'WALLET_SANDBOX_BASE_URL', default: 'the default address; --base-url or WALLET_SANDBOX_BASE_URL name another' }

/** Checks that a compatible sandbox answers there, and hands back its clients. */
export async function connect(target: Target): Promise<Connection> {
  let res: Response
  try {
    res = await fetch(`${target.baseUrl}/_sandbox/health`, { signal: AbortSignal.timeout(5000) })
  } catch (error) {
    throw new TerminalError(`no sandbox at ${target.baseUrl} (${WHERE[target.from]}): ${reason(error)}. Start one with \`npx wallet-sandbox\`, or point --base-url at yours.`)
  }
  const version = res.headers.get(VERSION_HEADER)
  if (!res.ok || version === null) {
    throw new TerminalError(`${target.baseUrl} (${WHERE[target.from]}) answered ${res.status} without ${VERSION_HEADER}: that is not a wallet-sandbox. Start one with \`npx wallet-sandbox\`, or point --base-url at yours.`)
  }
  if (!compatible(version)) {
    throw new TerminalError(`the sandbox at ${target.baseUrl} is version ${version}; this command is ${VERSION} and needs ${VERSION.split('.').slice(0, 2).join('.')}.x. Use the wallet-sandbox of the same version (npx wallet-sandbox@${version}).`)
  }
  return {
    target,
    api: createApiRequest({ baseUrl: target.baseUrl, apiKey: target.apiKey }),
    control: createControlClient({ baseUrl: target.baseUrl, controlToken: target.controlToken }),
    startedAt: await startedAtOf(res),
  }
}

/** `started_at` of a health answer (`{data: {…}}`), if it has one. */
export async function startedAtOf(res: Response): Promise<string | undefined> {
  try {
    const body = (await res.json()) as { data?: { started_at?: unknown } } | null
    return typeof body?.data?.started_at === 'string' ? body.data.started_at : undefined
  } catch {
    return undefined
  }
}

/** Same major and minor version: the contract these commands were written against. */
const compatible = (version: string) => version.split('.').slice(0, 2).join('.') === VERSION.split('.').slice(0, 2).join('.')

/** What went wrong with a connection, in its own words: `connect ECONNREFUSED 127.0.0.1:4400`. */
export function reason(error: unknown): string {
  const cause = (error as { cause?: { message?: string; code?: string } }).cause
  return cause?.message ?? cause?.code ?? (error as Error).message
}
