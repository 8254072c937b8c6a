/**
 * WebSocket frames built once and written as they are to any number of sockets (RFC 6455 section
 * 5.2). A server's frames are never masked, and the stream negotiates no compression, so a text
 * frame is a fixed header and the UTF-8 text: the same bytes `ws` writes for `send(text)`, without
 * `ws` framing them again for every socket.
 */

const FIN_TEXT = 0x81

/** The text frame carrying `text`: header and payload in one buffer. */
export function textFrame(text: string): Buffer {
  const length = Buffer.byteLength(text)
  const head = length < 126 ? 2 : length < 65_536 ? 4 : 10
  const frame = Buffer.allocUnsafe(head + length)
  frame[0] = FIN_TEXT
  if (head === 2) frame[1] = length
  else if (head === 4) {
    frame[1] = 126
    frame.writeUInt16BE(length, 2)
  } else {
    frame[1] = 127
    frame.writeBigUInt64BE(BigInt(length), 2)
  }
  frame.write(text, head, 'utf8')
  return frame
}

/** The text a frame built by `textFrame` carries. */
export function frameText(frame: Buffer): string {
  const head = frame[1] === 126 ? 4 : frame[1] === 127 ? 10 : 2
  return frame.toString('utf8', head)
}
