import { afterEach, expect, it } from 'vitest'
import { connectStream, streamUrl, type StreamClient } from '../helpers/stream-client.js'
import { DEFAULT_KEY, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

/**
 * Many idle WebSocket connections (issue 16; 10,000 in `npm run bench:hostile`): the server keeps
 * answering REST and streaming to active clients, and forgets every idle client once it leaves.
 */
let sb: TestSandbox | undefined
const clients: StreamClient[] = []
afterEach(async () => {
  for (const client of clients.splice(0)) client.close()
  await sb?.close()
  sb = undefined
})

it('200 idle connections: REST and an active subscriber are served, and all of them are forgotten once closed', async () => {
  sb = await startTestSandbox()
  const url = streamUrl(sb.url)
  for (let batch = 0; batch < 2; batch++) {
    const opened = await Promise.all(Array.from({ length: 100 }, (_, i) => connectStream(i % 2 === 0 ? url : `${url}?api_key=${DEFAULT_KEY}`)))
    clients.push(...opened)
  }
  expect(sb.sandbox.stream.stats().connections).toBe(200)

  await sb.api.get('/v1/wallets?limit=1').set(sb.auth()).expect(200)
  const active = await connectStream(url)
  clients.push(active)
  active.send({ action: 'subscribe', channel: 'prices', pairs: ['ETH/USD'] })
  await active.next((m) => m.type === 'price')
  await sb.api.post('/_sandbox/clock/advance').send({ ms: 3000 }).expect(200)
  const ticks = (await active.drain()).filter((m) => m.type === 'price')
  expect(ticks).toHaveLength(3)
  // The idle ones were sent nothing: they subscribed to nothing.
  expect(clients.slice(0, 200).every((client) => client.messages.length === 0)).toBe(true)

  for (const client of clients.splice(0)) client.close()
  await expect.poll(() => sb!.sandbox.stream.stats().connections, { timeout: 10_000 }).toBe(0)
  expect(sb.sandbox.stream.stats()).toMatchObject({ connections: 0, priceSubscriptions: 0, clients: [] })
  await sb.api.get('/v1/wallets?limit=1').set(sb.auth()).expect(200)
}, 60_000)
