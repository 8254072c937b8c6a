import { readJsonAnswer } from './json-answer.js'

export interface ControlClientOptions {
  /** The sandbox address without `/v1`, e.g. `http://127.0.0.1:4400`. */
  baseUrl: string
  /** The `--control-token`, when the sandbox was started with one. */
  controlToken?: string
  /** Another fetch (a proxy, a spy); the global one by default. */
  fetch?: typeof fetch
}

/** A non-2xx answer of the control API. `code` is the API's error code (`invalid_state_transition` …). */
export class SandboxControlError extends Error {
  override name = 'SandboxControlError'
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly type: string,
    readonly param: string | undefined,
    readonly requestId: string | undefined,
  ) {
    super(message)
  }
}

/** One control request: JSON in and out, the reply's `data` (its whole body with `whole`), a SandboxControlError on anything but 2xx. */
export type ControlRequest = <T>(method: string, path: string, body?: unknown, options?: { whole?: boolean }) => Promise<T>

export function createControlRequest(options: ControlClientOptions): ControlRequest {
  const base = `${options.baseUrl.replace(/\/+$/, '')}/_sandbox`
  const doFetch = options.fetch ?? fetch

  return async function request<T>(method: string, path: string, body?: unknown, { whole = false }: { whole?: boolean } = {}): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' }
    if (options.controlToken !== undefined) headers.authorization = `Bearer ${options.controlToken}`
    if (body !== undefined) headers['content-type'] = 'application/json'
    const res = await doFetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
    const { text, payload } = await readJsonAnswer(res)
    if (!res.ok) {
      const error = payload?.error
      throw new SandboxControlError(
        `${method} /_sandbox${path} failed with ${res.status}${error?.code ? ` ${error.code}` : ''}: ${error?.message ?? text.slice(0, 200)}`,
        res.status, error?.code ?? 'unknown', error?.type ?? 'unknown', error?.param, payload?.request_id,
      )
    }
    return (whole ? payload : (payload?.data ?? payload)) as T
  }

}

/** A filter as a query string: `?status=failed&limit=5`, or nothing when no field is set. */
export function queryOf(filter: object): string {
  const entries = Object.entries(filter).filter(([, value]) => value !== undefined).map(([key, value]): [string, string] => [key, String(value)])
  return entries.length ? `?${new URLSearchParams(entries)}` : ''
}
