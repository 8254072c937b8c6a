import { afterEach, describe, expect, it } from 'vitest'
import { loadConfig, type ConfigInput } from '../../src/config.js'
import { silentLogger } from '../../src/logger.js'
import { createSandbox, type Sandbox } from '../../src/sandbox.js'
import type { StreamOptions } from '../../src/stream/ws.js'
import { DEFAULT_KEY, institutionalWallet, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'
import { connectStream, refusedUpgrade, streamUrl, type StreamClient, type StreamMessage } from '../helpers/stream-client.js'

const START = Date.parse('2026-01-01T00:00:00.000Z')
const EXTERNAL_POLYGON = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'
const ALL_PAIRS = ['ETH/USD', 'SOL/USD', 'MATIC/USD', 'XLM/USD', 'USDC/USD', 'USDT/USD', 'EUR/USD', 'GBP/USD', 'MXN/USD', 'ETH/USDC', 'SOL/USDC', 'MATIC/USDC', 'XLM/USDC', 'ETH/USDT', 'SOL/USDT', 'USDT/USDC', 'ETH/SOL', 'ETH/MATIC']

const open: Array<{ close(): unknown }> = []
const track = <T extends { close(): unknown }>(thing: T): T => {
  open.push(thing)
  return thing
}
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await thing.close()
})

async function sandbox(overrides: Partial<ConfigInput> = {}): Promise<TestSandbox> {
  return track(await startTestSandbox(overrides))
}

/** A sandbox with stream tuning (heartbeat, slow-reader limits), which the shared helper does not take. */
async function tunedSandbox(stream: Partial<StreamOptions>, overrides: Partial<ConfigInput> = {}): Promise<{ sandbox: Sandbox; url: string; close(): Promise<void> }> {
  const config = loadConfig({ flags: { port: 0, clock: 'manual', settle: 'manual', rateLimit: 0, quiet: true, seed: 'test', ...overrides } as never })
  const sb = await createSandbox(config, { logger: silentLogger, stream })
  const { url } = await sb.listen()
  return track({ sandbox: sb, url, close: () => sb.close() })
}

async function client(url: string, options: Parameters<typeof connectStream>[1] = {}): Promise<StreamClient> {
  return track(await connectStream(url, options))
}

const bearer = (key = DEFAULT_KEY) => ({ headers: { Authorization: `Bearer ${key}` } })
const prices = (messages: StreamMessage[]) => messages.filter((message) => message.type === 'price')
/** Lets the clock's deferred tick run after an advance. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve))

async function subscribePrices(c: StreamClient, pairs?: string[]) {
  c.send({ action: 'subscribe', channel: 'prices', ...(pairs ? { pairs } : {}) })
  const ack = await c.next()
  const snapshot = await c.take((pairs ?? ALL_PAIRS).length)
  return { ack, snapshot }
}

describe('stream: connecting', () => {
  it('accepts a connection without a key and sends prices only', async () => {
    const sb = await sandbox()
    const c = await client(streamUrl(sb.url))
    const { ack, snapshot } = await subscribePrices(c, ['ETH/USD', 'SOL/USD'])
    expect(ack).toEqual({ type: 'subscribed', channel: 'prices', pairs: ['ETH/USD', 'SOL/USD'] })
    expect(snapshot.map((m) => m.pair)).toEqual(['ETH/USD', 'SOL/USD'])
    c.send({ action: 'subscribe', channel: 'wallets' })
    const error = await c.next()
    expect(error).toMatchObject({ type: 'error', code: 'api_key_missing' })
    expect(error.message).toContain('bearer.<key>')
    expect(await c.drain()).toEqual([])
  })

  it.each([
    ['the Authorization header', (url: string) => ({ url, options: bearer() })],
    ['the api_key query parameter', (url: string) => ({ url: `${url}?api_key=${DEFAULT_KEY}`, options: {} })],
    ['the bearer.<key> subprotocol', (url: string) => ({ url, options: { protocols: [`bearer.${DEFAULT_KEY}`] } })],
  ])('authenticates with %s and can subscribe to wallets', async (_name, how) => {
    const sb = await sandbox()
    const { url, options } = how(streamUrl(sb.url))
    const c = await client(url, options)
    c.send({ action: 'subscribe', channel: 'wallets' })
    expect(await c.next()).toEqual({ type: 'subscribed', channel: 'wallets', wallet_ids: null })
  })

  it('echoes the bearer subprotocol so that browsers accept the connection', async () => {
    const sb = await sandbox()
    const c = await client(streamUrl(sb.url), { protocols: ['json', `bearer.${DEFAULT_KEY}`] })
    expect(c.ws.protocol).toBe(`bearer.${DEFAULT_KEY}`)
  })

  it('negotiates no compression when the client offers it, as ticks are framed once for every client', async () => {
    const sb = await sandbox()
    const c = await client(streamUrl(sb.url), { perMessageDeflate: true })
    await subscribePrices(c, ['ETH/USD', 'SOL/USD'])
    await sb.sandbox.clock.advance(1000)
    await settle()
    expect(prices(await c.drain()).map((m) => m.pair)).toEqual(['ETH/USD', 'SOL/USD'])
    expect(c.ws.extensions).toBe('')
  })

  it.each([
    ['an unknown key', bearer('sk_nonsense'), 401, 'api_key_invalid'],
    ['a live key', bearer('sk_live_abcdefgh12345'), 401, 'live_key_in_sandbox'],
    ['a malformed Authorization header', { headers: { Authorization: 'Basic abc' } }, 401, 'api_key_invalid'],
    ['a live key in the subprotocol', { protocols: ['bearer.sk_live_abcdefgh12345'] }, 401, 'live_key_in_sandbox'],
  ])('refuses the upgrade for %s with HTTP %i and the JSON error body', async (_name, options, status, code) => {
    const sb = await sandbox()
    const refused = await refusedUpgrade(streamUrl(sb.url), options)
    expect(refused.status).toBe(status)
    expect(refused.body).toMatchObject({ error: { type: 'authentication_error', code }, request_id: expect.stringMatching(/^req_/) })
    expect(refused.headers['x-request-id']).toBe(refused.body.request_id)
    if (code === 'live_key_in_sandbox') expect(refused.body.error.message).toContain('sk_test_')
  })

  it('refuses a live key given as ?api_key=', async () => {
    const sb = await sandbox()
    const refused = await refusedUpgrade(streamUrl(sb.url, '?api_key=sk_live_abcdefgh12345'))
    expect(refused.body.error.code).toBe('live_key_in_sandbox')
  })

  it('refuses keys unknown to strict auth', async () => {
    const sb = await sandbox({ auth: 'strict' })
    const refused = await refusedUpgrade(streamUrl(sb.url), bearer('sk_test_never_seen_before'))
    expect(refused.status).toBe(401)
    expect(refused.body.error.code).toBe('api_key_invalid')
  })

  it('refuses upgrades on any other path with 404 route_not_found', async () => {
    const sb = await sandbox()
    const refused = await refusedUpgrade(`${sb.url.replace('http', 'ws')}/v1/streams`)
    expect(refused.status).toBe(404)
    expect(refused.body.error).toMatchObject({ type: 'invalid_request_error', code: 'route_not_found' })
    expect(refused.body.error.message).toContain('/v1/stream')
  })

  it('answers a restricted key without wallets:read with insufficient_permissions on the wallets channel', async () => {
    const sb = await sandbox()
    const created = await sb.api.post('/_sandbox/keys').send({ account_id: 'acct_sandboxDefaultAccount000', type: 'restricted', scopes: ['payments:read'] }).expect(201)
    const key = created.body.data.key
    const c = await client(streamUrl(sb.url), bearer(key))
    c.send({ action: 'subscribe', channel: 'wallets' })
    expect(await c.next()).toMatchObject({ type: 'error', code: 'insufficient_permissions' })
    await subscribePrices(c, ['ETH/USD'])
  })

  it('refuses a key whose allowed_ips exclude the caller with 403 ip_not_allowed', async () => {
    const sb = await sandbox()
    const created = await sb.api.post('/_sandbox/keys').send({ account_id: 'acct_sandboxDefaultAccount000', type: 'secret', allowed_ips: ['10.1.2.3'] }).expect(201)
    const refused = await refusedUpgrade(streamUrl(sb.url), bearer(created.body.data.key))
    expect(refused.status).toBe(403)
    expect(refused.body.error).toMatchObject({ type: 'permission_error', code: 'ip_not_allowed' })
    await client(streamUrl(sb.url), bearer('rk_test_sandbox_payments_loopback'))
  })

  it('lets a read-only restricted key subscribe to wallets', async () => {
    const sb = await sandbox()
    const c = await client(streamUrl(sb.url), bearer('rk_test_sandbox_read_only'))
    c.send({ action: 'subscribe', channel: 'wallets' })
    expect(await c.next()).toMatchObject({ type: 'subscribed', channel: 'wallets' })
  })
})

describe('stream: client messages and errors', () => {
  it('answers ping with pong carrying the sandbox time', async () => {
    const sb = await sandbox()
    const c = await client(streamUrl(sb.url))
    c.send({ action: 'ping' })
    expect(await c.next()).toEqual({ type: 'pong', timestamp: '2026-01-01T00:00:00.000Z' })
  })

  const pairs = ALL_PAIRS.join(', ')
  it.each([
    ['invalid JSON', '{"action": "subscribe",', 'invalid_json', ['not valid JSON', '"action": "subscribe"']],
    ['a JSON array', '[]', 'parameter_invalid', ['JSON object', 'subscribe, unsubscribe, ping']],
    ['a message without action', { channel: 'prices' }, 'parameter_missing', ['subscribe, unsubscribe, ping']],
    ['an unknown action', { action: 'listen' }, 'parameter_invalid', ['subscribe, unsubscribe, ping', '"listen"']],
    ['an unknown channel', { action: 'subscribe', channel: 'trades' }, 'parameter_invalid', ['prices, wallets, orders', '"trades"']],
    ['a subscribe without channel', { action: 'subscribe' }, 'parameter_missing', ['prices, wallets, orders']],
    ['an unknown pair', { action: 'subscribe', channel: 'prices', pairs: ['ETH/USD', 'DOGE/USD'] }, 'parameter_invalid', ['DOGE/USD', pairs]],
    ['a lower-case pair', { action: 'subscribe', channel: 'prices', pairs: ['eth/usd'] }, 'parameter_invalid', ['eth/usd', pairs]],
    ['pairs that are not an array', { action: 'subscribe', channel: 'prices', pairs: 'ETH/USD' }, 'parameter_invalid', ['array of strings']],
    ['an empty pairs array', { action: 'subscribe', channel: 'prices', pairs: [] }, 'parameter_invalid', ['at least one']],
    ['wallet_ids on the prices channel', { action: 'subscribe', channel: 'prices', wallet_ids: ['wal_x'] }, 'parameter_invalid', ['wallets channel']],
    ['pairs on the wallets channel', { action: 'subscribe', channel: 'wallets', pairs: ['ETH/USD'] }, 'parameter_invalid', ['prices channel']],
    ['an unsubscribe of an unknown pair', { action: 'unsubscribe', channel: 'prices', pairs: ['BTC/USD'] }, 'parameter_invalid', ['BTC/USD', pairs]],
  ])('answers %s with an error message naming the valid values and keeps the connection open', async (_name, message, code, mentions) => {
    const sb = await sandbox()
    const c = await client(streamUrl(sb.url), bearer())
    c.send(message)
    const error = await c.next()
    expect(Object.keys(error).sort()).toEqual(['code', 'message', 'type'])
    expect(error).toMatchObject({ type: 'error', code })
    for (const text of mentions) expect(error.message).toContain(text)
    // Nothing was subscribed: ticks bring nothing.
    await sb.sandbox.clock.advance(5000)
    await settle()
    expect(await c.drain()).toEqual([])
    expect(c.ws.readyState).toBe(c.ws.OPEN)
  })

  it('closes the connection with 1009 when a frame is over 64 KB', async () => {
    const sb = await sandbox()
    const c = await client(streamUrl(sb.url))
    c.send(JSON.stringify({ action: 'ping', padding: 'x'.repeat(64 * 1024) }))
    expect((await c.closed).code).toBe(1009)
  })

  it('accepts a frame just under 64 KB', async () => {
    const sb = await sandbox()
    const c = await client(streamUrl(sb.url))
    const message = JSON.stringify({ action: 'ping', padding: '' })
    c.send(JSON.stringify({ action: 'ping', padding: 'x'.repeat(64 * 1024 - message.length) }))
    expect(await c.next()).toMatchObject({ type: 'pong' })
  })
})

describe('stream: prices channel', () => {
  it('sends one price per pair at once on subscribe, as decimal strings with bid < price < ask', async () => {
    const sb = await sandbox()
    const c = await client(streamUrl(sb.url))
    const { ack, snapshot } = await subscribePrices(c)
    expect(ack).toEqual({ type: 'subscribed', channel: 'prices', pairs: ALL_PAIRS })
    expect(snapshot.map((m) => m.pair)).toEqual(ALL_PAIRS)
    for (const message of snapshot) {
      expect(Object.keys(message)).toEqual(['type', 'channel', 'pair', 'price', 'bid', 'ask', 'timestamp'])
      expect(message).toMatchObject({ type: 'price', channel: 'prices', timestamp: '2026-01-01T00:00:00.000Z' })
      for (const field of ['price', 'bid', 'ask']) expect(message[field]).toMatch(/^\d+(\.\d+)?$/)
      expect(Number(message.bid)).toBeLessThan(Number(message.price))
      expect(Number(message.price)).toBeLessThan(Number(message.ask))
    }
    const stable = snapshot.filter((m) => m.pair === 'USDC/USD' || m.pair === 'USDT/USD')
    for (const message of stable) expect(Math.abs(Number(message.price) - 1)).toBeLessThan(0.001)
  })

  it('sends one price per subscribed pair on each tick of sandbox time', async () => {
    const sb = await sandbox()
    const c = await client(streamUrl(sb.url))
    await subscribePrices(c, ['ETH/USD', 'SOL/USD'])
    for (let second = 1; second <= 3; second++) {
      await sb.sandbox.clock.advance(1000)
      await settle()
      const tick = await c.drain()
      expect(tick.map((m) => [m.pair, m.timestamp])).toEqual([
        ['ETH/USD', new Date(START + second * 1000).toISOString()],
        ['SOL/USD', new Date(START + second * 1000).toISOString()],
      ])
    }
    await sb.sandbox.clock.advance(999)
    await settle()
    expect(await c.drain()).toEqual([])
  })

  it('follows --price-interval', async () => {
    const sb = await sandbox({ priceInterval: 250 })
    const c = await client(streamUrl(sb.url))
    await subscribePrices(c, ['ETH/USD'])
    const timestamps: unknown[] = []
    for (let step = 0; step < 4; step++) {
      await sb.sandbox.clock.advance(250)
      await settle()
      timestamps.push(...(await c.drain()).map((m) => m.timestamp))
    }
    expect(timestamps).toEqual([250, 500, 750, 1000].map((ms) => new Date(START + ms).toISOString()))
  })

  it('sends one tick per pair for each interval of one advance, in time order, each with its own timestamp', async () => {
    const sb = await sandbox()
    const c = await client(streamUrl(sb.url))
    await subscribePrices(c, ['ETH/USD', 'SOL/USD'])
    await sb.api.post('/_sandbox/clock/advance').send({ ms: 3000 }).expect(200)
    const at = (ms: number) => new Date(START + ms).toISOString()
    expect((await c.drain()).map((m) => [m.pair, m.timestamp])).toEqual([
      ['ETH/USD', at(1000)], ['SOL/USD', at(1000)],
      ['ETH/USD', at(2000)], ['SOL/USD', at(2000)],
      ['ETH/USD', at(3000)], ['SOL/USD', at(3000)],
    ])
  })

  it('sends the last 600 ticks when the clock jumps an hour, not 3,600', async () => {
    const sb = await sandbox()
    const c = await client(streamUrl(sb.url))
    await subscribePrices(c, ['ETH/USD', 'USDC/USD'])
    const before = sb.sandbox.stream.stats().ticks
    await sb.sandbox.clock.advance(3_600_000)
    await settle()
    const tick = await c.drain()
    expect(sb.sandbox.stream.stats().ticks - before).toBe(600)
    // A reader that falls behind loses ticks (the latest per pair is kept), so only bounds are certain.
    const times = tick.map((m) => Date.parse(m.timestamp as string) - START)
    expect(times.length).toBeLessThanOrEqual(1200)
    expect(times.every((t, i) => t >= 3_001_000 && (i === 0 || t >= times[i - 1]!))).toBe(true)
    expect(tick.slice(-2).map((m) => m.timestamp)).toEqual(Array(2).fill(new Date(START + 3_600_000).toISOString()))
    // And the ticks carry on from there.
    await sb.sandbox.clock.advance(1000)
    await settle()
    expect((await c.drain()).map((m) => m.timestamp)).toEqual(Array(2).fill(new Date(START + 3_601_000).toISOString()))
  })

  it('stops a pair on unsubscribe and all pairs on unsubscribe without pairs', async () => {
    const sb = await sandbox()
    const c = await client(streamUrl(sb.url))
    await subscribePrices(c, ['ETH/USD', 'SOL/USD', 'XLM/USD'])
    c.send({ action: 'unsubscribe', channel: 'prices', pairs: ['SOL/USD'] })
    expect(await c.next()).toEqual({ type: 'unsubscribed', channel: 'prices', pairs: ['SOL/USD'] })
    await sb.sandbox.clock.advance(1000)
    await settle()
    expect((await c.drain()).map((m) => m.pair)).toEqual(['ETH/USD', 'XLM/USD'])
    c.send({ action: 'unsubscribe', channel: 'prices' })
    expect(await c.next()).toEqual({ type: 'unsubscribed', channel: 'prices', pairs: ['ETH/USD', 'XLM/USD'] })
    await sb.sandbox.clock.advance(1000)
    await settle()
    expect(await c.drain()).toEqual([])
    expect(sb.sandbox.clock.pendingTimers()).toBe(0)
  })

  it('keeps no tick timer while nobody listens, and stops it when the last subscriber leaves', async () => {
    const sb = await sandbox()
    expect(sb.sandbox.clock.pendingTimers()).toBe(0)
    const c = await client(streamUrl(sb.url))
    await subscribePrices(c, ['ETH/USD'])
    expect(sb.sandbox.clock.pendingTimers()).toBe(1)
    c.close()
    await c.closed
    await expect.poll(() => sb.sandbox.stream.stats().connections).toBe(0)
    expect(sb.sandbox.clock.pendingTimers()).toBe(0)
  })

  it('gives identical tick frames in two sandboxes with the same seed and clock steps', async () => {
    const record = async (seed: string) => {
      const sb = await sandbox({ seed })
      const c = await client(streamUrl(sb.url))
      await subscribePrices(c)
      for (const step of [1000, 1000, 5_000, 250, 750, 1000]) {
        await sb.sandbox.clock.advance(step)
        await settle()
        await c.drain()
      }
      return c.raw
    }
    const first = await record('determinism')
    const second = await record('determinism')
    // ack, snapshot and 9 ticks of every pair, and a pong per drain.
    expect(first.length).toBe(1 + ALL_PAIRS.length * (1 + 9) + 6)
    expect(second).toEqual(first)
    const other = await record('another-seed')
    expect(other).not.toEqual(first)
  })

  it('GET /v1/prices returns the same numbers as the stream at the same sandbox time', async () => {
    const sb = await sandbox()
    const c = await client(streamUrl(sb.url))
    await subscribePrices(c)
    await sb.sandbox.clock.advance(7000)
    await settle()
    const tick = prices(await c.drain()).slice(-ALL_PAIRS.length)
    expect(tick.every((m) => m.timestamp === new Date(START + 7000).toISOString())).toBe(true)
    const res = await sb.api.get('/v1/prices').set(sb.auth()).expect(200)
    expect(res.body.request_id).toMatch(/^req_/)
    expect(res.body.pagination).toBeUndefined()
    expect(res.body.data).toEqual(tick.map(({ type: _type, channel: _channel, ...quote }) => quote))
  })
})

describe('GET /v1/prices', () => {
  it('returns the pairs asked for, in the order asked', async () => {
    const sb = await sandbox()
    const res = await sb.api.get('/v1/prices?pairs=SOL/USD,ETH/USD').set(sb.auth()).expect(200)
    expect(res.body.data.map((q: { pair: string }) => q.pair)).toEqual(['SOL/USD', 'ETH/USD'])
    expect(res.body.data[0].timestamp).toBe('2026-01-01T00:00:00.000Z')
  })

  it('returns every pair without pairs', async () => {
    const sb = await sandbox()
    const res = await sb.api.get('/v1/prices').set(sb.auth()).expect(200)
    expect(res.body.data.map((q: { pair: string }) => q.pair)).toEqual(ALL_PAIRS)
  })

  it.each([
    ['an unknown pair', 'ETH/USD,DOGE/USD', 'DOGE/USD'],
    ['an empty entry', 'ETH/USD,', 'no empty entries'],
  ])('answers %s with 400 parameter_invalid on pairs naming the valid pairs', async (_name, query, mention) => {
    const sb = await sandbox()
    const res = await sb.api.get(`/v1/prices?pairs=${query}`).set(sb.auth()).expect(400)
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'parameter_invalid', param: 'pairs' })
    expect(res.body.error.message).toContain(mention)
    expect(res.body.error.message).toContain(ALL_PAIRS.join(', '))
  })

  it('needs a key but no scope', async () => {
    const sb = await sandbox()
    await sb.api.get('/v1/prices').expect(401)
    await sb.api.get('/v1/prices').set(sb.auth('rk_test_sandbox_read_only')).expect(200)
  })
})

describe('stream: wallets channel', () => {
  async function setup(key = DEFAULT_KEY) {
    const sb = await sandbox()
    const wallet = await institutionalWallet(sb, 'polygon', 'USDC', key)
    const other = await institutionalWallet(sb, 'polygon', 'USDT', key)
    return { sb, wallet, other }
  }
  const deposit = (sb: TestSandbox, walletId: string, amount = '5.00') => sb.api.post(`/_sandbox/wallets/${walletId}/deposit`).send({ amount }).expect(200)

  it('delivers deposits and balance changes of the account’s wallets', async () => {
    const { sb, wallet } = await setup()
    const c = await client(streamUrl(sb.url), bearer())
    c.send({ action: 'subscribe', channel: 'wallets' })
    await c.next()
    await deposit(sb, wallet.id, '12.50')
    const [received, balance] = await c.take(2)
    expect(received).toEqual({
      type: 'wallet',
      channel: 'wallets',
      event: 'deposit.received',
      wallet_id: wallet.id,
      data: { wallet_id: wallet.id, amount: '12.50', currency: 'USDC', from_address: expect.any(String) },
      timestamp: '2026-01-01T00:00:00.000Z',
    })
    expect(balance).toMatchObject({ type: 'wallet', channel: 'wallets', event: 'balance.updated', wallet_id: wallet.id })
  })

  it('delivers payment state changes', async () => {
    const { sb, wallet } = await setup()
    const c = await client(streamUrl(sb.url), bearer())
    c.send({ action: 'subscribe', channel: 'wallets', wallet_ids: [wallet.id] })
    expect(await c.next()).toEqual({ type: 'subscribed', channel: 'wallets', wallet_ids: [wallet.id] })
    const res = await sb.api.post('/v1/payments').set(sb.auth()).send({ source_wallet: wallet.id, amount: '1.00', currency: 'USDC', recipient: EXTERNAL_POLYGON }).expect(201)
    const events = await c.drain()
    expect(events.map((m) => m.event)).toContain('payment.updated')
    const update = events.find((m) => m.event === 'payment.updated')!
    expect(update).toMatchObject({ wallet_id: wallet.id, data: { id: res.body.data.id, status: 'pending' } })
    await sb.api.post(`/_sandbox/payments/${res.body.data.id}/complete`).expect(200)
    const later = await c.drain()
    expect(later.filter((m) => m.event === 'payment.updated').map((m) => (m.data as { status: string }).status)).toEqual(['processing', 'completed'])
  })

  it('sends balance.updated only to wallets whose balance moved: an internal recipient gets one at completion, none at creation', async () => {
    const { sb, wallet } = await setup()
    const recipient = (await sb.api.post('/v1/wallets').set(sb.auth()).send({ name: 'r', currency: 'USDC', network: 'polygon' }).expect(201)).body.data
    const c = await client(streamUrl(sb.url), bearer())
    c.send({ action: 'subscribe', channel: 'wallets' })
    await c.next()
    const seen = async () => (await c.drain()).map((m) => `${m.wallet_id === wallet.id ? 'source' : 'recipient'} ${m.event}${m.event === 'payment.updated' ? ` ${(m.data as { status: string }).status}` : ''}`)

    const pay = async () => (await sb.api.post('/v1/payments').set(sb.auth()).send({ source_wallet: wallet.id, amount: '1.00', currency: 'USDC', recipient: recipient.id }).expect(201)).body.data.id as string
    const first = await pay()
    expect(await seen()).toEqual(['source payment.updated pending', 'source balance.updated', 'recipient payment.updated pending'])
    await sb.api.post(`/_sandbox/payments/${first}/complete`).expect(200)
    expect(await seen()).toEqual([
      'source payment.updated processing', 'recipient payment.updated processing',
      'source payment.updated completed', 'source balance.updated', 'recipient payment.updated completed', 'recipient balance.updated',
    ])
    const second = await pay()
    await seen()
    await sb.api.post(`/_sandbox/payments/${second}/fail`).send({}).expect(200)
    expect(await seen()).toEqual(['source payment.updated failed', 'source balance.updated', 'recipient payment.updated failed'])
  })

  it('delivers only the wallets named in wallet_ids, and unsubscribing ids removes them', async () => {
    const { sb, wallet, other } = await setup()
    const c = await client(streamUrl(sb.url), bearer())
    c.send({ action: 'subscribe', channel: 'wallets', wallet_ids: [wallet.id] })
    await c.next()
    await deposit(sb, other.id)
    await deposit(sb, wallet.id)
    expect(new Set((await c.drain()).map((m) => m.wallet_id))).toEqual(new Set([wallet.id]))
    c.send({ action: 'unsubscribe', channel: 'wallets', wallet_ids: [wallet.id] })
    expect(await c.next()).toEqual({ type: 'unsubscribed', channel: 'wallets', wallet_ids: [wallet.id] })
    await deposit(sb, wallet.id)
    expect(await c.drain()).toEqual([])
  })

  it('excludes a wallet unsubscribed from an all-wallets subscription', async () => {
    const { sb, wallet, other } = await setup()
    const c = await client(streamUrl(sb.url), bearer())
    c.send({ action: 'subscribe', channel: 'wallets' })
    await c.next()
    c.send({ action: 'unsubscribe', channel: 'wallets', wallet_ids: [other.id] })
    await c.next()
    await deposit(sb, other.id)
    await deposit(sb, wallet.id)
    expect(new Set((await c.drain()).map((m) => m.wallet_id))).toEqual(new Set([wallet.id]))
  })

  it('answers unknown or foreign wallet_ids with resource_missing naming them, and subscribes nothing', async () => {
    const { sb, wallet } = await setup()
    const foreign = await institutionalWallet(sb, 'polygon', 'USDC', 'sk_test_stream_foreign_account')
    const c = await client(streamUrl(sb.url), bearer())
    c.send({ action: 'subscribe', channel: 'wallets', wallet_ids: [wallet.id, foreign.id, 'wal_doesnotexist'] })
    const error = await c.next()
    expect(error).toMatchObject({ type: 'error', code: 'resource_missing' })
    expect(error.message).toContain(foreign.id)
    expect(error.message).toContain('wal_doesnotexist')
    expect(error.message).not.toContain(wallet.id)
    await deposit(sb, wallet.id)
    await deposit(sb, foreign.id)
    expect(await c.drain()).toEqual([])
  })

  it('never delivers another account’s wallet notifications', async () => {
    const sb = await sandbox()
    const mine = await institutionalWallet(sb, 'polygon', 'USDC', 'sk_test_stream_account_a')
    const theirs = await institutionalWallet(sb, 'polygon', 'USDC', 'sk_test_stream_account_b')
    const a = await client(streamUrl(sb.url), bearer('sk_test_stream_account_a'))
    const b = await client(streamUrl(sb.url), bearer('sk_test_stream_account_b'))
    for (const c of [a, b]) {
      c.send({ action: 'subscribe', channel: 'wallets' })
      await c.next()
    }
    await deposit(sb, theirs.id)
    await deposit(sb, mine.id)
    expect(new Set((await a.drain()).map((m) => m.wallet_id))).toEqual(new Set([mine.id]))
    expect(new Set((await b.drain()).map((m) => m.wallet_id))).toEqual(new Set([theirs.id]))
  })
})

describe('stream: heartbeat, slow readers and shutdown', () => {
  it('pings clients and drops the ones that stop answering', async () => {
    // The heartbeat runs on real time (it checks sockets, not the sandbox clock); 200 ms leaves a
    // healthy client time to answer on a loaded machine, where 40 ms dropped it.
    const sb = await tunedSandbox({ heartbeatMs: 200 })
    const healthy = await client(streamUrl(sb.url))
    let pings = 0
    healthy.ws.on('ping', () => pings++)
    const dead = await client(streamUrl(sb.url), { autoPong: false })
    expect((await dead.closed).code).toBe(1006)
    await expect.poll(() => pings, { timeout: 10_000 }).toBeGreaterThanOrEqual(3)
    expect(healthy.ws.readyState).toBe(healthy.ws.OPEN)
    expect(sb.sandbox.stream.stats().connections).toBe(1)
  })

  it('holds back price ticks for a client that stops reading, keeping only the latest per pair', async () => {
    const highWaterBytes = 16 * 1024
    const sb = await tunedSandbox({ limits: { highWaterBytes, maxBufferedBytes: 1024 * 1024 } })
    const c = await client(streamUrl(sb.url))
    await subscribePrices(c)
    ;(c.ws as unknown as { _socket: { pause(): void } })._socket.pause()
    const stats = () => sb.sandbox.stream.stats().clients[0]!
    const tick = async () => {
      await sb.sandbox.clock.advance(1000)
      await settle()
    }
    // Fill the kernel's buffers until the server starts holding ticks back.
    let ticks = 0
    while (!stats().congested && ticks < 50_000) {
      await tick()
      ticks++
    }
    expect(stats().congested).toBe(true)
    const frameBytes = 200 * ALL_PAIRS.length
    let maxBuffered = 0
    for (let i = 0; i < 2000; i++) {
      await tick()
      maxBuffered = Math.max(maxBuffered, stats().bufferedBytes)
    }
    ticks += 2000
    expect(maxBuffered).toBeLessThanOrEqual(highWaterBytes + frameBytes)
    expect(stats().heldPrices).toBe(ALL_PAIRS.length)
    expect(stats().droppedPrices).toBeGreaterThanOrEqual(ALL_PAIRS.length * 1999)
    // Once it reads again it gets the latest price of every pair.
    const latest = new Date(START + ticks * 1000).toISOString()
    const messagesBefore = c.messages.length
    ;(c.ws as unknown as { _socket: { resume(): void } })._socket.resume()
    const latestPairs = () => new Set(c.messages.slice(messagesBefore).filter((m) => m.timestamp === latest).map((m) => m.pair))
    await expect.poll(() => latestPairs().size, { timeout: 10_000 }).toBe(ALL_PAIRS.length)
    expect(c.messages.length - messagesBefore).toBeLessThan(ticks * ALL_PAIRS.length / 2)
    expect(stats().congested).toBe(false)
  })

  it('closes a client that is hopelessly behind on wallet messages with 1013', async () => {
    const sb = await tunedSandbox({ limits: { highWaterBytes: 4 * 1024, maxBufferedBytes: 64 * 1024 } })
    const account = sb.sandbox.store.accounts.get('acct_sandboxDefaultAccount000')!
    const wallet = [...account.wallets.values()].find((w) => w.currency === 'USDC' && w.network === 'polygon')!
    const c = await client(streamUrl(sb.url), bearer())
    c.send({ action: 'subscribe', channel: 'wallets' })
    await c.next()
    await subscribePrices(c)
    ;(c.ws as unknown as { _socket: { pause(): void } })._socket.pause()
    const stats = () => sb.sandbox.stream.stats().clients[0]
    // Price ticks fill the kernel's buffers; wallet messages, which are never dropped, then pile up.
    for (let i = 0; i < 50_000 && !stats()?.congested; i++) {
      await sb.sandbox.clock.advance(1000)
      await settle()
    }
    // Each deposit sends two wallet messages (about 600 bytes): 300 of them are far more than 64 KB.
    for (let deposit = 1; deposit <= 300; deposit++) {
      sb.sandbox.services.wallets.deposit(account, wallet.id, '1.00', undefined)
      if (deposit % 50 === 0) await settle()
    }
    expect(stats()?.bufferedBytes ?? 0).toBeLessThanOrEqual(64 * 1024 + 1024)
    ;(c.ws as unknown as { _socket: { resume(): void } })._socket.resume()
    const { code, reason } = await c.closed
    expect(code).toBe(1013)
    expect(reason).toContain('too slow')
  })

  it('closes every socket with 1001 when the server shuts down', async () => {
    const sb = await sandbox()
    const anonymous = await connectStream(streamUrl(sb.url))
    const authed = await connectStream(streamUrl(sb.url), bearer())
    await subscribePrices(anonymous, ['ETH/USD'])
    await sb.close()
    expect((await anonymous.closed).code).toBe(1001)
    expect((await authed.closed).code).toBe(1001)
  })
})
