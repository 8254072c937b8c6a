import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { findLedgerViolations } from '../../../src/ledger/ledger-check.js'
import { startTestSandbox, type TestSandbox } from '../../helpers/start-test-sandbox.js'
import { ledgerViolations, tradingWallets } from '../../helpers/orders.js'

const cleanup: Array<() => unknown> = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})
async function sandbox(overrides: Record<string, unknown> = {}): Promise<TestSandbox> {
  const sb = await startTestSandbox(overrides)
  cleanup.push(() => sb.close())
  return sb
}

/** A few orders in every state a resting book can hold: open gtd, partially filled, filled, cancelled. */
async function trade(sb: TestSandbox) {
  const { eth, usdc } = await tradingWallets(sb, { USDC: '100000', ETH: '3' })
  const place = (body: Record<string, unknown>) => sb.api.post('/v1/orders').set(sb.auth()).send({ pair: 'ETH/USDC', base_wallet: eth, quote_wallet: usdc, ...body }).expect(201)
  const gtd = (await place({ side: 'buy', type: 'limit', amount: '1', limit_price: '100', time_in_force: 'gtd', expires_at: '2026-01-01T00:00:10.000Z' })).body.data
  const partial = (await place({ side: 'buy', type: 'limit', amount: '8', limit_price: '4000' })).body.data
  await place({ side: 'sell', type: 'market', amount: '0.5' })
  const cancelled = (await place({ side: 'sell', type: 'limit', amount: '1', limit_price: '100000' })).body.data
  await sb.api.post(`/v1/orders/${cancelled.id}/cancel`).set(sb.auth()).expect(200)
  return { gtd, partial }
}
const orders = async (sb: TestSandbox) => (await sb.api.get('/v1/orders?limit=100').set(sb.auth()).expect(200)).body.data

describe('orders in snapshots and the data file', () => {
  it('restores orders, their locks, the event sequence and what still falls due', async () => {
    const sb = await sandbox()
    const { gtd, partial } = await trade(sb)
    const before = await orders(sb)
    const snapshot = (await sb.api.get('/_sandbox/snapshot').expect(200)).body.data
    await sb.api.post('/_sandbox/reset').send({}).expect(200)
    expect(await orders(sb)).toEqual([])
    await sb.api.post('/_sandbox/restore').send(snapshot).expect(200)
    expect(await orders(sb)).toEqual(before)
    expect(ledgerViolations(sb, findLedgerViolations)).toEqual([])

    // The partially filled order goes on filling on ticks, and the gtd order still expires on time.
    await sb.api.post('/_sandbox/clock/advance').send({ ms: 10_000 }).expect(200)
    const after = await orders(sb)
    expect(after.find((o: { id: string }) => o.id === partial.id)).toMatchObject({ status: 'filled' })
    expect(after.find((o: { id: string }) => o.id === gtd.id)).toMatchObject({ status: 'expired', updated_at: '2026-01-01T00:00:10.000Z' })
    expect(ledgerViolations(sb, findLedgerViolations)).toEqual([])
  })

  it('keeps orders across a restart on the data file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orders-'))
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }))
    const dataFile = join(dir, 'ledger.json')
    const first = await startTestSandbox({ dataFile, durability: 'strict' })
    await trade(first)
    const before = await orders(first)
    await first.close()
    const second = await sandbox({ dataFile })
    expect(await orders(second)).toEqual(before)
    expect(ledgerViolations(second, findLedgerViolations)).toEqual([])
    expect(second.sandbox.store.accounts.get('acct_sandboxDefaultAccount000')!.account.order_events).toBe(7)
  })

  it('gives identical orders and fills for the same seed, manual clock and requests', async () => {
    const run = async () => {
      const sb = await sandbox({ seed: 'same' })
      await trade(sb)
      await sb.api.post('/_sandbox/clock/advance').send({ ms: 3_000 }).expect(200)
      return JSON.stringify(await orders(sb))
    }
    expect(await run()).toBe(await run())
  })
})
