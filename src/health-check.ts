/**
 * The container's health check (`node bin/health-check.js`, the image's HEALTHCHECK and the
 * `--health-cmd` of a CI service): asks `GET /_sandbox/health`, which needs no control token, on the
 * address the sandbox listens on. Images without curl still have node and its fetch.
 *
 * It runs every few seconds beside the server, so it imports nothing: not config.ts (zod, the
 * fixtures), only the two variable names, which test/unit/health-check.test.ts ties to envName().
 */

export const HEALTH_PATH = '/_sandbox/health'
const DEFAULT_PORT = '4400'

/** Where the sandbox of this environment answers: `WALLET_SANDBOX_HOST` and `WALLET_SANDBOX_PORT`, as the server reads them. */
export function healthCheckUrl(env: NodeJS.ProcessEnv): string {
  const port = env.WALLET_SANDBOX_PORT || DEFAULT_PORT
  return `http://${probeHost(env.WALLET_SANDBOX_HOST || '127.0.0.1')}:${port}${HEALTH_PATH}`
}

/** A wildcard bind is reached through the loopback address of its family; an IPv6 literal needs brackets. */
function probeHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1'
  if (host === '::' || host === '[::]') return '[::1]'
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host
}

export interface HealthCheckResult {
  healthy: boolean
  /** One line for `docker inspect`'s health log. */
  message: string
}

/** Healthy when the endpoint answers 200 with `status: "ok"` within `timeoutMs`. */
export async function checkHealth(env: NodeJS.ProcessEnv, options: { timeoutMs?: number; fetch?: typeof fetch } = {}): Promise<HealthCheckResult> {
  const url = healthCheckUrl(env)
  try {
    const res = await (options.fetch ?? fetch)(url, { signal: AbortSignal.timeout(options.timeoutMs ?? 5000) })
    const body = (await res.json().catch(() => undefined)) as { data?: { status?: unknown; version?: unknown } } | undefined
    if (res.status === 200 && body?.data?.status === 'ok') return { healthy: true, message: `wallet-sandbox ${String(body.data.version)} is healthy at ${url}` }
    return { healthy: false, message: `${url} answered ${res.status}${body?.data?.status ? ` with status ${String(body.data.status)}` : ''}` }
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name
    return { healthy: false, message: `no answer from ${url} (${cause})` }
  }
}
