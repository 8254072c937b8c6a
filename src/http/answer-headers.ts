import type { ServerResponse } from 'node:http'

/**
 * The headers of an answer not sent yet, kept as `[name, value, …]` in `res.locals.headers` on the
 * listener's fast path (src/http/app.ts) and written with the status line in one `writeHead` by
 * `send` (respond.ts). Node's `setHeader` validates each header, keeps it in a map by its lower-case
 * name, then `end` validates and walks them again: for the five headers of a balance (X-Request-Id
 * set twice), 72 µs a request against 56 with one `writeHead` in a bare server (issue 33). A response
 * without that list (one express answers) gets `setHeader` as before.
 */
export interface DeferredHeaders {
  locals?: { headers?: string[] | undefined }
}

/** `res.setHeader(name, value)`, or kept for `send` on the fast path: a name set again keeps its place and takes the new value, as with `setHeader`. */
export function setAnswerHeader(res: ServerResponse, name: string, value: string): void {
  const headers = (res as DeferredHeaders).locals?.headers
  if (headers === undefined) {
    res.setHeader(name, value)
    return
  }
  setIn(headers, name, value)
}

/** Sets `name` in a `[name, value, …]` list (names as this code writes them, compared exactly). */
export function setIn(headers: string[], name: string, value: string): void {
  for (let i = 0; i < headers.length; i += 2) {
    if (headers[i] === name) {
      headers[i + 1] = value
      return
    }
  }
  headers.push(name, value)
}
