// bench:orders' subscriber to the `orders` channel, in a process of its own so that it reads while
// the bench runs a tick (a client in the same thread could read only between ticks, and the
// sandbox closes a client that leaves more than a megabyte unread), and so that the bench's CPU
// figures are the sandbox's alone. It counts the frames and bytes it gets, without parsing them,
// and reports them (over IPC), and the close code if it was closed. Arguments: the stream's URL, the API key.
import WebSocket from 'ws'

const [url, key] = process.argv.slice(2)
const parentPort = { postMessage: (message) => process.send(message) }
const ws = new WebSocket(url, { headers: { Authorization: `Bearer ${key}` } })
const counts = { frames: 0, bytes: 0, closed: null }
ws.on('open', () => ws.send(JSON.stringify({ action: 'subscribe', channel: 'orders' })))
ws.on('message', (data) => {
  counts.frames++
  counts.bytes += data.length
  // The acknowledgement, then the snapshot of the open orders: from here on, every frame is an event.
  if (counts.frames === 2) parentPort.postMessage({ ready: true })
})
ws.on('close', (code) => {
  counts.closed = code
  parentPort.postMessage({ ...counts })
})
ws.on('error', (error) => parentPort.postMessage({ error: String(error) }))
process.on('message', () => parentPort.postMessage({ ...counts }))
process.on('disconnect', () => process.exit(0))
