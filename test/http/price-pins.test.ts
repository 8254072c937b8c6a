import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createControlClient, SandboxControlError } from '../../src/client/control-client.js'
import { startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

let sb: TestSandbox
afterEach(() => sb?.close())

type Body = Record<string, unknown>

const pin = (body: Body) => sb.api.post('/_sandbox/prices').send(body)
const prices = async (pairs: string) => {
  const res = await sb.api.get(`/v1/prices?pairs=${pairs}`).set(sb.auth()).expect(200)
  return Object.fromEntries((res.body.data as Array<{ pair: string; price: string; bid: string; ask: string }>).map(({ pair, price, bid, ask }) => [pair, { price, bid, ask }]))
}

describe('POST /_sandbox/prices', () => {
  it('pins an asset’s USD mid; its crosses follow the pinned legs', async () => {
    sb = await startTestSandbox()
    const res = await pin({ pair: 'ETH/USD', price: '3000', spread_bp: 20 }).expect(201)
    expect(res.body.data).toEqual({ pair: 'ETH/USD', price: '3000.00', spread_bp: 20, pinned_at: '2026-01-01T00:00:00.000Z' })
    await pin({ pair: 'USDC/USD', price: '1', spread_bp: 0 }).expect(201)
    await pin({ pair: 'SOL/USD', price: '150', spread_bp: 0 }).expect(201)
    expect(await prices('ETH/USD,ETH/USDC,ETH/SOL,USDC/USD')).toEqual({
      'ETH/USD': { price: '3000.00', bid: '2997.00', ask: '3003.00' },
      'ETH/USDC': { price: '3000.00', bid: '2997.00', ask: '3003.00' },
      'ETH/SOL': { price: '20.0000', bid: '19.9800', ask: '20.0200' },
      'USDC/USD': { price: '1.00000', bid: '1.00000', ask: '1.00000' },
    })
  })

  it('holds the pinned price while the clock runs, and lets the walk resume once unpinned', async () => {
    sb = await startTestSandbox()
    const unpinned = await prices('ETH/USD')
    await pin({ pair: 'ETH/USD', price: '1234.56', spread_bp: 0 }).expect(201)
    await sb.api.post('/_sandbox/clock/advance').send({ ms: 3_600_000 }).expect(200)
    expect((await prices('ETH/USD'))['ETH/USD']).toEqual({ price: '1234.56', bid: '1234.56', ask: '1234.56' })
    await sb.api.delete('/_sandbox/prices/ETH%2FUSD').expect(200)
    expect((await prices('ETH/USD'))['ETH/USD']!.price).not.toBe('1234.56')
    expect(unpinned['ETH/USD']!.price).not.toBe('1234.56')
  })

  it('pins the fiat legs like any <ASSET>/USD pair, with the asset’s fixture spread by default', async () => {
    sb = await startTestSandbox()
    expect((await pin({ pair: 'EUR/USD', price: '1.1' }).expect(201)).body.data).toMatchObject({ pair: 'EUR/USD', price: '1.10000', spread_bp: 2 })
    await pin({ pair: 'MXN/USD', price: '0.05', spread_bp: 0 }).expect(201)
    expect(await prices('EUR/USD,MXN/USD')).toEqual({
      'EUR/USD': { price: '1.10000', bid: '1.09989', ask: '1.10011' },
      'MXN/USD': { price: '0.050000', bid: '0.050000', ask: '0.050000' },
    })
  })

  it('replaces the pin of a pair pinned again', async () => {
    sb = await startTestSandbox()
    await pin({ pair: 'ETH/USD', price: '3000' }).expect(201)
    await pin({ pair: 'ETH/USD', price: '2500', spread_bp: 0 }).expect(201)
    const list = (await sb.api.get('/_sandbox/prices').expect(200)).body.data
    expect(list).toEqual([{ pair: 'ETH/USD', price: '2500.00', spread_bp: 0, pinned_at: '2026-01-01T00:00:00.000Z' }])
  })

  const bad: Array<[string, Body, string, string, string?]> = [
    ['a cross, naming its USD legs', { pair: 'ETH/USDC', price: '3000' }, 'parameter_invalid', 'pair', 'ETH/USDC is a cross: it follows its USD legs. Pin ETH/USD and USDC/USD instead.'],
    ['a fiat cross', { pair: 'EUR/GBP', price: '0.85' }, 'parameter_invalid', 'pair', 'EUR/GBP is a cross: it follows its USD legs. Pin EUR/USD and GBP/USD instead.'],
    ['USD as the base', { pair: 'USD/ETH', price: '0.0003' }, 'parameter_invalid', 'pair', 'Pins are quoted in USD: pin ETH/USD instead of USD/ETH.'],
    ['an unknown asset', { pair: 'DOGE/USD', price: '0.1' }, 'parameter_invalid', 'pair'],
    ['a lower-case pair', { pair: 'eth/usd', price: '3000' }, 'parameter_invalid', 'pair'],
    ['more decimals than the pair has', { pair: 'ETH/USD', price: '3000.001' }, 'parameter_invalid', 'price', 'price has 3 decimal places; ETH/USD prices have 2.'],
    ['a zero price', { pair: 'ETH/USD', price: '0' }, 'parameter_invalid', 'price'],
    ['a negative price', { pair: 'ETH/USD', price: '-3000' }, 'parameter_invalid', 'price'],
    ['a number price', { pair: 'ETH/USD', price: 3000 }, 'parameter_invalid', 'price'],
    ['no price', { pair: 'ETH/USD' }, 'parameter_missing', 'price'],
    ['no pair', { price: '3000' }, 'parameter_missing', 'pair'],
    ['a negative spread', { pair: 'ETH/USD', price: '3000', spread_bp: -1 }, 'parameter_invalid', 'spread_bp'],
    ['a fractional spread', { pair: 'ETH/USD', price: '3000', spread_bp: 1.5 }, 'parameter_invalid', 'spread_bp'],
    ['a spread as a string', { pair: 'ETH/USD', price: '3000', spread_bp: '5' }, 'parameter_invalid', 'spread_bp'],
    ['an unknown field', { pair: 'ETH/USD', price: '3000', until: 'later' }, 'parameter_invalid', 'until'],
  ]
  it.each(bad)('refuses %s with 400 and pins nothing', async (_name, body, code, param, message) => {
    sb = await startTestSandbox()
    const before = await prices('ETH/USD,EUR/USD')
    const res = await pin(body).expect(400)
    expect(res.body.error).toMatchObject({ code, param, ...(message ? { message } : {}) })
    expect((await sb.api.get('/_sandbox/prices').expect(200)).body.data).toEqual([])
    expect(await prices('ETH/USD,EUR/USD')).toEqual(before)
  })
})

describe('removing pins', () => {
  it('removes one pair (URL-encoded or as two segments), 404 when it is not pinned, or all of them', async () => {
    sb = await startTestSandbox()
    for (const pair of ['ETH/USD', 'SOL/USD', 'EUR/USD']) await pin({ pair, price: '2' }).expect(201)
    expect((await sb.api.delete('/_sandbox/prices/ETH%2FUSD').expect(200)).body.data).toEqual({ pair: 'ETH/USD', object: 'price_pin', deleted: true })
    await sb.api.delete('/_sandbox/prices/SOL/USD').expect(200)
    const missing = await sb.api.delete('/_sandbox/prices/ETH%2FUSD').expect(404)
    expect(missing.body.error).toMatchObject({ code: 'resource_missing', message: "No price pin on 'ETH/USD'; pinned pairs: EUR/USD." })
    await pin({ pair: 'XLM/USD', price: '0.1' }).expect(201)
    expect((await sb.api.delete('/_sandbox/prices').expect(200)).body.data).toEqual({ deleted: 2 })
    expect((await sb.api.get('/_sandbox/prices').expect(200)).body.data).toEqual([])
  })

  it('are removed by a full reset, and kept by the reset of one account', async () => {
    sb = await startTestSandbox()
    await pin({ pair: 'ETH/USD', price: '3000' }).expect(201)
    await sb.api.post('/_sandbox/reset').send({ api_key: 'sk_test_sandbox_default_key' }).expect(200)
    expect((await sb.api.get('/_sandbox/prices').expect(200)).body.data).toHaveLength(1)
    await sb.api.post('/_sandbox/reset').send({}).expect(200)
    expect((await sb.api.get('/_sandbox/prices').expect(200)).body.data).toEqual([])
  })
})

describe('pins and quotes as state', () => {
  it('come back with a restored snapshot', async () => {
    sb = await startTestSandbox()
    await pin({ pair: 'ETH/USD', price: '3000', spread_bp: 0 }).expect(201)
    const quote = (await sb.api.post('/v1/quotes').set(sb.auth()).send({ source_currency: 'ETH', destination_currency: 'USDC', source_amount: '1' }).expect(201)).body.data
    const snapshot = (await sb.api.get('/_sandbox/snapshot').expect(200)).body.data
    await sb.api.post('/_sandbox/reset').send({}).expect(200)
    await sb.api.get(`/v1/quotes/${quote.id}`).set(sb.auth()).expect(404)
    await sb.api.post('/_sandbox/restore').send(snapshot).expect(200)
    expect((await sb.api.get(`/v1/quotes/${quote.id}`).set(sb.auth()).expect(200)).body.data).toEqual(quote)
    expect((await prices('ETH/USD'))['ETH/USD']!.price).toBe('3000.00')
  })

  it('refuses a snapshot whose pin is malformed, naming the place', async () => {
    sb = await startTestSandbox()
    const snapshot = (await sb.api.get('/_sandbox/snapshot').expect(200)).body.data
    snapshot.control.price_pins = [{ pair: 'ETH/USDC', price: '3000', spread_bp: 0, pinned_at: '2026-01-01T00:00:00.000Z' }]
    const res = await sb.api.post('/_sandbox/restore').send(snapshot).expect(400)
    expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param: 'control.price_pins[0].pair' })
  })

  it('are kept in the data file across a restart', async () => {
    const dataFile = join(mkdtempSync(join(tmpdir(), 'ws-market-')), 'ledger.json')
    sb = await startTestSandbox({ dataFile })
    await pin({ pair: 'GBP/USD', price: '1.3', spread_bp: 0 }).expect(201)
    const quote = (await sb.api.post('/v1/quotes').set(sb.auth()).send({ source_currency: 'USDC', destination_currency: 'GBP', source_amount: '13' }).expect(201)).body.data
    await sb.close()

    sb = await startTestSandbox({ dataFile })
    expect((await sb.api.get(`/v1/quotes/${quote.id}`).set(sb.auth()).expect(200)).body.data).toEqual(quote)
    expect((await sb.api.get('/_sandbox/prices').expect(200)).body.data).toEqual([{ pair: 'GBP/USD', price: '1.30000', spread_bp: 0, pinned_at: '2026-01-01T00:00:00.000Z' }])
  })
})

describe('the control client', () => {
  it('pins, lists and unpins prices', async () => {
    sb = await startTestSandbox()
    const control = createControlClient({ baseUrl: sb.url })
    expect(await control.pinPrice('ETH/USD', '3000', { spread_bp: 0 })).toMatchObject({ pair: 'ETH/USD', price: '3000.00', spread_bp: 0 })
    await control.pinPrice('EUR/USD', '1.1')
    expect((await control.pricePins()).map((p) => p.pair)).toEqual(['ETH/USD', 'EUR/USD'])
    expect(await control.unpinPrice('ETH/USD')).toEqual({ pair: 'ETH/USD', object: 'price_pin', deleted: true })
    expect(await control.unpinPrices()).toEqual({ deleted: 1 })
    const error = await control.pinPrice('ETH/USDC', '1').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SandboxControlError)
    expect(error).toMatchObject({ status: 400, code: 'parameter_invalid', param: 'pair' })
  })
})
