import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { OrderIndex } from '../../src/store/order-index.js'
import { tradingWallets } from '../helpers/orders.js'
import { loadConfig } from '../../src/config.js'
import * as fixtures from '../../src/fixtures.js'
import { FixturesError, SHIPPED_FIXTURES_DIR } from '../../src/fixtures.js'
import { silentLogger } from '../../src/logger.js'
import * as priceFixture from '../../src/market/price-fixture.js'
import * as priceWalk from '../../src/market/price-walk.js'
import { createPriceModel } from '../../src/market/prices.js'
import { createTradingPairs } from '../../src/market/pairs.js'
import { createSandbox } from '../../src/sandbox.js'
import { institutionalWallet, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

/**
 * What a start no longer builds (issue 33, round 10: start-services): the price fixture, model and
 * trading pairs, and the payouts', quotes', settlements' and orders' services wait for their first use. A start, its health answer and a payment build none of
 * them; their first use answers what a model made at once answers; a user's bad prices.json still
 * stops the start.
 */

const { built, counted } = vi.hoisted(() => {
  const built = { priceFixtureReads: 0, legs: 0, services: [] as string[] }
  /** A module's `create…Service`, counted in `built.services` as it runs. */
  const counted = async (importOriginal: () => Promise<Record<string, unknown>>, name: string) => {
    const actual = await importOriginal()
    const create = actual[name] as (...args: unknown[]) => unknown
    return { ...actual, [name]: (...args: unknown[]) => (built.services.push(name), create(...args)) }
  }
  return { built, counted }
})
vi.mock('../../src/ledger/orders.js', (importOriginal) => counted(importOriginal, 'createOrderService'))
vi.mock('../../src/ledger/quotes.js', (importOriginal) => counted(importOriginal, 'createQuoteService'))
vi.mock('../../src/ledger/settlements.js', (importOriginal) => counted(importOriginal, 'createSettlementService'))
vi.mock('../../src/ledger/payouts.js', (importOriginal) => counted(importOriginal, 'createPayoutService'))
vi.mock('../../src/fixtures.js', async (importOriginal) => {
  const actual = await importOriginal<typeof fixtures>()
  return {
    ...actual,
    readFixture: (...args: Parameters<typeof actual.readFixture>) => {
      if (args[1] === 'prices.json') built.priceFixtureReads++
      return actual.readFixture(...args)
    },
  }
})
vi.mock('../../src/market/price-walk.js', async (importOriginal) => {
  const actual = await importOriginal<typeof priceWalk>()
  return {
    ...actual,
    createLeg: (...args: Parameters<typeof actual.createLeg>) => {
      built.legs++
      return actual.createLeg(...args)
    },
  }
})

const EVM = '0x52908400098527886E0F7030069857D2E4169EE7'
const opened: TestSandbox[] = []
afterEach(async () => {
  for (const sb of opened.splice(0)) await sb.close()
})

async function started(): Promise<TestSandbox> {
  built.priceFixtureReads = 0
  built.legs = 0
  built.services = []
  const sb = await startTestSandbox({ settle: 'instant' })
  opened.push(sb)
  await sb.api.get('/_sandbox/health').expect(200)
  return sb
}

/** A payment of the default account's, to its end (settle: instant). */
async function pay(sb: TestSandbox): Promise<void> {
  const source = await institutionalWallet(sb, 'polygon', 'USDC')
  const { body } = await sb.api.post('/v1/payments').set(sb.auth()).send({ amount: '1.50', currency: 'USDC', source_wallet: source.id, recipient: EVM }).expect(201)
  await vi.waitFor(async () => expect((await sb.api.get(`/v1/payments/${body.data.id}`).set(sb.auth())).body.data.status).toBe('completed'))
}

describe('the price fixture, model and trading pairs', () => {
  it('are not read or made by a start, its health answer or a payment', async () => {
    const sb = await started()
    await pay(sb)
    expect(built).toEqual({ priceFixtureReads: 0, legs: 0, services: [] })
  })

  it('answer on their first use as the ones made at once do', async () => {
    const sb = await started()
    const at = sb.sandbox.clock.now()
    const prices = (await sb.api.get('/v1/prices').set(sb.auth()).expect(200)).body.data
    expect(built).toMatchObject({ priceFixtureReads: 1, legs: 9 })
    const fixture = priceFixture.readPriceFixture(SHIPPED_FIXTURES_DIR)
    const eager = createPriceModel(fixture, 'test')
    expect(prices).toEqual(eager.pairs.map((pair) => ({ ...eager.quote(pair, at) })))
    expect(sb.sandbox.prices.currencies).toEqual(eager.currencies)
    expect(sb.sandbox.pairs.all).toEqual(createTradingPairs(fixture).all)
    expect((await sb.api.get('/v1/pairs').set(sb.auth()).expect(200)).body.data.map((p: { pair: string }) => p.pair)).toEqual(createTradingPairs(fixture).all.map((p) => p.pair))
  })

  it("are read at start from a --fixtures folder, so a bad prices.json still stops it", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'start-services-'))
    try {
      cpSync(SHIPPED_FIXTURES_DIR, dir, { recursive: true })
      writeFileSync(join(dir, 'prices.json'), JSON.stringify({ pairs: ['ETH/USD'], assets: {} }))
      const start = createSandbox(loadConfig({ flags: { port: 0, clock: 'manual', quiet: true, fixtures: dir } as never }), { logger: silentLogger })
      await expect(start).rejects.toThrow(FixturesError)
      await expect(start).rejects.toThrow(/prices\.json is invalid/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe("the payouts', quotes', settlements' and orders' services", () => {
  it('are made by their first use, once', async () => {
    const sb = await started()
    await pay(sb)
    expect(built.services).toEqual([])
    await sb.api.get('/v1/payouts').set(sb.auth()).expect(200)
    expect(built.services).toEqual(['createPayoutService'])
    await sb.api.get('/v1/orders').set(sb.auth()).expect(200)
    expect(built.services).toEqual(['createPayoutService', 'createQuoteService', 'createOrderService'])
    await sb.api.get('/v1/settlements').set(sb.auth()).expect(200)
    await sb.api.get('/v1/orders').set(sb.auth()).expect(200)
    expect(built.services).toEqual(['createPayoutService', 'createQuoteService', 'createOrderService', 'createSettlementService'])
    expect(sb.sandbox.services.orders).toBe(sb.sandbox.services.orders)
  })
})

describe('order matching at start', () => {
  it('lists no orders of an account that never had one', async () => {
    const open = vi.spyOn(OrderIndex.prototype, 'open')
    try {
      await started()
      expect(open).not.toHaveBeenCalled()
    } finally {
      open.mockRestore()
    }
  })

  it('still resumes the orders that rest in a data file: they fill on the ticks of the restarted clock', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'start-services-'))
    try {
      const dataFile = join(dir, 'ledger.json')
      const first = await startTestSandbox({ dataFile, durability: 'strict' })
      const { eth, usdc } = await tradingWallets(first, { USDC: '100000', ETH: '3' })
      const order = (await first.api.post('/v1/orders').set(first.auth()).send({ pair: 'ETH/USDC', base_wallet: eth, quote_wallet: usdc, side: 'buy', type: 'limit', amount: '8', limit_price: '4000' }).expect(201)).body.data
      expect(order.status).toBe('partially_filled')
      await first.close()
      built.services = []
      const second = await startTestSandbox({ dataFile })
      opened.push(second)
      // Nothing but the clock: the tick timers were set as the sandbox started.
      await second.api.post('/_sandbox/clock/advance').send({ ms: 10_000 }).expect(200)
      expect(built.services).toEqual(['createQuoteService', 'createOrderService'])
      expect((await second.api.get(`/v1/orders/${order.id}`).set(second.auth()).expect(200)).body.data.status).toBe('filled')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
