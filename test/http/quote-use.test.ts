import { afterEach, describe, expect, it } from 'vitest'
import { ApiError } from '../../src/errors.js'
import type { Change } from '../../src/store/changes.js'
import { DEFAULT_KEY, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

/** The ledger function orders and settlements call to use a quote once (docs/pending/market-interface.md). */

let sb: TestSandbox
afterEach(() => sb?.close())

const accountOf = (key = DEFAULT_KEY) => sb.sandbox.store.accounts.get(sb.sandbox.store.keys.get(key)!.account_id)!
const quotes = () => sb.sandbox.services.quotes

async function newQuote(key = DEFAULT_KEY): Promise<string> {
  const res = await sb.api.post('/v1/quotes').set(sb.auth(key)).send({ source_currency: 'ETH', destination_currency: 'USDC', source_amount: '1' }).expect(201)
  return res.body.data.id
}

function errorOf(run: () => unknown): ApiError {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError)
    return error as ApiError
  }
  throw new Error('expected an ApiError')
}

describe('using a quote', () => {
  it('marks it used once, by the id of what used it, and shows used on GET', async () => {
    sb = await startTestSandbox()
    const id = await newQuote()
    const used = quotes().use(accountOf(), id, 'ord_test')
    expect(used).toMatchObject({ id, used_at: '2026-01-01T00:00:00.000Z', used_by: 'ord_test' })
    expect((await sb.api.get(`/v1/quotes/${id}`).set(sb.auth()).expect(200)).body.data.status).toBe('used')
    const again = errorOf(() => quotes().use(accountOf(), id, 'ord_other'))
    expect(again).toMatchObject({ code: 'quote_already_used', status: 422, param: 'quote_id' })
    expect(again.message).toBe(`Quote ${id} was used at 2026-01-01T00:00:00.000Z by ord_test; a quote is used once. Request a new one with POST /v1/quotes.`)
  })

  it('stays used after it would have expired', async () => {
    sb = await startTestSandbox()
    const id = await newQuote()
    quotes().use(accountOf(), id, 'stl_test')
    await sb.api.post('/_sandbox/clock/advance').send({ ms: 60_000 }).expect(200)
    expect((await sb.api.get(`/v1/quotes/${id}`).set(sb.auth()).expect(200)).body.data.status).toBe('used')
  })

  it('refuses an expired quote with 422 quote_expired and leaves it unused', async () => {
    sb = await startTestSandbox()
    const id = await newQuote()
    await sb.api.post('/_sandbox/clock/advance').send({ ms: 30_000 }).expect(200)
    const expired = errorOf(() => quotes().use(accountOf(), id, 'ord_test'))
    expect(expired).toMatchObject({ code: 'quote_expired', status: 422, param: 'quote_id', message: `Quote ${id} expired at 2026-01-01T00:00:30.000Z; request a new one with POST /v1/quotes.` })
    expect(accountOf().quotes.get(id)!.used_at).toBeNull()
  })

  it('answers an unknown or foreign quote with 404 resource_missing naming the field', async () => {
    sb = await startTestSandbox()
    const foreign = await newQuote('sk_test_quote_use_other')
    for (const id of [foreign, 'quo_unknown']) {
      expect(errorOf(() => quotes().use(accountOf(), id, 'ord_test', 'quote'))).toMatchObject({ code: 'resource_missing', status: 404, param: 'quote' })
    }
    expect(accountOf('sk_test_quote_use_other').quotes.get(foreign)!.used_at).toBeNull()
  })

  it('checks without changing anything, and marks used only inside the caller’s change set', async () => {
    sb = await startTestSandbox()
    const id = await newQuote()
    const checked = quotes().checkUsable(accountOf(), id)
    const changes: Change[] = []
    quotes().markUsed(accountOf(), checked, 'ord_test', changes)
    expect(accountOf().quotes.get(id)!.used_at).toBeNull()
    sb.sandbox.store.apply(changes)
    expect(quotes().status(accountOf(), accountOf().quotes.get(id)!)).toBe('used')
  })

  it('gives the amounts in base units of each currency’s quote decimals', async () => {
    sb = await startTestSandbox()
    await sb.api.post('/_sandbox/prices').send({ pair: 'ETH/USD', price: '2000', spread_bp: 0 }).expect(201)
    await sb.api.post('/_sandbox/prices').send({ pair: 'USDC/USD', price: '1', spread_bp: 0 }).expect(201)
    const id = await newQuote()
    expect(quotes().units(accountOf().quotes.get(id)!)).toEqual({ source: 10n ** 18n, destination: 2_000_000_000n, fee: 10n ** 15n })
  })
})
