import type { IncomingMessage } from 'node:http'
import { writeRawError } from '../raw-answer.js'
import { ApiError } from '../errors.js'
import { assertIpAllowed, bearerKey, resolveKey, type Authenticated } from '../access/keys.js'
import type { Accounts } from '../ledger/accounts.js'
import type { Store } from '../store/store.js'

/** Subprotocol prefix that carries the key, for browsers (which cannot set headers on a WebSocket). */
export const BEARER_PROTOCOL_PREFIX = 'bearer.'

/** The subprotocols a client offered, in its order. */
export function offeredProtocols(req: IncomingMessage): string[] {
  const header = req.headers['sec-websocket-protocol']
  if (header === undefined) return []
  return header.split(',').map((protocol) => protocol.trim()).filter((protocol) => protocol !== '')
}

/**
 * The key of an upgrade request: `Authorization: Bearer`, then `?api_key=`, then the subprotocol
 * `bearer.<key>`. Undefined when none is given (an anonymous connection, prices only). A malformed
 * Authorization header is refused as on REST.
 */
export function upgradeKey(req: IncomingMessage, url: URL): string | undefined {
  const header = req.headers.authorization
  if (header !== undefined && header !== '') return bearerKey(header)
  const fromQuery = url.searchParams.get('api_key')
  if (fromQuery !== null && fromQuery !== '') return fromQuery
  const protocol = offeredProtocols(req).find((offered) => offered.startsWith(BEARER_PROTOCOL_PREFIX))
  if (protocol !== undefined && protocol.length > BEARER_PROTOCOL_PREFIX.length) return protocol.slice(BEARER_PROTOCOL_PREFIX.length)
  return undefined
}

/** Same key rules as REST (CONTRACT.md section 1); throws the ApiError to answer with. */
export function authenticateUpgrade(
  req: IncomingMessage,
  url: URL,
  deps: { store: Store; accounts: Accounts; mode: 'open' | 'strict' },
): Authenticated | undefined {
  const key = upgradeKey(req, url)
  if (key === undefined) return undefined
  const authenticated = resolveKey(key, deps)
  assertIpAllowed(authenticated.key, req.socket.remoteAddress ?? '')
  return authenticated
}

/** Answers a refused upgrade with the REST error shape over plain HTTP, then drops the socket. */
export const refuseUpgrade = writeRawError
