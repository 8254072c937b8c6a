import type { Socket } from 'node:net'
import type { WebSocket } from 'ws'
import { textFrame } from './frames.js'

/**
 * What the server sends to one client, with a bound on what it keeps for a client that does not read.
 *
 * - Price frames are droppable: while more than `highWaterBytes` wait in the socket's buffer, a new
 *   price frame only replaces the one kept for its pair, and the kept frames (the latest per pair)
 *   go out once the buffer has drained. Memory per client: the buffer plus one frame per pair.
 * - Everything else (wallet notifications, acknowledgements, errors, pongs) is always sent, until the
 *   buffer holds more than `maxBufferedBytes`: such a client is hopelessly behind and is closed with
 *   1013 (try again later).
 */
export interface OutboxLimits {
  /** Bytes waiting in the socket above which price ticks are held back (latest per pair kept). */
  highWaterBytes: number
  /** Bytes waiting in the socket above which the connection is closed with code 1013. */
  maxBufferedBytes: number
}

export const DEFAULT_OUTBOX_LIMITS: OutboxLimits = { highWaterBytes: 64 * 1024, maxBufferedBytes: 1024 * 1024 }

export const CLOSE_TOO_SLOW = 1013

export interface OutboxStats {
  bufferedBytes: number
  /** Price frames held back for a slow reader (at most one per pair). */
  heldPrices: number
  /** Price frames replaced by a newer one before they could be sent. */
  droppedPrices: number
  congested: boolean
}

/** Price frames for one client, built once and shared by every client with the same pairs. */
export interface PriceBatch {
  readonly pairs: readonly string[]
  /** One frame per pair (`frames.ts`), in the order of `pairs`. */
  readonly frames: readonly Buffer[]
  /** The frames one after the other: what a client that keeps up is sent, in a single write. */
  readonly joined: Buffer
}

export const priceBatch = (pairs: readonly string[], frames: readonly Buffer[]): PriceBatch => ({
  pairs,
  frames,
  joined: frames.length === 1 ? frames[0]! : Buffer.concat(frames),
})

export interface Outbox {
  sendPrices(batch: PriceBatch): void
  /** Runs `send` with the socket corked, so that the frames it sends leave in one write. */
  batch(send: () => void): void
  /** Forgets a held price frame (the client unsubscribed from the pair). */
  dropPrice(pair: string): void
  /** Wallet notifications and replies, a message or a built frame: never dropped, but bounded by `maxBufferedBytes`. */
  send(message: Buffer | object): void
  stats(): OutboxStats
}

/**
 * Frames are written straight to the connection's TCP socket, whole (`frames.ts`): the same buffer
 * goes to every client, and nothing is framed or copied per client. ws writes its own frames (pings,
 * the close frame) to that socket synchronously too, as the stream negotiates no compression, so
 * frames never interleave. `bufferedAmount` counts what waits in that socket either way.
 */
export function createOutbox(socket: WebSocket, limits: OutboxLimits): Outbox {
  const raw = (socket as unknown as { _socket: Socket })._socket
  const held = new Map<string, Buffer>()
  let congested = false
  let droppedPrices = 0
  const open = () => socket.readyState === socket.OPEN && !raw.destroyed

  /** Runs when a frame written while congested has left the process: everything before it has too. */
  const onFlushed = (error?: Error | null) => {
    if (error || !congested || !open()) return
    if (socket.bufferedAmount > limits.highWaterBytes) return
    congested = false
    const frames = [...held.values()]
    held.clear()
    if (frames.length > 0) write(Buffer.concat(frames))
  }

  function write(frames: Buffer): void {
    if (socket.bufferedAmount + frames.length > limits.highWaterBytes) {
      // This write is the one to watch: its callback tells when the buffer has drained.
      congested = true
      raw.write(frames, onFlushed)
    } else {
      raw.write(frames)
    }
  }

  return {
    sendPrices(batch) {
      if (!open()) return
      if (!congested) {
        write(batch.joined)
        return
      }
      batch.pairs.forEach((pair, index) => {
        if (held.has(pair)) droppedPrices++
        held.set(pair, batch.frames[index]!)
      })
    },
    batch(send) {
      // cork() nests with ws's own.
      raw.cork()
      try {
        send()
      } finally {
        raw.uncork()
      }
    },
    dropPrice(pair) {
      held.delete(pair)
    },
    send(message) {
      if (!open()) return
      const frame = Buffer.isBuffer(message) ? message : textFrame(JSON.stringify(message))
      if (socket.bufferedAmount + frame.length > limits.maxBufferedBytes) {
        held.clear()
        socket.close(CLOSE_TOO_SLOW, 'Client too slow: it stopped reading the stream')
        return
      }
      write(frame)
    },
    stats: () => ({ bufferedBytes: socket.bufferedAmount, heldPrices: held.size, droppedPrices, congested }),
  }
}
