import type { ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { NextFunction, Request, Response } from 'express'

/**
 * Requests one connection may have waiting for their answers. HTTP/1.1 lets a client send requests
 * without reading the answers (pipelining); node parses and dispatches a whole chunk of them at
 * once. Requests beyond this depth are not run: the connection closes once the ones before them are
 * answered, and a pipelining client sends the unanswered ones again (RFC 9112, section 9.3.2).
 */
export const MAX_PIPELINED = 8

interface Connection {
  /** Requests admitted whose answers have not closed yet. */
  waiting: number
  /** Past the depth: closes once `waiting` is back to 0. */
  closing: boolean
}
const connections = new WeakMap<Socket, Connection>()

/**
 * Bounds pipelining, and runs a connection's pipelined requests one at a time: each once its answer
 * has the connection, which node gives it when every answer before it has gone out whole to the
 * operating system. node sends the answers in order anyway, so a client sees no difference; but one
 * that never reads no longer gets its requests run and their answers kept in memory for it: the
 * next request waits, and costs nothing, until the client reads or `--send-timeout` closes the
 * connection.
 */
export function limitPipelining(alsoOnClose?: (this: ServerResponse) => void): (req: Request, res: Response, next: NextFunction) => void {
  // One 'close' listener a response, not one here and one for the request journal: a second makes
  // node keep the listeners in an array, made for each response and copied again to emit the event.
  const onClose = alsoOnClose === undefined ? answered : function (this: ServerResponse) {
    answered.call(this)
    alsoOnClose.call(this)
  }
  return (req, res, next) => admit(req, res, next, onClose)
}

function admit(req: Request, res: Response, next: NextFunction, onClose: (this: ServerResponse) => void): void {
  const socket = req.socket
  let connection = connections.get(socket)
  if (!connection) connections.set(socket, (connection = { waiting: 0, closing: false }))
  // Dispatched from a connection that is already gone or closing: nobody would get the answer.
  if (socket.destroyed || connection.closing) return
  if (connection.waiting >= MAX_PIPELINED) {
    connection.closing = true
    return
  }
  connection.waiting++
  // `on`, not `once`: 'close' comes once, and `once` wraps each listener in an object of its own.
  res.on('close', onClose)
  if ((res as ServerResponse).socket) return next()
  // A pipelined answer waits in node's queue without a socket until its turn (ServerResponse's
  // 'socket' event, emitted while node hands it over: the request runs just after); a connection
  // lost before that never gives it one, and the request is not run.
  res.once('socket', () => {
    process.nextTick(() => {
      if (!socket.destroyed) next()
    })
  })
}

/** A request's answer has closed: the next may run; the last of a connection past the depth closes it. One listener for every response, not one made per request. */
function answered(this: ServerResponse): void {
  const socket = this.req.socket
  const connection = connections.get(socket)!
  connection.waiting--
  if (connection.waiting === 0 && connection.closing) socket.destroySoon()
}
