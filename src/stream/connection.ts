import type { WebSocket } from 'ws'
import type { Clock } from '../clock.js'
import { ApiError } from '../errors.js'
import { assertScope, type Authenticated } from '../access/keys.js'
import type { Store } from '../store/store.js'
import { CHANNELS, errorFrame, isErrorFrame, parseClientMessage, type ChannelRequest, type ErrorFrame } from './messages.js'
import { createOutbox, type Outbox, type OutboxLimits } from './outbox.js'
import type { PriceModel } from '../market/prices.js'
import type { PriceTicker } from './ticker.js'
import type { WalletFeed } from './wallet-feed.js'
import type { OrderFeed } from './order-feed.js'
import { presentOrder } from '../ledger/present-order.js'

export interface ConnectionDeps {
  clock: Clock
  store: Store
  model: PriceModel
  ticker: PriceTicker
  wallets: WalletFeed
  orders: OrderFeed
  /** The pairs orders trade in (the orders channel's `pairs` filter). */
  tradingPairs(): readonly string[]
  limits: OutboxLimits
  logError(error: unknown): void
}

/** One client of the stream: its subscriptions and the answers to its messages. */
export interface Connection {
  readonly socket: WebSocket
  readonly outbox: Outbox
  /** The account of the key it connected with; undefined for an anonymous (prices only) client. */
  readonly accountId: string | undefined
  /** Cleared by each heartbeat, set again by the client's pong. */
  alive: boolean
}

const list = (values: readonly string[]) => values.join(', ')

export function openConnection(socket: WebSocket, identity: Authenticated | undefined, deps: ConnectionDeps): Connection {
  const { clock, store, model, ticker, wallets, orders } = deps
  const outbox = createOutbox(socket, deps.limits)
  const connection: Connection = { socket, outbox, accountId: identity?.account.account.id, alive: true }

  function onPrices(request: Extract<ChannelRequest, { channel: 'prices' }>): ErrorFrame | undefined {
    const pairs = [...new Set(request.pairs ?? (request.action === 'subscribe' ? model.pairs : ticker.pairsOf(outbox)))]
    const unknown = pairs.filter((pair) => !model.isPair(pair))
    if (unknown.length > 0) {
      return errorFrame('parameter_invalid', `Unknown pair${unknown.length > 1 ? 's' : ''} ${list(unknown)}; valid pairs are ${list(model.pairs)} (BASE/QUOTE, upper case).`)
    }
    if (request.action === 'unsubscribe') {
      ticker.unsubscribe(outbox, pairs)
      outbox.send({ type: 'unsubscribed', channel: 'prices', pairs })
      return undefined
    }
    const snapshot = ticker.subscribe(outbox, pairs, connection.accountId)
    outbox.batch(() => {
      outbox.send({ type: 'subscribed', channel: 'prices', pairs })
      outbox.sendPrices(snapshot)
    })
    return undefined
  }

  function onWallets(request: Extract<ChannelRequest, { channel: 'wallets' }>): ErrorFrame | undefined {
    if (!identity) {
      return errorFrame('api_key_missing', 'The wallets channel needs an API key: connect with Authorization: Bearer <key>, ?api_key=<key> or the subprotocol bearer.<key>. Without a key only prices can be subscribed.')
    }
    assertScope(identity.key, 'wallets:read')
    const account = store.accounts.get(identity.account.account.id)
    const walletIds = request.walletIds === undefined ? undefined : [...new Set(request.walletIds)]
    const unknown = walletIds?.filter((id) => !account?.wallets.has(id)) ?? []
    if (unknown.length > 0) {
      return errorFrame('resource_missing', `No such wallet${unknown.length > 1 ? 's' : ''}: ${list(unknown)}. Nothing was ${request.action}d; list your wallets with GET /v1/wallets.`)
    }
    if (request.action === 'subscribe') wallets.subscribe(outbox, connection.accountId!, walletIds)
    else wallets.unsubscribe(outbox, walletIds)
    outbox.send({ type: `${request.action}d`, channel: 'wallets', wallet_ids: walletIds ?? null })
    return undefined
  }

  /** `subscribed`, then the snapshot of the orders that can still fill, with the sequence of the last event before it. */
  function onOrders(request: Extract<ChannelRequest, { channel: 'orders' }>): ErrorFrame | undefined {
    if (!identity) {
      return errorFrame('api_key_missing', 'The orders channel needs an API key: connect with Authorization: Bearer <key>, ?api_key=<key> or the subprotocol bearer.<key>. Without a key only prices can be subscribed.')
    }
    assertScope(identity.key, 'orders:read')
    if (request.action === 'unsubscribe') {
      orders.unsubscribe(outbox)
      outbox.send({ type: 'unsubscribed', channel: 'orders' })
      return undefined
    }
    const pairs = request.pairs === undefined ? undefined : [...new Set(request.pairs)]
    const known = deps.tradingPairs()
    const unknown = pairs?.filter((pair) => !known.includes(pair)) ?? []
    if (unknown.length > 0) {
      return errorFrame('parameter_invalid', `Unknown trading pair${unknown.length > 1 ? 's' : ''} ${list(unknown)}; the pairs are ${list(known)} (GET /v1/pairs).`)
    }
    const account = store.accounts.get(connection.accountId!)
    const open = account ? account.orders.open().filter((order) => !pairs || pairs.includes(order.pair)) : []
    orders.subscribe(outbox, connection.accountId!, pairs)
    outbox.batch(() => {
      outbox.send({ type: 'subscribed', channel: 'orders', pairs: pairs ?? null })
      outbox.send({ type: 'orders_snapshot', channel: 'orders', sequence: account?.account.order_events ?? 0, data: open.map(presentOrder), timestamp: clock.nowIso(connection.accountId) })
    })
    return undefined
  }

  function handle(data: Buffer | ArrayBuffer | Buffer[]): ErrorFrame | undefined {
    const message = parseClientMessage(data)
    if (isErrorFrame(message)) return message
    if (message.action === 'ping') {
      outbox.send({ type: 'pong', timestamp: clock.nowIso(connection.accountId) })
      return undefined
    }
    if (message.channel === 'prices') return onPrices(message)
    if (message.channel === 'wallets') return onWallets(message)
    if (message.channel === 'orders') return onOrders(message)
    return errorFrame('parameter_invalid', `channel must be one of ${list(CHANNELS)}.`)
  }

  socket.on('message', (data) => {
    connection.alive = true
    let error: ErrorFrame | undefined
    try {
      error = handle(data)
    } catch (caught) {
      if (caught instanceof ApiError) error = errorFrame(caught.code, caught.message)
      else {
        deps.logError(caught)
        error = errorFrame('internal_error', 'An internal error occurred while handling this message; it has been logged.')
      }
    }
    if (error) outbox.send(error)
  })
  socket.on('pong', () => {
    connection.alive = true
  })
  socket.on('close', () => {
    ticker.unsubscribe(outbox, ticker.pairsOf(outbox))
    wallets.unsubscribe(outbox, undefined)
    orders.unsubscribe(outbox)
  })
  return connection
}
