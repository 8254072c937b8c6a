import type { Duplex } from 'node:stream'
import type { ApiError } from './errors.js'
import { VERSION, VERSION_HEADER } from './version.js'
import { statusText } from './status-text.js'

/**
 * Answers an error in the usual shape straight on a socket, then closes it: for what never becomes
 * an express request (a refused WebSocket upgrade, a request node itself refused to parse).
 */
export function writeRawError(socket: Duplex, error: ApiError, requestId: string): void {
  if (!socket.writable) {
    socket.destroy()
    return
  }
  const body = JSON.stringify({ error: error.toBody(), request_id: requestId })
  const headers = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    'X-Request-Id': requestId,
    [VERSION_HEADER]: VERSION,
    Connection: 'close',
    ...error.headers,
  }
  const head = [`HTTP/1.1 ${error.status} ${statusText(error.status) ?? ''}`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)]
  socket.once('finish', () => socket.destroy())
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`)
}
