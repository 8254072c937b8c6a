import { connect, type Socket } from 'node:net'

/**
 * A race harness: requests that reach the server at the same moment, for tests of what concurrent
 * clients can and cannot do to one resource (payments from one wallet, one Idempotency-Key, an
 * order's cancel against its fill…).
 *
 * Each request gets its own connection and is written whole but for its last byte; once every
 * connection holds its request, the last bytes go out in one turn of the event loop ("last-byte
 * sync"). The server then parses them all in the same few turns, which is as close to simultaneous
 * as one process gets, whatever the machine's load while the requests were being written.
 */
export interface RaceRequest {
  method: string
  /** Path and query: `/v1/payments`. */
  path: string
  headers?: Record<string, string>
  /** Sent as JSON. */
  body?: unknown
}

export interface RaceAnswer {
  status: number
  /** Lower-case names. */
  headers: Record<string, string>
  /** The raw body text, byte for byte. */
  text: string
  /** The body parsed as JSON (undefined when it is not JSON). */
  body: any
}

/** Connections opened at a time: the server's listen backlog (511 by default) must never overflow. */
const CONNECT_BATCH = 100

export async function race(baseUrl: string, requests: RaceRequest[]): Promise<RaceAnswer[]> {
  const { hostname, port } = new URL(baseUrl)
  // Indexed like `requests`, so that answers come back in the order of the requests.
  const pending: Array<{ socket: Socket; last: Buffer; answer: Promise<RaceAnswer> }> = []
  const sockets: Socket[] = []
  try {
    for (let start = 0; start < requests.length; start += CONNECT_BATCH) {
      const batch = requests.slice(start, start + CONNECT_BATCH).map(async (request, i) => {
        const socket = connect({ host: hostname, port: Number(port) })
        sockets.push(socket)
        socket.setNoDelay(true)
        const answer = readAnswer(socket)
        answer.catch(() => {})
        await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject))
        const bytes = serialise(request, `${hostname}:${port}`)
        await new Promise<void>((resolve, reject) => socket.write(bytes.subarray(0, -1), (error) => (error ? reject(error) : resolve())))
        pending[start + i] = { socket, last: bytes.subarray(-1), answer }
      })
      await Promise.all(batch)
    }
    // Every connection holds all but one byte of its request: release them together.
    for (const { socket, last } of pending) socket.write(last)
    return await Promise.all(pending.map((entry) => entry.answer))
  } finally {
    for (const socket of sockets) socket.destroy()
  }
}

/** How many answers had each `status code` (`201`, `422 insufficient_funds`): the usual assertion of a race. */
export function tally(answers: RaceAnswer[]): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const answer of answers) {
    const code = answer.body?.error?.code
    const label = code ? `${answer.status} ${code}` : String(answer.status)
    counts[label] = (counts[label] ?? 0) + 1
  }
  return counts
}

function serialise(request: RaceRequest, host: string): Buffer {
  const body = request.body === undefined ? '' : JSON.stringify(request.body)
  const headers: Record<string, string> = {
    host,
    connection: 'close',
    ...(body ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {}),
    ...request.headers,
  }
  const head = [`${request.method.toUpperCase()} ${request.path} HTTP/1.1`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)]
  return Buffer.from(`${head.join('\r\n')}\r\n\r\n${body}`)
}

/** The whole answer of a `Connection: close` exchange (the sandbox always sends Content-Length). */
function readAnswer(socket: Socket): Promise<RaceAnswer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.once('error', reject)
    socket.once('end', () => {
      const raw = Buffer.concat(chunks)
      const split = raw.indexOf('\r\n\r\n')
      if (split === -1) return reject(new Error(`the server closed the connection without a complete answer (${raw.length} bytes)`))
      const [statusLine = '', ...lines] = raw.subarray(0, split).toString('latin1').split('\r\n')
      const headers: Record<string, string> = {}
      for (const line of lines) {
        const colon = line.indexOf(':')
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
      }
      const text = raw.subarray(split + 4).toString('utf8')
      let body: unknown
      try {
        body = JSON.parse(text)
      } catch {
        body = undefined
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, text, body })
    })
  })
}
