import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders
  /** The raw body, exactly as sent. */
  body: string
  /** The parsed event. */
  event: { id: string; type: string; created_at: string; account_id: string; data: { object: { id: string; status: string } } }
  /** What `standardwebhooks` said about the signature (null: verified). */
  verifyError: string | null
}

/** How the receiver answers the n-th request (0-based): a status, a status and body, or `hang` (never answers). */
export type Responder = (n: number, received: ReceivedWebhook) => number | { status: number; body: string } | 'hang'

export interface WebhookReceiver {
  url: string
  received: ReceivedWebhook[]
  /** The secret every request is verified with, once known. */
  secret: string | undefined
  respond: Responder
  /** Resolves once `count` requests have arrived in all. */
  waitFor(count: number): Promise<ReceivedWebhook[]>
  close(): Promise<void>
}

/**
 * A real HTTP server on port 0 that records every webhook and verifies it with the
 * `standardwebhooks` package (an implementation independent of the sandbox's).
 */
export async function startWebhookReceiver(options: { secret?: string; respond?: Responder } = {}): Promise<WebhookReceiver> {
  const waiters: Array<{ count: number; resolve: (list: ReceivedWebhook[]) => void }> = []
  const hanging: ServerResponse[] = []
  const receiver: WebhookReceiver = {
    url: '',
    received: [],
    secret: options.secret,
    respond: options.respond ?? (() => 200),
    waitFor(count) {
      if (receiver.received.length >= count) return Promise.resolve(receiver.received)
      return new Promise((resolve) => waiters.push({ count, resolve }))
    },
    async close() {
      for (const res of hanging) res.destroy()
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeAllConnections()
      await closed
    },
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      let verifyError: string | null = 'no secret to verify with'
      if (receiver.secret) {
        try {
          new Webhook(receiver.secret).verify(body, req.headers as Record<string, string>)
          verifyError = null
        } catch (error) {
          verifyError = (error as Error).message
        }
      }
      const entry: ReceivedWebhook = { headers: req.headers, body, event: JSON.parse(body), verifyError }
      const n = receiver.received.push(entry) - 1
      const answer = receiver.respond(n, entry)
      if (answer === 'hang') hanging.push(res)
      else {
        const { status, body: text } = typeof answer === 'number' ? { status: answer, body: `status ${answer}` } : answer
        res.writeHead(status, { 'content-type': 'text/plain' }).end(text)
      }
      for (const waiter of [...waiters]) {
        if (receiver.received.length >= waiter.count) {
          waiters.splice(waiters.indexOf(waiter), 1)
          waiter.resolve(receiver.received)
        }
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`
  return receiver
}

/** A URL where nothing listens: a port that was free a moment ago. */
export async function refusedUrl(): Promise<string> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return `http://127.0.0.1:${port}/hooks`
}
