import * as z from 'zod'
import { ApiError, echo, type ErrorCode } from '../errors.js'
import { orderJson, spliceJson } from '../events/order-json.js'
import type { OrderNotification, WalletNotification } from '../model/events.js'
import { parseOrThrow } from '../schemas/validate.js'
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../schemas/json-depth.js'
import type { Quote } from '../market/pair-quotes.js'
import { textFrame } from './frames.js'
import { lazily } from '../lazily.js'

/**
 * The stream's wire format (CONTRACT.md sections 11 and 13): what a client may send, and the
 * frames the server sends back. Every server frame has a `type`.
 */

export const ACTIONS = ['subscribe', 'unsubscribe', 'ping'] as const
export const CHANNELS = ['prices', 'wallets', 'orders'] as const
export type Channel = (typeof CHANNELS)[number]

const oneOf = (field: string, values: readonly string[]) => (issue: { input?: unknown }) =>
  issue.input === undefined ? undefined : `${field} must be one of ${values.join(', ')}; got ${echo(issue.input)}`

const stringList = (field: string, example: string) =>
  z
    .array(z.string({ error: `${field} must be an array of strings such as ${example}` }), {
      error: (issue) => (issue.input === undefined ? undefined : `${field} must be an array of strings such as ${example}`),
    })
    .min(1, { error: `${field} must name at least one value; leave it out to mean all` })
    .max(1000, { error: `${field} lists at most 1000 values` })

/** Built when the first stream client sends a message, not as the sandbox starts (issue 33). */
const clientMessageSchema = lazily(() =>
  z
    .object({
      action: z.enum(ACTIONS, { error: oneOf('action', ACTIONS) }),
      channel: z.enum(CHANNELS, { error: oneOf('channel', CHANNELS) }).optional(),
      pairs: stringList('pairs', '["ETH/USD"]').optional(),
      wallet_ids: stringList('wallet_ids', '["wal_…"]').optional(),
    })
    .meta({ id: 'StreamClientMessage' }),
)

export type ClientMessage = z.output<ReturnType<typeof clientMessageSchema>>

/** A subscribe or unsubscribe whose channel is known. */
export type ChannelRequest =
  | { action: 'subscribe' | 'unsubscribe'; channel: 'prices'; pairs: string[] | undefined }
  | { action: 'subscribe' | 'unsubscribe'; channel: 'wallets'; walletIds: string[] | undefined }
  | { action: 'subscribe' | 'unsubscribe'; channel: 'orders'; pairs: string[] | undefined }

export type ParsedMessage = { action: 'ping' } | ChannelRequest

/** `{type: "error", code, message}`; the connection stays open. */
export interface ErrorFrame {
  type: 'error'
  code: ErrorCode
  message: string
}

export const errorFrame = (code: ErrorCode, message: string): ErrorFrame => ({ type: 'error', code, message })

const EXAMPLE = '{"action": "subscribe", "channel": "prices", "pairs": ["ETH/USD"]}'

/**
 * Turns one incoming frame into a request, or the error frame that answers it. Fields that belong
 * to the other channel are refused rather than ignored, so a typo does not pass silently.
 */
export function parseClientMessage(data: Buffer | ArrayBuffer | Buffer[]): ParsedMessage | ErrorFrame {
  const text = Buffer.isBuffer(data) ? data.toString('utf8') : Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data).toString('utf8')
  let raw: unknown
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) return errorFrame('invalid_json', `The message nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep. Send a flat JSON object, such as ${EXAMPLE}.`)
  try {
    raw = JSON.parse(text)
  } catch {
    return errorFrame('invalid_json', `The message is not valid JSON. Send one JSON object per frame, such as ${EXAMPLE}.`)
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return errorFrame('parameter_invalid', `A message must be a JSON object with an action (${ACTIONS.join(', ')}), such as ${EXAMPLE}.`)
  }
  if (!('action' in raw) || raw.action === undefined) return errorFrame('parameter_missing', `The message needs an action: one of ${ACTIONS.join(', ')}.`)
  let message: ClientMessage
  try {
    message = parseOrThrow(clientMessageSchema(), raw, 'body')
  } catch (error) {
    if (error instanceof ApiError) return errorFrame(error.code, error.message)
    throw error
  }
  if (message.action === 'ping') return { action: 'ping' }
  const { action, channel } = message
  if (channel === undefined) return errorFrame('parameter_missing', `${action} needs a channel: one of ${CHANNELS.join(', ')}.`)
  if (channel === 'prices') {
    if (message.wallet_ids !== undefined) return errorFrame('parameter_invalid', 'wallet_ids belongs to the wallets channel; the prices channel takes pairs.')
    return { action, channel, pairs: message.pairs }
  }
  if (channel === 'orders') {
    if (message.wallet_ids !== undefined) return errorFrame('parameter_invalid', 'wallet_ids belongs to the wallets channel; the orders channel takes pairs.')
    return { action, channel, pairs: message.pairs }
  }
  if (message.pairs !== undefined) return errorFrame('parameter_invalid', 'pairs belongs to the prices channel (and the orders channel); the wallets channel takes wallet_ids.')
  return { action, channel, walletIds: message.wallet_ids }
}

export const isErrorFrame = (value: ParsedMessage | ErrorFrame): value is ErrorFrame => 'type' in value

/** The frame of one quote (`frames.ts`): built once per pair and tick, sent to every subscriber. */
export const priceFrame = (quote: Quote): Buffer =>
  textFrame(JSON.stringify({ type: 'price', channel: 'prices', pair: quote.pair, price: quote.price, bid: quote.bid, ask: quote.ask, timestamp: quote.timestamp }))

export const walletFrame = (notification: WalletNotification): Buffer =>
  textFrame(
    JSON.stringify({
      type: 'wallet',
      channel: 'wallets',
      event: notification.event,
      wallet_id: notification.wallet_id,
      data: notification.data,
      timestamp: notification.timestamp,
    }),
  )

/** The order is written through `orderJson` (events/order-json.ts): its fills are not written anew for every event. */
export const orderFrame = (notification: OrderNotification): Buffer => {
  const frame = { type: 'order', channel: 'orders', event: notification.event, sequence: notification.sequence, data: notification.data, timestamp: notification.timestamp }
  const { data } = notification
  return textFrame(data !== null && typeof data === 'object' ? spliceJson(frame, 'data', orderJson(data as Record<string, unknown>)) : JSON.stringify(frame))
}
