import { createControlClient, SandboxControlError } from '../client/control-client.js'
import { VERSION_HEADER } from '../version.js'
import { createSide, reasonOf, type Side, type SideAnswer } from './http-side.js'
import type { Sleep } from './pacer.js'
import { httpUrl, sandboxKey, UsageError } from './usage.js'

/**
 * The two sides of a run (CONTRACT.md section 22). The local one is a sandbox the command starts for
 * itself (as `exec` does), or the running one `--local` names; either way it gets a fresh account
 * through the control API (`POST /_sandbox/keys`), unless `--local-api-key` gives one. The hosted one
 * is checked before the first step: it must answer, and take the key.
 */

/** A local sandbox this run uses: where it is, and how to let it go (stop it, when the run started it). */
export interface LocalSandbox {
  /** Without `/v1`: `http://127.0.0.1:53121`. */
  root: string
  controlToken?: string
  close(): Promise<void>
}

export interface LocalOptions {
  /** `--local`: a running sandbox, with or without `/v1`. */
  url?: string
  apiKey?: string
  controlToken?: string
  /** Starts a sandbox for this run (port 0, in memory), when `--local` names none. */
  start: () => Promise<LocalSandbox>
  rate: number
  sleep?: Sleep
}

export interface LocalSide {
  side: Side
  apiKey: string
  /** What the human output calls it. */
  description: string
  close(): Promise<void>
}

export async function openLocal(options: LocalOptions): Promise<LocalSide> {
  const apiKey = options.apiKey === undefined ? undefined : sandboxKey(options.apiKey, '--local-api-key')
  const sandbox = options.url === undefined ? await options.start() : await attach(options.url, options.controlToken)
  try {
    const key = apiKey ?? (await freshKey(sandbox))
    const side = createSide({ name: 'local', root: sandbox.root, apiKey: key, rate: options.rate, sleep: options.sleep })
    const description = options.url === undefined ? `a sandbox of its own (${sandbox.root})` : `the sandbox at ${sandbox.root}`
    return { side, apiKey: key, description, close: () => sandbox.close() }
  } catch (error) {
    await sandbox.close()
    throw error
  }
}

async function attach(url: string, controlToken: string | undefined): Promise<LocalSandbox> {
  const root = httpUrl(url, '--local').replace(/\/v1$/, '')
  let res: Response
  try {
    res = await fetch(`${root}/_sandbox/health`, { signal: AbortSignal.timeout(5000) })
  } catch (error) {
    throw new UsageError(`--local ${url}: no sandbox answers there (${reasonOf(error)})`)
  }
  await res.arrayBuffer()
  if (res.headers.get(VERSION_HEADER) === null) throw new UsageError(`--local ${url} answered ${res.status} without ${VERSION_HEADER}: that is not a wallet-sandbox`)
  return { root, controlToken, close: async () => {} }
}

/** A new account of the local sandbox, seeded from its fixtures: nothing else of the sandbox changes. */
async function freshKey(sandbox: LocalSandbox): Promise<string> {
  try {
    return (await createControlClient({ baseUrl: sandbox.root, controlToken: sandbox.controlToken }).createKey()).key
  } catch (error) {
    if (error instanceof SandboxControlError && error.status === 401) {
      throw new UsageError(`the local sandbox's control API wants its token (--control-token or WALLET_SANDBOX_CONTROL_TOKEN), or give --local-api-key`)
    }
    throw new UsageError(`the local sandbox did not make a fresh key: ${error instanceof Error ? error.message : String(error)}`)
  }
}

/** The funded wallet on each side: the one `--source-wallet` names on the hosted side, a seeded one of its currency and network locally. */
export interface Source {
  hostedId: string
  localId: string
  currency: string
  network: string
}

/**
 * Checks the hosted side answers and takes the key (a 401 or 403 stops the run, exit code 2), with
 * the source wallet when there is one, and finds its local counterpart.
 */
export async function checkSides(hosted: Side, local: Side, sourceWallet: string | undefined): Promise<Source | undefined> {
  const answer = await hosted.send(sourceWallet === undefined ? { method: 'GET', path: '/v1/wallets', query: { limit: '1' }, auth: 'key' } : { method: 'GET', path: `/v1/wallets/${encodeURIComponent(sourceWallet)}`, auth: 'key' })
  if (answer.status === 401 || answer.status === 403) throw new UsageError(`the hosted sandbox refuses the key: ${describe(answer)}`)
  if (sourceWallet !== undefined && answer.status === 404) throw new UsageError(`--source-wallet ${sourceWallet} is not a wallet of the hosted account: ${describe(answer)}`)
  if (answer.status >= 300) throw new UsageError(`the hosted sandbox answered ${describe(answer)} to its first request`)
  if (sourceWallet === undefined) return undefined
  const wallet = dataOf(answer) as { currency?: unknown; network?: unknown } | undefined
  if (typeof wallet?.currency !== 'string' || typeof wallet.network !== 'string') throw new UsageError(`--source-wallet ${sourceWallet}: the hosted answer has no currency and network`)
  const { currency, network } = wallet as { currency: string; network: string }
  const seeded = await local.send({ method: 'GET', path: '/v1/wallets', query: { type: 'institutional', currency, network, limit: '1' }, auth: 'key' })
  const localId = (dataOf(seeded) as Array<{ id?: string }> | undefined)?.[0]?.id
  if (localId === undefined) throw new UsageError(`the local sandbox has no seeded institutional wallet of ${currency} on ${network} to pay from (${describe(seeded)})`)
  return { hostedId: sourceWallet, localId, currency, network }
}

/** The resource of an answer, wrapped (`{data}`) or bare. */
const dataOf = (answer: SideAnswer): unknown => (answer.body as { data?: unknown } | null)?.data ?? answer.body

function describe(answer: SideAnswer): string {
  const error = (answer.body as { error?: { code?: string; message?: string } } | null)?.error
  return `${answer.status}${error?.code ? ` ${error.code}` : ''}${error?.message ? `: ${error.message}` : ''}`
}
