import type { IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { verificationError } from '../standard-webhooks.js'
import type { EventMatch, SandboxEvent } from './control-types.js'

/** One request the receiver got, verified or not. */
export interface ReceivedDelivery {
  /** The parsed body (undefined when it was not JSON). */
  event: SandboxEvent | undefined
  /** The body exactly as it came. */
  body: string
  headers: IncomingHttpHeaders
  /** Whether the Standard Webhooks signature verified; the receiver answered 200 if so, 400 if not. */
  verified: boolean
  /** Why it did not verify. */
  error?: string
}

export interface WebhookReceiverOptions {
  /** The endpoint's `whsec_` secret; may also be set later, once the endpoint is created (`receiver.secret = …`). */
  secret?: string
  /** Default 127.0.0.1; `0.0.0.0` for a sandbox in a container to reach it (then give it the host's address). */
  host?: string
  /** Default 0: a free port. */
  port?: number
}

export interface WebhookReceiver {
  /** Where to point a webhook endpoint: `http://127.0.0.1:<port>/webhooks`. */
  url: string
  secret: string | undefined
  /** Every request so far, in arrival order, the refused ones included. */
  readonly received: ReceivedDelivery[]
  /**
   * The first verified delivery, already received or still to come, whose event `match` selects (a
   * predicate, or a type and object id). Rejects after `timeoutMs` (default 10 s) with a message
   * saying what it waited for and what did arrive.
   */
  waitFor(match: ((event: SandboxEvent) => boolean) | Pick<EventMatch, 'type' | 'object_id'>, options?: { timeoutMs?: number }): Promise<SandboxEvent>
  close(): Promise<void>
}

/**
 * A local HTTP server that receives webhook deliveries and verifies every one (Standard Webhooks,
 * HMAC-SHA256): a test of an application's webhook handling needs no other package. A delivery that
 * does not verify is answered 400, with the reason, and recorded as such; `waitFor` never returns it.
 */
export async function createWebhookReceiver(options: WebhookReceiverOptions = {}): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = []
  const waiters = new Set<() => void>()

  // node:http loaded when a receiver is made, not with the library: a start needs none of it (src/status-text.ts).
  const server = process.getBuiltinModule('node:http').createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      const error = receiver.secret === undefined
        ? 'the receiver has no secret to verify with (createWebhookReceiver({ secret }) or receiver.secret = …)'
        : verificationError(receiver.secret, req.headers, body, Math.floor(Date.now() / 1000))
      received.push({ event: parse(body), body, headers: req.headers, verified: error === undefined, ...(error === undefined ? {} : { error }) })
      res.writeHead(error === undefined ? 200 : 400, { 'content-type': 'text/plain; charset=utf-8' }).end(error ?? 'ok')
      for (const wake of waiters) wake()
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve)
  })
  const { address, port } = server.address() as AddressInfo
  const host = address === '0.0.0.0' || address === '::' ? '127.0.0.1' : address.includes(':') ? `[${address}]` : address

  const receiver: WebhookReceiver = {
    url: `http://${host}:${port}/webhooks`,
    secret: options.secret,
    received,
    waitFor(match, { timeoutMs = 10_000 } = {}) {
      const selects = typeof match === 'function' ? match : matcher(match)
      const found = () => received.find((delivery) => delivery.verified && delivery.event && selects(delivery.event))?.event
      return new Promise((resolve, reject) => {
        const check = () => {
          const event = found()
          if (!event) return
          settle()
          resolve(event)
        }
        const timer = setTimeout(() => {
          settle()
          reject(new Error(describeTimeout(match, timeoutMs, received)))
        }, timeoutMs)
        const settle = () => {
          clearTimeout(timer)
          waiters.delete(check)
        }
        waiters.add(check)
        check()
      })
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
  return receiver
}

function parse(body: string): SandboxEvent | undefined {
  try {
    return JSON.parse(body) as SandboxEvent
  } catch {
    return undefined
  }
}

const matcher = ({ type, object_id }: Pick<EventMatch, 'type' | 'object_id'>) => (event: SandboxEvent) =>
  (type === undefined || [type].flat().some((wanted) => (wanted.endsWith('.*') ? event.type.startsWith(wanted.slice(0, -1)) : event.type === wanted))) &&
  (object_id === undefined || (event.data.object as { id?: string }).id === object_id)

function describeTimeout(match: Parameters<WebhookReceiver['waitFor']>[0], timeoutMs: number, received: ReceivedDelivery[]): string {
  const wanted = typeof match === 'function' ? 'a delivery the predicate accepts' : `a ${match.type === undefined ? '' : `${[match.type].flat().join(' or ')} `}delivery${match.object_id ? ` of ${match.object_id}` : ''}`
  if (received.length === 0) return `Waited ${timeoutMs} ms for ${wanted}; nothing arrived.`
  const arrived = received.slice(-10).map((delivery) => `${delivery.event?.type ?? 'not JSON'} ${(delivery.event?.data?.object as { id?: string } | undefined)?.id ?? ''}${delivery.verified ? '' : ` (refused: ${delivery.error})`}`.replace(/ +/g, ' ').trim())
  return `Waited ${timeoutMs} ms for ${wanted}; ${received.length} arrived, the last: ${arrived.join(', ')}.`
}
