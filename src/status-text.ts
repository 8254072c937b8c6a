/**
 * node:http's reason phrases (its `STATUS_CODES`) for the statuses the sandbox answers, without
 * loading node:http for them: a start's health answer and a test's API requests are answered by the
 * sandbox's own HTTP/1.1 layer (src/http/plain-connection.ts), and node:http, about 1.0 ms of a cold start to
 * load and 0.25 ms to make its server, is loaded only when a connection is handed to it (issue 33,
 * round 11). Any other status reads node's own table. test/unit/status-text.test.ts holds these to
 * node's.
 */
const COMMON: Readonly<Record<number, string>> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
}

export const COMMON_STATUSES: readonly number[] = Object.keys(COMMON).map(Number)

/** The reason phrase node:http writes for `status`, or undefined for a status node has none for. */
export function statusText(status: number): string | undefined {
  return COMMON[status] ?? process.getBuiltinModule('node:http').STATUS_CODES[status]
}
