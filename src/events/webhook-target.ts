/** A webhook receiver's URL as an attempt needs it, and the words for what went wrong with one. */

export interface Target {
  secure: boolean
  /** The host to connect to (an IPv6 address without its brackets) and the port. */
  host: string
  port: number
  /** Which kept-alive connections it may use: those to the same scheme, host and port. */
  pool: string
  /** `POST <path> HTTP/1.1`, CRLF. */
  requestLine: string
  /** The head's last lines: Host (and Authorization), Connection, the blank line. */
  headTail: string
}

/**
 * A receiver's URL as the attempt needs it, parsed once per URL, with the head's fixed lines as
 * node's request writes them (Host: an IPv6 address in brackets, the port unless the scheme's; Basic
 * credentials from the URL); or why it is not one.
 */
export function parseTarget(url: string): Target | string {
  try {
    const parsed = new URL(url)
    const secure = parsed.protocol === 'https:'
    if (!secure && parsed.protocol !== 'http:') return `'${url}' is not an http:// or https:// URL`
    const host = parsed.hostname.startsWith('[') ? parsed.hostname.slice(1, -1) : parsed.hostname
    const defaultPort = secure ? 443 : 80
    const port = parsed.port === '' ? defaultPort : Number(parsed.port)
    const hostHeader = `${host.includes(':') ? `[${host}]` : host}${port === defaultPort ? '' : `:${port}`}`
    let tail = `Host: ${hostHeader}\r\n`
    if (parsed.username || parsed.password) tail += `Authorization: Basic ${Buffer.from(`${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`).toString('base64')}\r\n`
    return { secure, host, port, pool: `${parsed.protocol}//${hostHeader}`, requestLine: `POST ${parsed.pathname}${parsed.search} HTTP/1.1\r\n`, headTail: `${tail}Connection: keep-alive\r\n\r\n` }
  } catch {
    return `'${url}' is not a valid URL`
  }
}

export function describeStatus(status: number): string {
  if (status === 410) return 'the receiver answered 410 Gone; the endpoint has been disabled'
  return `the receiver answered ${status}; only 2xx counts as delivered`
}

export function describeNetworkError(error: Error & { code?: string }): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'connection refused (ECONNREFUSED): nothing is listening at that address'
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `the host name could not be resolved (${error.code})`
    case 'ECONNRESET':
      return 'the receiver closed the connection before answering (ECONNRESET)'
    default:
      return error.code ? `${error.message} (${error.code})` : error.message
  }
}
