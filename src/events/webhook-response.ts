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

/**
 * One answer's reader (a class: an attempt makes one, and its methods are shared, not closures made
 * per attempt).
 */
export class ResponseReader {
  private stage: Stage = 'head'
  private pending: Buffer | undefined
  private code = 0
  private keep = false
  /** Bytes left in the body (Content-Length) or in the current chunk. */
  private remaining = 0
  private readonly chunks: Buffer[] = []
  private size = 0

  constructor(private readonly maxBodyBytes: number) {}

  /** The status, 0 until the head is in. */
  get status(): number {
    return this.stage === 'head' ? 0 : this.code
  }

  /** Whether the connection may carry the next request once the answer is complete. */
  get keepAlive(): boolean {
    return this.keep
  }

  /** Takes the next bytes; true once the answer is complete (or its body has `maxBodyBytes`). Throws MalformedAnswer. */
  push(chunk: Buffer): boolean {
    this.pending = this.pending === undefined || this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk])
    const complete = this.advance()
    if (this.size >= this.maxBodyBytes) {
      this.keep = false
      return true
    }
    // Bytes beyond the answer: not a connection to send the next delivery on.
    if (complete && this.pending !== undefined && this.pending.length > 0) this.keep = false
    return complete
  }

  /** The connection closed: true when that ends the answer (a body that runs to the close). */
  closed(): boolean {
    this.keep = false
    return this.stage === 'until-close'
  }

  /** The body read so far (at most a chunk beyond `maxBodyBytes`), as UTF-8. */
  body(): string {
    const { chunks } = this
    return chunks.length === 0 ? '' : chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8')
  }

  private take(bytes: Buffer): void {
    this.chunks.push(bytes)
    this.size += bytes.length
  }

  /** Reads the head at the front of `pending`; false while it is not all in. */
  private readHead(): boolean {
    const pending = this.pending!
    const end = pending.indexOf('\r\n\r\n')
    if (end < 0) {
      if (pending.length > MAX_HEAD_BYTES) throw new MalformedAnswer('the receiver answered with a head larger than 16 KB')
      return false
    }
    const lines = pending.toString('latin1', 0, end).split(CRLF)
    this.pending = pending.subarray(end + 4)
    const statusLine = STATUS_LINE.exec(lines[0]!)
    if (!statusLine) throw new MalformedAnswer(`the receiver's answer is not HTTP/1.x: ${JSON.stringify(lines[0]!.slice(0, 60))}`)
    const status = Number(statusLine[2])
    let length: string | undefined
    let transfer: string | undefined
    let connection = ''
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i]!
      const colon = line.indexOf(':')
      if (colon <= 0) throw new MalformedAnswer(`the receiver's answer has a malformed header line: ${JSON.stringify(line.slice(0, 60))}`)
      const name = line.slice(0, colon).trim().toLowerCase()
      if (name === 'content-length') {
        const value = line.slice(colon + 1).trim()
        if (!/^\d+$/.test(value) || (length !== undefined && length !== value)) throw new MalformedAnswer(`the receiver's answer has an invalid Content-Length: ${JSON.stringify(value.slice(0, 60))}`)
        length = value
      } else if (name === 'transfer-encoding') {
        const value = line.slice(colon + 1).trim()
        transfer = transfer === undefined ? value : `${transfer}, ${value}`
      } else if (name === 'connection') connection += `${line.slice(colon + 1).trim().toLowerCase()},`
    }
    // 1xx answers are interim (100 Continue, 103 Early Hints): the real one follows.
    if (status >= 100 && status < 200 && status !== 101) return true
    this.code = status
    let keep = statusLine[1] === '1' ? !/(^|[\s,])close\s*,/.test(connection) : /(^|[\s,])keep-alive\s*,/.test(connection)
    if (status === 101 || status === 204 || status === 304) {
      keep &&= status !== 101
      this.stage = 'done'
    } else if (transfer !== undefined) {
      const chunked = /(^|,)\s*chunked\s*$/i.test(transfer)
      this.stage = chunked ? 'chunk-size' : 'until-close'
      keep &&= chunked
    } else if (length !== undefined) {
      this.remaining = Number(length)
      this.stage = this.remaining === 0 ? 'done' : 'length'
    } else {
      this.stage = 'until-close'
      keep = false
    }
    this.keep = keep
    return true
  }

  /** Reads a line at the front of `pending` (without its CRLF), or undefined while it is not all in. */
  private line(): string | undefined {
    const pending = this.pending!
    const end = pending.indexOf(CRLF)
    if (end < 0) {
      if (pending.length > MAX_HEAD_BYTES) throw new MalformedAnswer('the receiver answered with a chunk line larger than 16 KB')
      return undefined
    }
    this.pending = pending.subarray(end + 2)
    return pending.toString('latin1', 0, end)
  }

  /** Moves through `pending` as far as it goes; true once the answer is complete. */
  private advance(): boolean {
    for (;;) {
      if (this.stage === 'done') return true
      const pending = this.pending
      if (pending === undefined || pending.length === 0) return false
      switch (this.stage) {
        case 'head':
          // After an interim answer the stage is still 'head': the next head follows.
          if (!this.readHead()) return false
          break
        case 'length':
        case 'chunk-data': {
          const bytes = pending.length <= this.remaining ? pending : pending.subarray(0, this.remaining)
          this.take(bytes)
          this.remaining -= bytes.length
          this.pending = pending.subarray(bytes.length)
          if (this.remaining === 0) this.stage = this.stage === 'length' ? 'done' : 'chunk-end'
          break
        }
        case 'chunk-size': {
          const text = this.line()
          if (text === undefined) return false
          const hex = text.split(';', 1)[0]!.trim()
          if (!/^[0-9a-fA-F]{1,12}$/.test(hex)) throw new MalformedAnswer(`the receiver's chunked answer has an invalid chunk size: ${JSON.stringify(hex.slice(0, 60))}`)
          this.remaining = parseInt(hex, 16)
          this.stage = this.remaining === 0 ? 'trailers' : 'chunk-data'
          break
        }
        case 'chunk-end':
          if (pending.length < 2) return false
          if (pending[0] !== 13 || pending[1] !== 10) throw new MalformedAnswer("the receiver's chunked answer has a chunk without its CRLF")
          this.pending = pending.subarray(2)
          this.stage = 'chunk-size'
          break
        case 'trailers': {
          const text = this.line()
          if (text === undefined) return false
          if (text === '') this.stage = 'done'
          break
        }
        case 'until-close':
          this.take(pending)
          this.pending = undefined
          return false
      }
    }
  }
}
