import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import type { WebSocket, WebSocketServer } from 'ws'
import type { Clock } from '../clock.js'
import type { Config } from '../config.js'
import { ApiError } from '../errors.js'
import type { Bus } from '../events/bus.js'
import type { Authenticated } from '../access/keys.js'
import type { Accounts } from '../ledger/accounts.js'
import type { Logger } from '../logger.js'
import type { Store } from '../store/store.js'
import { openConnection, type Connection } from './connection.js'
import { DEFAULT_OUTBOX_LIMITS, type OutboxLimits, type OutboxStats } from './outbox.js'
import type { PriceModel } from '../market/prices.js'
import { createPriceTicker, type TickerStats } from './ticker.js'
import { authenticateUpgrade, BEARER_PROTOCOL_PREFIX, refuseUpgrade } from './upgrade.js'
import { createWalletFeed } from './wallet-feed.js'
import { createOrderFeed } from './order-feed.js'

export const STREAM_PATH = '/v1/stream'
/** Incoming frames are capped (CONTRACT.md section 13); a bigger one closes the connection with 1009. */
export const MAX_INCOMING_FRAME = 64 * 1024
export const CLOSE_GOING_AWAY = 1001

/** Tuning that tests shorten; the defaults suit real use. */
export interface StreamOptions {
  /** Real-time ms between heartbeat pings; a client that has not answered the previous one is dropped. */
  heartbeatMs: number
  /** Real-time ms that `close()` waits for clients to finish the closing handshake before cutting them off. */
  closeGraceMs: number
  limits: OutboxLimits
}

export const DEFAULT_STREAM_OPTIONS: StreamOptions = { heartbeatMs: 30_000, closeGraceMs: 1_000, limits: DEFAULT_OUTBOX_LIMITS }

export interface StreamDeps {
  config: Config
  clock: Clock
  store: Store
  accounts: Accounts
  bus: Bus
  model: PriceModel
  /** The pairs orders trade in. */
  tradingPairs(): readonly string[]
  nextRequestId(): string
  logger: Logger
}

export interface StreamStats extends Omit<TickerStats, 'subscriptions'> {
  connections: number
  priceSubscriptions: number
  clients: Array<OutboxStats & { account_id: string | null }>
}

/** The WebSocket stream at `/v1/stream`, sharing the REST server's port through its `upgrade` event. */
export interface StreamServer {
  /** The HTTP server's `upgrade` listener. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void
  stats(): StreamStats
  /** Closes every client with 1001 (going away), then stops. */
  close(): Promise<void>
}

export function createStreamServer(deps: StreamDeps, overrides: Partial<StreamOptions> = {}): StreamServer {
  const options: StreamOptions = { ...DEFAULT_STREAM_OPTIONS, ...overrides }
  const { config, clock, store, accounts, bus, model, logger } = deps
  const ticker = createPriceTicker({ clock, model, intervalMs: config.priceInterval })
  const wallets = createWalletFeed(bus)
  const orders = createOrderFeed(bus)
  const connections = new Set<Connection>()
  let closing = false

  // ws is loaded on the first upgrade, so that a sandbox nobody streams from starts without it (cold start).
  let wss: WebSocketServer | undefined
  let loading: Promise<WebSocketServer> | undefined
  const loadServer = () => (loading ??= import('ws').then(({ WebSocketServer }) => (wss = new WebSocketServer({
    noServer: true,
    clientTracking: false,
    maxPayload: MAX_INCOMING_FRAME,
    // Frames are built once and written as they are to every client (outbox.ts); compression would be per client.
    perMessageDeflate: false,
    // Echoing the key's subprotocol is what makes browsers accept the connection.
    handleProtocols: (protocols) => [...protocols].find((protocol) => protocol.startsWith(BEARER_PROTOCOL_PREFIX)) ?? false,
    // Not in @types/ws: how long a close handshake may take before the socket is destroyed.
    ...{ closeTimeout: 5_000 },
  }))))

  const connectionDeps = { clock, store, model, ticker, wallets, orders, tradingPairs: deps.tradingPairs, limits: options.limits, logError: (error: unknown) => logger.error('Stream message failed', error) }

  function accept(socket: WebSocket, identity: Authenticated | undefined): void {
    const connection = openConnection(socket, identity, connectionDeps)
    connections.add(connection)
    socket.on('close', () => connections.delete(connection))
    // Oversized frames and protocol errors arrive here; ws closes the socket itself (1009, 1002 …).
    socket.on('error', () => {})
  }

  // Only a whole restore sets the sandbox clock, on whose grid the ticks fall.
  const realign = (accountId?: string) => accountId === undefined && ticker.realign()
  bus.on('state.restored', realign)

  const heartbeat = setInterval(() => {
    for (const connection of connections) {
      if (!connection.alive) {
        connection.socket.terminate()
        continue
      }
      connection.alive = false
      connection.socket.ping()
    }
    ticker.repair()
  }, options.heartbeatMs)
  heartbeat.unref()

  return {
    handleUpgrade(req, socket, head) {
      if (closing) {
        socket.destroy()
        return
      }
      socket.on('error', () => socket.destroy())
      const url = new URL(req.url ?? '/', 'http://sandbox')
      if (url.pathname !== STREAM_PATH) {
        const error = new ApiError('route_not_found', `No WebSocket endpoint at ${url.pathname}; the stream is at ${STREAM_PATH}.`)
        return refuseUpgrade(socket, error, deps.nextRequestId())
      }
      let identity: Authenticated | undefined
      try {
        identity = authenticateUpgrade(req, url, { store, accounts, mode: config.auth })
      } catch (error) {
        if (!(error instanceof ApiError)) logger.error('Stream upgrade failed', error)
        const refusal = error instanceof ApiError ? error : new ApiError('internal_error', 'An internal error occurred; it has been logged.')
        return refuseUpgrade(socket, refusal, deps.nextRequestId())
      }
      const complete = (server: WebSocketServer) => server.handleUpgrade(req, socket, head, (ws) => accept(ws, identity))
      if (wss) return complete(wss)
      loadServer().then(
        (server) => (closing ? socket.destroy() : complete(server)),
        (error: unknown) => {
          logger.error('Stream upgrade failed', error)
          socket.destroy()
        },
      )
    },

    stats() {
      const { subscriptions, ...ticks } = ticker.stats()
      return {
        connections: connections.size,
        priceSubscriptions: subscriptions,
        ...ticks,
        clients: [...connections].map((connection) => ({ account_id: connection.accountId ?? null, ...connection.outbox.stats() })),
      }
    },

    async close() {
      if (closing) return
      closing = true
      clearInterval(heartbeat)
      bus.off('state.restored', realign)
      ticker.close()
      wallets.close()
      orders.close()
      const closed = [...connections].map(
        (connection) => new Promise<void>((resolve) => {
          connection.socket.once('close', () => resolve())
          connection.socket.close(CLOSE_GOING_AWAY, 'Server shutting down')
        }),
      )
      let grace: NodeJS.Timeout | undefined
      await Promise.race([Promise.all(closed), new Promise<void>((resolve) => (grace = setTimeout(resolve, options.closeGraceMs)))])
      clearTimeout(grace)
      for (const connection of connections) connection.socket.terminate()
      wss?.close()
    },
  }
}
