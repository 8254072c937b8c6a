import { afterEach, expect, it } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'
import { connectStream, streamUrl, type StreamClient } from '../helpers/stream-client.js'

/** The `prices` channel shows pinned prices, from the next tick on; a pin itself sends nothing (CONTRACT.md section 19). */

let sb: TestSandbox
let c: StreamClient | undefined
afterEach(async () => {
  c?.close()
  c = undefined
  await sb?.close()
})

/** Lets the clock's deferred tick run after an advance. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve))

it('sends pinned prices on the next tick and in a new subscription, and nothing when a pin changes', async () => {
  sb = await startTestSandbox()
  c = await connectStream(streamUrl(sb.url))
  c.send({ action: 'subscribe', channel: 'prices', pairs: ['ETH/USD', 'ETH/USDC'] })
  await c.take(3)

  await sb.api.post('/_sandbox/prices').send({ pair: 'ETH/USD', price: '3000', spread_bp: 0 }).expect(201)
  await sb.api.post('/_sandbox/prices').send({ pair: 'USDC/USD', price: '1', spread_bp: 0 }).expect(201)
  expect(await c.drain()).toEqual([])

  await sb.sandbox.clock.advance(1000)
  await settle()
  expect((await c.drain()).map(({ pair, price, bid, ask }) => ({ pair, price, bid, ask }))).toEqual([
    { pair: 'ETH/USD', price: '3000.00', bid: '3000.00', ask: '3000.00' },
    { pair: 'ETH/USDC', price: '3000.00', bid: '3000.00', ask: '3000.00' },
  ])

  const late = await connectStream(streamUrl(sb.url))
  try {
    late.send({ action: 'subscribe', channel: 'prices', pairs: ['ETH/USDC'] })
    const [, first] = await late.take(2)
    expect(first).toMatchObject({ type: 'price', pair: 'ETH/USDC', price: '3000.00', timestamp: '2026-01-01T00:00:01.000Z' })
  } finally {
    late.close()
  }
})

it('sends an account’s own pinned prices to a connection with that account’s key, and the others the feed', async () => {
  sb = await startTestSandbox()
  const A = 'sk_test_stream_pins_a'
  await sb.api.get('/v1/wallets').set(sb.auth(A)).expect(200)
  c = await connectStream(streamUrl(sb.url), { headers: { Authorization: `Bearer ${A}` } })
  const other = await connectStream(streamUrl(sb.url))
  try {
    for (const client of [c, other]) {
      client.send({ action: 'subscribe', channel: 'prices', pairs: ['ETH/USD'] })
      await client.take(2)
    }
    await sb.api.post('/_sandbox/prices').send({ pair: 'ETH/USD', price: '3000', spread_bp: 0, api_key: A }).expect(201)
    await sb.sandbox.clock.advance(1000)
    await settle()
    const [mine] = await c.drain()
    const [theirs] = await other.drain()
    expect(mine).toMatchObject({ pair: 'ETH/USD', price: '3000.00', timestamp: '2026-01-01T00:00:01.000Z' })
    expect(theirs).toMatchObject({ pair: 'ETH/USD', timestamp: '2026-01-01T00:00:01.000Z' })
    expect(theirs!.price).not.toBe('3000.00')
  } finally {
    other.close()
  }
})
