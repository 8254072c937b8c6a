import type { SandboxEvent } from '../model/events.js'
import { ESCAPED, jsonString, paymentJson, PlainTexts, PresentedPayment } from '../payment-json.js'
import { PublishedEvent } from './publisher.js'

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
  // Written key by key, as JSON.stringify reads an object: its own enumerable keys in order (a key
  // "__proto__" is a key like any other), a value it would leave out (undefined, a function) left
  // out. Copying the other keys into two objects to stringify instead made dictionary-mode objects,
  // about six times slower, and a payment's event is written on every POST. Names and string
  // values are quoted by jsonString (as they are, unless a character needs escaping): a call of
  // JSON.stringify for each name and value was most of an event envelope's cost.
  let text = '{'
  let found = false
  for (const name of Object.keys(value)) {
    let json: string | undefined
    if (name === key) {
      found = true
      json = raw
    } else {
      const field = value[name]
      json = typeof field === 'string' ? jsonString(field) : JSON.stringify(field)
      if (json === undefined) continue
    }
    text += text.length === 1 ? `${jsonString(name)}:${json}` : `,${jsonString(name)}:${json}`
  }
  return found ? `${text}}` : JSON.stringify(value)
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
 * `JSON.stringify(event)`, its object spliced in as `objectJson` writes it. The text of the event written
 * last is kept: the webhooks and then the event log want it as the event is published (but for a
 * payment's event, which the event log keeps as the payment's text, and an order's, kept as itself).
 */
export function eventJson(event: SandboxEvent): string {
  if (event === lastEvent) return lastEventText
  lastEventText = writeEvent(event)
  lastEvent = event
  return lastEventText
}

/**
 * An event's JSON: its head, its object's text and its tail for an event the publisher made around
 * an object with a writer of its own (nearly every payment and order event), JSON.stringify's
 * for any other.
 */
function writeEvent(event: SandboxEvent): string {
  const { data } = event
  const object = objectJson(event.type, data.object)
  if (object === undefined) return JSON.stringify(event)
  const head = publishedEventHead(event)
  return head === undefined ? spliceJson(event as unknown as Record<string, unknown>, 'data', spliceJson(data, 'object', object)) : head + object + EVENT_TAIL
}

const EVENT_TAIL = '}}'
/** An event's type, time and account, most often those of an event before. */
const headTexts = new PlainTexts(3)

/**
 * An event's JSON up to its object's (`{"id":…,"data":{"object":`), for an event the publisher made:
 * its fields are known, in their order, and its `data` holds the object alone. None for any other.
 */
function publishedEventHead(event: SandboxEvent): string | undefined {
  if (!(event instanceof PublishedEvent)) return undefined
  const { id, type, created_at: createdAt, account_id: accountId } = event
  // Texts between their quotes in the template: quoting each on its own (jsonString) made two texts
  // more for each. One that needs escaping (never a generated id or time) is left to spliceJson.
  if (ESCAPED.test(id) || !headTexts.is(type, 0) || !headTexts.is(createdAt, 1) || !headTexts.is(accountId, 2)) return undefined
  return `{"id":"${id}","object":"event","type":"${type}","created_at":"${createdAt}","api_version":"v1","account_id":"${accountId}","data":{"object":`
}

/**
 * The JSON of an event's object, for the objects written by code of their own: a payment (its text
 * written once for its event and its answer, src/payment-json.ts) and an order in an order event.
 */
function objectJson(type: string, object: unknown): string | undefined {
  if (object instanceof PresentedPayment) return paymentJson(object)
  if (type.startsWith('order.') && isOrder(object)) return orderJson(object)
  return undefined
}
