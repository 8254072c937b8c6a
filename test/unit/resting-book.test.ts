import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { crosses } from '../../src/ledger/order-fills.js'
import type { OrderRecord, OrderStatus } from '../../src/model/records.js'
import { scalePrice } from '../../src/money.js'
import { OrderIndex } from '../../src/store/order-index.js'

const PAIRS = ['ETH/USDC', 'SOL/USDC', 'ETH/SOL']
// Equal prices written differently, neighbours a unit of 10^-18 apart, and decimals beyond 18 (dropped, as fills drop them).
const PRICES = ['0.5', '0.50', '1', '1.00', '1.000000000000000001', '1.0000000000000000019', '2999.99', '3000', '3000.000000000000000001', '12']
const EXPIRIES = [null, null, '1970-01-01T00:00:01.000Z', '1970-01-01T00:00:02.500Z', '1970-01-01T00:00:04.000Z']

function order(seq: number, pair: string, side: 'buy' | 'sell', limit: string | null, expires: string | null): OrderRecord {
  return {
    id: `ord_${seq}`, seq, pair, base: 'B', quote: 'Q', side, type: limit === null ? 'market' : 'limit', status: 'open', time_in_force: expires ? 'gtd' : 'gtc',
    amount_units: 10n, filled_units: 0n, limit_price: limit, expires_at: expires, base_wallet: 'wal_b', quote_wallet: 'wal_q', base_decimals: 6, quote_decimals: 6,
    quote_id: null, fee_bps: 10, quote_num: 0n, quote_units: 0n, fee_units: 0n, locked_units: 0n, fills: [], reject_reason: null, metadata: {},
    created_at: '1970-01-01T00:00:00.000Z', updated_at: '1970-01-01T00:00:00.000Z', completed_at: null,
  }
}

/** The reference: every open order in creation order, kept when the tick's price reaches its limit or it has expired. */
function scan(index: OrderIndex, at: number, quotes: Map<string, { bid: string; ask: string }>): number[] {
  return index
    .open()
    .filter((o) => crosses(o, quotes.get(o.pair)!.bid, quotes.get(o.pair)!.ask) || (o.expires_at !== null && Date.parse(o.expires_at) <= at))
    .map((o) => o.seq)
}

const price = fc.constantFrom(...PRICES)
const step = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('add' as const), pair: fc.constantFrom(...PAIRS), side: fc.constantFrom('buy' as const, 'sell' as const), limit: fc.option(price, { freq: 8 }), expires: fc.constantFrom(...EXPIRIES) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('status' as const), pick: fc.nat(1000), status: fc.constantFrom<OrderStatus>('partially_filled', 'filled', 'cancelled', 'expired', 'rejected') }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('limit' as const), pick: fc.nat(1000), limit: fc.option(price, { freq: 8 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('tick' as const), at: fc.integer({ min: 0, max: 5000 }), bids: fc.array(price, { minLength: 3, maxLength: 3 }), asks: fc.array(price, { minLength: 3, maxLength: 3 }) }) },
)

describe('the book of resting orders', () => {
  it('finds for every tick exactly the orders a scan of every open order finds, in creation order, through adds, fills, endings and edits in place', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 150 }), (steps) => {
        const index = new OrderIndex()
        const orders: OrderRecord[] = []
        const wrong: string[] = []
        for (const s of steps) {
          if (s.kind === 'add') {
            const created = order(orders.length + 1, s.pair, s.side, s.limit, s.expires)
            orders.push(created)
            index.add(created)
          } else if (s.kind === 'status' && orders.length > 0) {
            // As the store does it: the stored record changed in place, then the index told.
            const target = orders[s.pick % orders.length]!
            const previous = target.status
            target.status = s.status
            index.statusChanged(target, previous)
          } else if (s.kind === 'limit' && orders.length > 0) {
            // A put that changes a limit (never the ledger; a hand-edited journal could).
            const target = orders[s.pick % orders.length]!
            target.limit_price = s.limit
            index.statusChanged(target, target.status)
          } else if (s.kind === 'tick') {
            const quotes = new Map(PAIRS.map((pair, i) => [pair, { bid: s.bids[i]!, ask: s.asks[i]! }]))
            const asked: string[] = []
            const due = index.book.due(s.at, (pair) => {
              asked.push(pair)
              const { bid, ask } = quotes.get(pair)!
              return { bid: scalePrice(bid), ask: scalePrice(ask) }
            })
            const got = due.map((o) => o.seq).join()
            const want = scan(index, s.at, quotes).join()
            if (got !== want) wrong.push(`tick at ${s.at}: ${got}, not ${want}`)
            if (new Set(asked).size !== asked.length) wrong.push(`a pair's quote asked twice: ${asked.join()}`)
          }
          if (index.openCount() !== index.open().length) wrong.push(`${index.openCount()} in the book, ${index.open().length} open`)
        }
        expect(wrong).toEqual([])
      }),
      { numRuns: 300 },
    )
  })

  it('answers the one order a tick reaches among a thousand that rest on both sides', () => {
    const index = new OrderIndex()
    for (let seq = 1; seq <= 1000; seq++) index.add(order(seq, 'ETH/USDC', seq % 2 ? 'buy' : 'sell', seq % 2 ? '100' : '10000', null))
    const reached = order(1001, 'ETH/USDC', 'buy', '3000', null)
    index.add(reached)
    expect(index.book.due(0, () => ({ bid: scalePrice('2999'), ask: scalePrice('3000') }))).toEqual([reached])
  })
})
