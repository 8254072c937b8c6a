import type { SandboxEvent } from '../model/events.js'
import { jsonString, paymentJson, PresentedPayment } from '../payment-json.js'

/**
 * The JSON of what carries an order (a webhook's event body, an `orders` channel frame), the same
 * text `JSON.stringify` writes, without writing an order's fills again and again. Every order event
 * carries the order with all its fills, and an order that fills on every tick has hundreds: written
 * whole, the fills were most of a tick's cost for each listener (a webhook endpoint, a stream
 * subscriber). An order's fills are only ever appended, and `presentOrder` shares each presented
 * fill object between the answers and events of one order, so the text of a list of fills is kept
 * under its last fill object and the next list, one fill longer, adds the text of that fill (only
 * the latest per order is kept, and none once the order is final).
 * The text of the order written last is kept too: an event's webhook body and its stream frame are
 * written one after the other, and write it once. (Only the last: the event log keeps thousands of
 * events, and a text kept per event would have stayed with each.)
 */

/** The JSON of a list of fills without its brackets, under the list's last fill object. */
const fillsTexts = new WeakMap<object, string>()
let lastOrder: object | undefined
let lastOrderText = ''

function fillsText(fills: readonly unknown[]): string {
  const last = fills[fills.length - 1]
  if (last === null || typeof last !== 'object') return fills.map((fill) => JSON.stringify(fill)).join(',')
  const known = fillsTexts.get(last)
  if (known !== undefined) return known
  const before = fills.length > 1 ? fills[fills.length - 2] : undefined
  const previous = before !== null && typeof before === 'object' ? fillsTexts.get(before) : fills.length === 1 ? '' : undefined
  let text: string
  if (previous === undefined) {
    text = fills.map((fill) => JSON.stringify(fill)).join(',')
  } else {
    text = previous === '' ? JSON.stringify(last) : `${previous},${JSON.stringify(last)}`
    // The next list starts from this one: the shorter text is not needed again.
    if (before !== undefined) fillsTexts.delete(before as object)
  }
  flatten(text)
  fillsTexts.set(last, text)
  return text
}

/**
 * V8 keeps a concatenation as a tree of its parts, and a text grown a fill at a time would be a
 * tree as deep as the order has fills: turning that into bytes for a socket cost more than writing
 * the JSON anew. Reading a character makes V8 flatten it into one piece, once.
 */
function flatten(text: string): void {
  text.charCodeAt(0)
}

/**
 * `JSON.stringify(value)` with `value[key]` written as `raw` (its JSON, given), in its place among
 * the keys. `value` is a plain object of string keys.
 */
export function spliceJson(value: Record<string, unknown>, key: string, raw: string): string {
  // As JSON.stringify reads an object: its own keys only, and a key "__proto__" is a key like any
  // other (on an object without a prototype, writing it sets no prototype).
  const head: Record<string, unknown> = Object.create(null)
  const tail: Record<string, unknown> = Object.create(null)
  let found = false
  for (const name of Object.keys(value)) {
    if (name === key) found = true
    else if (found) tail[name] = value[name]
    else head[name] = value[name]
  }
  if (!found) return JSON.stringify(value)
  const before = JSON.stringify(head)
  const after = JSON.stringify(tail)
  return `${before === '{}' ? '{' : `${before.slice(0, -1)},`}${JSON.stringify(key)}:${raw}${after === '{}' ? '}' : `,${after.slice(1)}`}`
}

const FINAL = new Set(['filled', 'cancelled', 'expired', 'rejected'])

/** `JSON.stringify(order)` for a presented order (`presentOrder`). */
export function orderJson(order: Record<string, unknown>): string {
  if (order === lastOrder) return lastOrderText
  const { fills } = order
  const text = Array.isArray(fills) && fills.length > 0 ? spliceJson(order, 'fills', `[${fillsText(fills)}]`) : JSON.stringify(order)
  // A final order gets no more fills: its text would never be extended.
  if (Array.isArray(fills) && fills.length > 0 && FINAL.has(order.status as string)) fillsTexts.delete(fills[fills.length - 1] as object)
  lastOrder = order
  lastOrderText = text
  return text
}

const isOrder = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && (value as { object?: unknown }).object === 'order'

let lastEvent: SandboxEvent | undefined
let lastEventText = ''

/**
 * `JSON.stringify(event)`: an order event's order through `orderJson`. The text of the event written
 * last is kept: the webhooks and the event log both want it as the event is published, one after
 * the other, and it is written once.
 */
export function eventJson(event: SandboxEvent): string {
  if (event === lastEvent) return lastEventText
  const { data } = event
  const text = data.object instanceof PresentedPayment
    ? (paymentEventJson(event, data.object) ?? JSON.stringify(event))
    : !event.type.startsWith('order.') || !isOrder(data.object)
      ? JSON.stringify(event)
      : spliceJson(event as unknown as Record<string, unknown>, 'data', spliceJson(data, 'object', orderJson(data.object)))
  lastEvent = event
  lastEventText = text
  return text
}

/** An event's keys as the publisher makes them (publisher.ts), in order. */
const EVENT_KEYS = ['id', 'object', 'type', 'created_at', 'api_version', 'account_id', 'data']
const DATA_KEYS = ['object']

/** Whether `value`'s keys, as JSON.stringify would walk them, are `keys` in this order. */
function hasKeys(value: object, keys: readonly string[]): boolean {
  let at = 0
  for (const key in value) if (!Object.hasOwn(value, key) || key !== keys[at++]) return false
  return at === keys.length
}

/**
 * `JSON.stringify(event)` for the event of a payment, the payment's text written once for the
 * event and the answer (src/payment-json.ts); undefined for an event not as the publisher makes it.
 */
function paymentEventJson(event: SandboxEvent, payment: PresentedPayment): string | undefined {
  if (!hasKeys(event, EVENT_KEYS) || !hasKeys(event.data, DATA_KEYS)) return undefined
  const { id, object, type, created_at, api_version, account_id } = event as unknown as Record<string, unknown>
  if (typeof id !== 'string' || typeof object !== 'string' || typeof type !== 'string' || typeof created_at !== 'string') return undefined
  if (typeof api_version !== 'string' || typeof account_id !== 'string') return undefined
  return `{"id":${jsonString(id)},"object":${jsonString(object)},"type":${jsonString(type)},"created_at":${jsonString(created_at)},` +
    `"api_version":${jsonString(api_version)},"account_id":${jsonString(account_id)},"data":{"object":${paymentJson(payment)}}}`
}
