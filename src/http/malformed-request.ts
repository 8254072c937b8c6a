import type { Duplex } from 'node:stream'
import { ApiError } from '../errors.js'
import { renderError } from './respond.js'

/** Parse errors node answers itself: a header block too large (431) and a request too slow (408). */
const LEFT_TO_NODE = new Set(['HPE_HEADER_OVERFLOW', 'ERR_HTTP_REQUEST_TIMEOUT'])

/**
 * The server's `clientError` listener. Node's HTTP parser refuses a request that is not valid HTTP
 * (a CR or LF alone inside a header value, a control character, a bad request line) before express
 * sees it, and by default answers an empty 400; this answers it in the contract's error shape, so a
 * client learns what was wrong. Nothing of the request ran.
 */
export function answerMalformedRequest(nextRequestId: () => string) {
  return (error: Error & { code?: string }, socket: Duplex): void => {
    if (!socket.writable || error.code === 'ECONNRESET' || LEFT_TO_NODE.has(error.code ?? '')) {
      // What node's default listener does for these.
      const status = error.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? '408 Request Timeout' : undefined
      if (status && socket.writable) socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`)
      else socket.destroy(error)
      return
    }
    const requestId = nextRequestId()
    const reason = error.message.replace(/^Parse Error:\s*/, '')
    const rendered = renderError(
      new ApiError('parameter_invalid', `The request is not valid HTTP/1.1 (${reason}); header values cannot contain CR, LF or other control characters.`),
      requestId,
      () => {},
    )
    const head = [`HTTP/1.1 ${rendered.status} Bad Request`, `X-Request-Id: ${requestId}`, 'Content-Type: application/json; charset=utf-8', `Content-Length: ${Buffer.byteLength(rendered.text)}`, 'Connection: close']
    socket.end(`${head.join('\r\n')}\r\n\r\n${rendered.text}`)
  }
}
