/**
 * Reads a receiver's HTTP/1.1 answer to a webhook, from the bytes as they arrive on the connection:
 * its status, where its body ends (Content-Length, chunked, or the connection's close), whether the
 * connection may carry the next delivery, and the start of its body for the delivery log. Interim
 * 1xx answers are skipped. The transport (`webhook-http.ts`) does the rest; this knows no sockets.
 */

/** The most a head may take, as node's own HTTP parser allows (`--max-http-header-size`). */
const MAX_HEAD_BYTES = 16 * 1024
const STATUS_LINE = /^HTTP\/1\.([01]) (\d{3})(?: |$)/
const CRLF = '\r\n'

/** An answer that is not HTTP/1.x: the attempt fails with this message. */
export class MalformedAnswer extends Error {}

type Stage = 'head' | 'length' | 'chunk-size' | 'chunk-data' | 'chunk-end' | 'trailers' | 'until-close' | 'done'

export interface ResponseReader {
  /** Takes the next bytes; true once the answer is complete (or its body has `maxBodyBytes`). Throws MalformedAnswer. */
  push(chunk: Buffer): boolean
  /** The connection closed: true when that ends the answer (a body that runs to the close). */
  closed(): boolean
  /** The status, 0 until the head is in. */
  readonly status: number
  /** Whether the connection may carry the next request once the answer is complete. */
  readonly keepAlive: boolean
  /** The body read so far (at most a chunk beyond `maxBodyBytes`), as UTF-8. */
  body(): string
}

export function createResponseReader(maxBodyBytes: number): ResponseReader {
  let stage: Stage = 'head'
  let pending: Buffer | undefined
  let status = 0
  let keepAlive = false
  /** Bytes left in the body (Content-Length) or in the current chunk. */
  let remaining = 0
  const chunks: Buffer[] = []
  let size = 0

  function take(bytes: Buffer): void {
    chunks.push(bytes)
    size += bytes.length
  }

  /** Reads the head at the front of `pending`; false while it is not all in. */
  function readHead(): boolean {
    const end = pending!.indexOf('\r\n\r\n')
    if (end < 0) {
      if (pending!.length > MAX_HEAD_BYTES) throw new MalformedAnswer('the receiver answered with a head larger than 16 KB')
      return false
    }
    const lines = pending!.toString('latin1', 0, end).split(CRLF)
    pending = pending!.subarray(end + 4)
    const statusLine = STATUS_LINE.exec(lines[0]!)
    if (!statusLine) throw new MalformedAnswer(`the receiver's answer is not HTTP/1.x: ${JSON.stringify(lines[0]!.slice(0, 60))}`)
    status = Number(statusLine[2])
    let length: string | undefined
    let transfer: string | undefined
    let connection = ''
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i]!
      const colon = line.indexOf(':')
      if (colon <= 0) throw new MalformedAnswer(`the receiver's answer has a malformed header line: ${JSON.stringify(line.slice(0, 60))}`)
      const name = line.slice(0, colon).trim().toLowerCase()
      const value = line.slice(colon + 1).trim()
      if (name === 'content-length') {
        if (!/^\d+$/.test(value) || (length !== undefined && length !== value)) throw new MalformedAnswer(`the receiver's answer has an invalid Content-Length: ${JSON.stringify(value.slice(0, 60))}`)
        length = value
      } else if (name === 'transfer-encoding') transfer = transfer === undefined ? value : `${transfer}, ${value}`
      else if (name === 'connection') connection += `${value.toLowerCase()},`
    }
    // 1xx answers are interim (100 Continue, 103 Early Hints): the real one follows.
    if (status >= 100 && status < 200 && status !== 101) return true
    keepAlive = statusLine[1] === '1' ? !/(^|[\s,])close\s*,/.test(connection) : /(^|[\s,])keep-alive\s*,/.test(connection)
    if (status === 101 || status === 204 || status === 304) {
      keepAlive &&= status !== 101
      stage = 'done'
    } else if (transfer !== undefined) {
      const chunked = /(^|,)\s*chunked\s*$/i.test(transfer)
      stage = chunked ? 'chunk-size' : 'until-close'
      keepAlive &&= chunked
    } else if (length !== undefined) {
      remaining = Number(length)
      stage = remaining === 0 ? 'done' : 'length'
    } else {
      stage = 'until-close'
      keepAlive = false
    }
    return true
  }

  /** Reads a line at the front of `pending` (without its CRLF), or undefined while it is not all in. */
  function line(): string | undefined {
    const end = pending!.indexOf(CRLF)
    if (end < 0) {
      if (pending!.length > MAX_HEAD_BYTES) throw new MalformedAnswer('the receiver answered with a chunk line larger than 16 KB')
      return undefined
    }
    const text = pending!.toString('latin1', 0, end)
    pending = pending!.subarray(end + 2)
    return text
  }

  /** Moves through `pending` as far as it goes; true once the answer is complete. */
  function advance(): boolean {
    for (;;) {
      if (stage === 'done') return true
      if (pending === undefined || pending.length === 0) return false
      switch (stage) {
        case 'head':
          // After an interim answer the stage is still 'head': the next head follows.
          if (!readHead()) return false
          break
        case 'length':
        case 'chunk-data': {
          const bytes = pending.length <= remaining ? pending : pending.subarray(0, remaining)
          take(bytes)
          remaining -= bytes.length
          pending = pending.subarray(bytes.length)
          if (remaining === 0) stage = stage === 'length' ? 'done' : 'chunk-end'
          break
        }
        case 'chunk-size': {
          const text = line()
          if (text === undefined) return false
          const hex = text.split(';', 1)[0]!.trim()
          if (!/^[0-9a-fA-F]{1,12}$/.test(hex)) throw new MalformedAnswer(`the receiver's chunked answer has an invalid chunk size: ${JSON.stringify(hex.slice(0, 60))}`)
          remaining = parseInt(hex, 16)
          stage = remaining === 0 ? 'trailers' : 'chunk-data'
          break
        }
        case 'chunk-end':
          if (pending.length < 2) return false
          if (pending[0] !== 13 || pending[1] !== 10) throw new MalformedAnswer("the receiver's chunked answer has a chunk without its CRLF")
          pending = pending.subarray(2)
          stage = 'chunk-size'
          break
        case 'trailers': {
          const text = line()
          if (text === undefined) return false
          if (text === '') stage = 'done'
          break
        }
        case 'until-close':
          take(pending)
          pending = undefined
          return false
      }
    }
  }

  return {
    push(chunk) {
      pending = pending === undefined || pending.length === 0 ? chunk : Buffer.concat([pending, chunk])
      const complete = advance()
      if (size >= maxBodyBytes) {
        keepAlive = false
        return true
      }
      // Bytes beyond the answer: not a connection to send the next delivery on.
      if (complete && pending !== undefined && pending.length > 0) keepAlive = false
      return complete
    },
    closed() {
      keepAlive = false
      return stage === 'until-close'
    },
    get status() {
      return stage === 'head' ? 0 : status
    },
    get keepAlive() {
      return keepAlive
    },
    body: () => (chunks.length === 0 ? '' : chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8')),
  }
}
