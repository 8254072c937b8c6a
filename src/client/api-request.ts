import { readJsonAnswer } from './json-answer.js'

/**
 * One `/v1` request with an API key, as the terminal commands make them: JSON in and out, the
 * answer's `data`, an ApiCallError carrying the API's own error on anything but 2xx. A 429 waits
 * for its Retry-After (a terminal command shares the key's budget with the user's app) and tries
 * again, a few times.
 */

export class ApiCallError extends Error {
  override name = 'ApiCallError'
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly param: string | undefined,
  ) {
    super(message)
  }
}

export type ApiRequest = <T>(method: string, path: string, body?: unknown) => Promise<T>

const RATE_LIMIT_RETRIES = 3

export function createApiRequest(options: { baseUrl: string; apiKey: string; fetch?: typeof fetch }): ApiRequest {
  const base = `${options.baseUrl.replace(/\/+$/, '')}/v1`
  const doFetch = options.fetch ?? fetch
  return async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${options.apiKey}` }
      if (body !== undefined) headers['content-type'] = 'application/json'
      const res = await doFetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
      if (res.status === 429 && attempt < RATE_LIMIT_RETRIES) {
        await res.arrayBuffer()
        await new Promise((resolve) => setTimeout(resolve, Math.min(Number(res.headers.get('retry-after') ?? 1), 2) * 1000))
        continue
      }
      const { text, payload } = await readJsonAnswer(res)
      if (!res.ok) {
        const error = payload?.error
        throw new ApiCallError(error?.message ?? `${method} /v1${path} answered ${res.status}: ${text.slice(0, 200)}`, res.status, error?.code ?? 'unknown', error?.param)
      }
      return payload?.data as T
    }
  }
}
