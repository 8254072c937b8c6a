import type { Socket } from 'node:net'
import type { WebSocket } from 'ws'

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

export interface Outbox {
  sendPrice(pair: string, frame: Buffer): void
  /** Runs `send` with the socket corked, so that the frames it sends leave in one write. */
  batch(send: () => void): void
  /** Forgets a held price frame (the client unsubscribed from the pair). */
  dropPrice(pair: string): void
  /** Wallet notifications and replies: never dropped, but bounded by `maxBufferedBytes`. */
  send(frame: Buffer | object): void
  stats(): OutboxStats
}

const TEXT = { binary: false } as const

export function createOutbox(socket: WebSocket, limits: OutboxLimits): Outbox {
  const held = new Map<string, Buffer>()
  let congested = false
  let droppedPrices = 0

  /** Runs when a frame written while congested has left the process: everything before it has too. */
  const onFlushed = (error?: Error) => {
    if (error || !congested || socket.readyState !== socket.OPEN) return
    if (socket.bufferedAmount > limits.highWaterBytes) return
    congested = false
    const frames = [...held.values()]
    held.clear()
    for (const frame of frames) write(frame)
  }

  function write(frame: Buffer): void {
    if (socket.bufferedAmount + frame.length > limits.highWaterBytes) {
      // This frame is the one to watch: its callback tells when the buffer has drained.
      congested = true
      socket.send(frame, TEXT, onFlushed)
    } else {
      socket.send(frame, TEXT)
    }
  }

  return {
    sendPrice(pair, frame) {
      if (socket.readyState !== socket.OPEN) return
      if (congested) {
        if (held.has(pair)) droppedPrices++
        held.set(pair, frame)
        return
      }
      write(frame)
    },
    batch(send) {
      // ws has no public cork; its socket is a net.Socket, whose cork() nests with ws's own.
      const raw = (socket as unknown as { _socket?: Socket })._socket
      raw?.cork()
      try {
        send()
      } finally {
        raw?.uncork()
      }
    },
    dropPrice(pair) {
      held.delete(pair)
    },
    send(message) {
      if (socket.readyState !== socket.OPEN) return
      const frame = Buffer.isBuffer(message) ? message : Buffer.from(JSON.stringify(message))
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
