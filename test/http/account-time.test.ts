import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tradingWallets } from '../helpers/orders.js'
import { institutionalWallet, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js'

/** Time per account (CONTRACT.md section 24): an account's clock moves alone, and everything timed of it follows. */

const A = 'sk_test_account_time_a'
const B = 'sk_test_account_time_b'
const EVM = '0x52908400098527886E0F7030069857D2E4169EE7'
const HOUR = 3_600_000

let sb: TestSandbox
let receiver: WebhookReceiver | undefined
afterEach(async () => {
  await sb?.close()
  await receiver?.close()
  receiver = undefined
})

const advance = (body: Record<string, unknown>) => sb.api.post('/_sandbox/clock/advance').send(body)
const clockOf = async (key?: string) => (await sb.api.get(`/_sandbox/clock${key ? `?api_key=${key}` : ''}`).expect(200)).body.data

/** A payment, a delivery waiting for its retry and a quote, all pending on the key's clock. */
async function pendingWork(key: string) {
  const treasury = await institutionalWallet(sb, 'polygon', 'USDC', key)
  await sb.api.post('/v1/webhooks').set(sb.auth(key)).send({ url: receiver!.url, events: ['payment.created'] }).expect(201)
  const payment = (await sb.api.post('/v1/payments').set(sb.auth(key)).send({ amount: '5.00', currency: 'USDC', source_wallet: treasury.id, recipient: EVM }).expect(201)).body.data
  const quote = (await sb.api.post('/v1/quotes').set(sb.auth(key)).send({ source_currency: 'USDC', destination_currency: 'ETH', source_amount: '100' }).expect(201)).body.data
  return { payment, quote }
}

async function state(key: string, work: { payment: { id: string }; quote: { id: string } }) {
  const payment = (await sb.api.get(`/v1/payments/${work.payment.id}`).set(sb.auth(key)).expect(200)).body.data
  const quote = (await sb.api.get(`/v1/quotes/${work.quote.id}`).set(sb.auth(key)).expect(200)).body.data
  const accountId = sb.sandbox.store.keys.get(key)!.account_id
  const [delivery] = (await sb.api.get(`/_sandbox/webhooks/deliveries?account_id=${accountId}`).expect(200)).body.data
  return { payment: payment.status, quote: quote.status, attempts: delivery.attempts.length }
}

describe('an account advanced on its own', () => {
  it('settles its payments, retries its deliveries and expires its quotes; another account is untouched until the sandbox moves', async () => {
    receiver = await startWebhookReceiver({ respond: () => 500 })
    sb = await startTestSandbox({ settle: 'auto', webhookRetries: '1m' })
    const a = await pendingWork(A)
    const b = await pendingWork(B)
    await sb.sandbox.webhooks.idle()
    const before = await clockOf()

    const advanced = (await advance({ ms: HOUR, api_key: A }).expect(200)).body.data
    expect(advanced).toEqual({ mode: 'manual', now: new Date(Date.parse(before.now) + HOUR).toISOString(), offset_ms: HOUR, account_id: advanced.account_id })
    expect(advanced.account_id).toBe(sb.sandbox.store.keys.get(A)!.account_id)

    expect(await state(A, a)).toEqual({ payment: 'completed', quote: 'expired', attempts: 2 })
    expect(await state(B, b)).toEqual({ payment: 'pending', quote: 'active', attempts: 1 })
    expect(await clockOf()).toEqual(before)
    expect((await clockOf(B)).now).toBe(before.now)

    // The sandbox clock moves every account, each keeping its offset.
    await advance({ ms: HOUR }).expect(200)
    expect(await state(B, b)).toEqual({ payment: 'completed', quote: 'expired', attempts: 2 })
    const aNow = await clockOf(A)
    expect(aNow.offset_ms).toBe(HOUR)
    expect(Date.parse(aNow.now) - Date.parse((await clockOf()).now)).toBe(HOUR)
  })

  it('stamps its records and events with its own time', async () => {
    sb = await startTestSandbox()
    for (const key of [A, B]) await sb.api.get('/v1/wallets').set(sb.auth(key)).expect(200)
    await advance({ ms: HOUR, api_key: A }).expect(200)
    const wallet = (await sb.api.post('/v1/wallets').set(sb.auth(A)).send({ name: 'later', currency: 'USDC', network: 'solana' }).expect(201)).body.data
    const other = (await sb.api.post('/v1/wallets').set(sb.auth(B)).send({ name: 'now', currency: 'USDC', network: 'solana' }).expect(201)).body.data
    expect(Date.parse(wallet.created_at) - Date.parse(other.created_at)).toBe(HOUR)
    const treasury = await institutionalWallet(sb, 'polygon', 'USDC', A)
    const payment = (await sb.api.post('/v1/payments').set(sb.auth(A)).send({ amount: '1.00', currency: 'USDC', source_wallet: treasury.id, recipient: EVM }).expect(201)).body.data
    const [event] = (await sb.api.get(`/_sandbox/events?api_key=${A}&type=payment.created`).expect(200)).body.data
    expect(event.created_at).toBe(wallet.created_at)
    expect(payment.created_at).toBe(wallet.created_at)
  })

  it('reads prices at its own time: the same quote a sandbox-wide advance to that time shows', async () => {
    sb = await startTestSandbox()
    for (const key of [A, B]) await sb.api.get('/v1/wallets').set(sb.auth(key)).expect(200)
    await advance({ ms: HOUR, api_key: A }).expect(200)
    const ahead = (await sb.api.get('/v1/prices?pairs=ETH/USD').set(sb.auth(A)).expect(200)).body.data[0]
    const behind = (await sb.api.get('/v1/prices?pairs=ETH/USD').set(sb.auth(B)).expect(200)).body.data[0]
    expect(Date.parse(ahead.timestamp) - Date.parse(behind.timestamp)).toBe(HOUR)
    await advance({ ms: HOUR }).expect(200)
    expect((await sb.api.get('/v1/prices?pairs=ETH/USD').set(sb.auth(B)).expect(200)).body.data[0]).toEqual(ahead)
  })

  it('fills a limit order at the price of its time, on its own ticks', async () => {
    sb = await startTestSandbox({ tradingFeeBps: 0 })
    const mine = await tradingWallets(sb, { ETH: '1' }, A)
    const theirs = await tradingWallets(sb, { ETH: '1' }, B)
    const sell = (wallets: { eth: string; usdc: string }, key: string) =>
      sb.api.post('/v1/orders').set(sb.auth(key)).send({ pair: 'ETH/USDC', side: 'sell', type: 'limit', amount: '0.01', limit_price: '100000.00', base_wallet: wallets.eth, quote_wallet: wallets.usdc }).expect(201)
    const order = (await sell(mine, A)).body.data
    const other = (await sell(theirs, B)).body.data
    // A's own pin puts the price above the limit on A's next tick; B's price is the feed's.
    await sb.api.post('/_sandbox/prices').send({ pair: 'ETH/USD', price: '200000', spread_bp: 0, api_key: A }).expect(201)
    await advance({ ms: 1000, api_key: A }).expect(200)
    const filled = (await sb.api.get(`/v1/orders/${order.id}`).set(sb.auth(A)).expect(200)).body.data
    const [price] = (await sb.api.get('/v1/prices?pairs=ETH/USDC').set(sb.auth(A)).expect(200)).body.data
    expect(filled.status).toBe('filled')
    expect(filled.fills).toEqual([expect.objectContaining({ price: price.bid, timestamp: price.timestamp })])
    expect(Date.parse(price.timestamp) - Date.parse((await clockOf()).now)).toBe(1000)
    expect((await sb.api.get(`/v1/orders/${other.id}`).set(sb.auth(B)).expect(200)).body.data.status).toBe('open')
  })
})

describe('GET and POST /_sandbox/clock with an account', () => {
  it('answers 404 naming api_key for a key no account uses, and 400 when api_key and account_id disagree', async () => {
    sb = await startTestSandbox()
    await sb.api.get('/v1/wallets').set(sb.auth(A)).expect(200)
    const unknown = await advance({ ms: 1000, api_key: 'sk_test_nobody_uses_this' }).expect(404)
    expect(unknown.body.error).toMatchObject({ code: 'resource_missing', param: 'api_key' })
    const other = (await sb.api.post('/_sandbox/keys').send({}).expect(201)).body.data
    const mismatch = await sb.api.get(`/_sandbox/clock?api_key=${A}&account_id=${other.account_id}`).expect(400)
    expect(mismatch.body.error).toMatchObject({ code: 'parameter_invalid', param: 'account_id' })
    expect((await clockOf(A)).offset_ms).toBe(0)
  })

  it('keeps an account’s offset in its record, so that the data file keeps its time across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wallet-sandbox-account-time-'))
    try {
      const dataFile = join(dir, 'ledger.jsonl')
      sb = await startTestSandbox({ dataFile })
      await sb.api.get('/v1/wallets').set(sb.auth(A)).expect(200)
      await advance({ ms: 5000, api_key: A }).expect(200)
      const accountId = sb.sandbox.store.keys.get(A)!.account_id
      expect(sb.sandbox.store.accounts.get(accountId)!.account.clock_offset_ms).toBe(5000)
      await sb.close()
      sb = await startTestSandbox({ dataFile })
      expect(await clockOf(A)).toMatchObject({ offset_ms: 5000, now: '2026-01-01T00:00:05.000Z' })
      expect((await clockOf()).now).toBe('2026-01-01T00:00:00.000Z')
    } finally {
      await sb.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('puts an account back on the sandbox clock when it is reset', async () => {
    sb = await startTestSandbox()
    await sb.api.get('/v1/wallets').set(sb.auth(A)).expect(200)
    await advance({ ms: 5000, api_key: A }).expect(200)
    await sb.api.post('/_sandbox/reset').send({ api_key: A }).expect(200)
    expect(await clockOf(A)).toMatchObject({ offset_ms: 0, now: (await clockOf()).now })
  })
})
