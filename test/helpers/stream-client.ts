import WebSocket, { type ClientOptions } from 'ws'

/** A server frame of the stream, parsed. */
export type StreamMessage = { type: string; [field: string]: unknown }

export interface StreamClient {
  ws: WebSocket
  /** Every message received so far, in order. */
  messages: StreamMessage[]
  /** Raw text of every message, for byte-for-byte comparisons. */
  raw: string[]
  /** Resolves with the next message not yet taken that matches (default: any). */
  next(match?: (message: StreamMessage) => boolean, timeoutMs?: number): Promise<StreamMessage>
  /** Takes `count` messages in order. */
  take(count: number, timeoutMs?: number): Promise<StreamMessage[]>
  send(message: unknown): void
  /**
   * Sends `{"action": "ping"}` and resolves with every message received before the pong: since the
   * server answers in order, this is "everything the server had sent", without sleeping.
   */
  drain(timeoutMs?: number): Promise<StreamMessage[]>
  /** Resolves with the close code and reason. */
  closed: Promise<{ code: number; reason: string }>
  close(): void
}

/** `http://127.0.0.1:1234` → `ws://127.0.0.1:1234/v1/stream` + query. */
export const streamUrl = (httpUrl: string, query = '') => `${httpUrl.replace(/^http/, 'ws')}/v1/stream${query}`

/** Opens a stream connection and resolves once it is open (rejects on a refused upgrade). */
export function connectStream(url: string, options: ClientOptions & { protocols?: string | string[] } = {}): Promise<StreamClient> {
  const { protocols, ...rest } = options
  const ws = new WebSocket(url, protocols, rest)
  const messages: StreamMessage[] = []
  const raw: string[] = []
  let taken = 0
  let wake: (() => void) | undefined
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })))
  ws.on('message', (data) => {
    const text = data.toString()
    raw.push(text)
    messages.push(JSON.parse(text) as StreamMessage)
    wake?.()
  })
  ws.on('close', () => wake?.())

  async function next(match: (message: StreamMessage) => boolean = () => true, timeoutMs = 5000): Promise<StreamMessage> {
    const deadline = setTimeout(() => wake?.(), timeoutMs)
    const started = Date.now()
    try {
      for (;;) {
        while (taken < messages.length) {
          const message = messages[taken++]!
          if (match(message)) return message
        }
        if (ws.readyState === WebSocket.CLOSED) throw new Error(`stream closed while waiting; got ${JSON.stringify(messages.slice(-3))}`)
        if (Date.now() - started >= timeoutMs) throw new Error(`no matching stream message within ${timeoutMs} ms; last: ${JSON.stringify(messages.slice(-3))}`)
        await new Promise<void>((resolve) => (wake = resolve))
      }
    } finally {
      clearTimeout(deadline)
    }
  }

  const client: StreamClient = {
    ws,
    messages,
    raw,
    next,
    async take(count, timeoutMs) {
      const out: StreamMessage[] = []
      for (let i = 0; i < count; i++) out.push(await next(undefined, timeoutMs))
      return out
    },
    send: (message) => ws.send(typeof message === 'string' ? message : JSON.stringify(message)),
    async drain(timeoutMs) {
      ws.send(JSON.stringify({ action: 'ping' }))
      const before: StreamMessage[] = []
      for (;;) {
        const message = await next(undefined, timeoutMs)
        if (message.type === 'pong') return before
        before.push(message)
      }
    },
    closed,
    close: () => ws.close(),
  }
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(client))
    ws.once('error', reject)
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused with HTTP ${res.statusCode}`)))
  })
}

/** Attempts an upgrade that should be refused; resolves with the HTTP status, headers and JSON body. */
export function refusedUpgrade(url: string, options: ClientOptions & { protocols?: string | string[] } = {}) {
  const { protocols, ...rest } = options
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: any }>((resolve, reject) => {
    const ws = new WebSocket(url, protocols, rest)
    ws.once('open', () => {
      ws.terminate()
      reject(new Error('the upgrade was accepted'))
    })
    ws.once('error', () => {})
    ws.once('unexpected-response', (_req, res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text === '' ? undefined : JSON.parse(text) }))
    })
  })
}
