import { describe, expect, it } from 'vitest'
import { presentOrder } from '../../src/ledger/present-order.js'
import type { OrderFill, OrderRecord } from '../../src/model/records.js'
import { formatAmount, scalePrice } from '../../src/money.js'
import { order as orderRecord } from '../helpers/store-records.js'

/** The fills as presented, worked out here from scratch every time. */
const expectedFills = (order: OrderRecord) => order.fills.map((fill) => ({ price: fill.price, amount: formatAmount(fill.amount, order.base_decimals), fee: formatAmount(fill.fee, order.quote_decimals), timestamp: fill.timestamp }))
const fill = (n: number, price = `3000.${String(n).padStart(3, '0')}`): OrderFill => ({ price, amount: 10n ** 18n * BigInt(n), fee: 1_000_000n * BigInt(n), timestamp: `2026-01-01T00:00:0${n % 10}.000Z` })

describe('presentOrder', () => {
  it('presents the fills an order has now, as they grow, when they are replaced, and once it is final', () => {
    const order = orderRecord(1, 'wal_0', 'wal_1')
    const seen: unknown[] = []
    const check = () => {
      const presented = presentOrder(order)
      expect(presented.fills).toEqual(expectedFills(order))
      seen.push(presented.fills)
    }
    check()
    for (let n = 1; n <= 3; n++) {
      order.fills = [...order.fills, fill(n)]
      check()
    }
    // A replayed journal decodes new fill objects: here with other values, to tell them apart.
    order.fills = order.fills.map((f, i) => fill(i + 5, `${i + 1}.5`))
    check()
    order.fills = order.fills.slice(0, 1)
    check()
    order.fills = [...order.fills, fill(9)]
    order.status = 'filled'
    check()
    check()
    // Each answer has a list of its own: later fills do not show in an earlier answer.
    expect((seen[1] as unknown[]).length).toBe(1)
    expect(new Set(seen).size).toBe(seen.length)
  })

  it('renders the average price with as many decimals as the most precise fill price so far', () => {
    const order = orderRecord(1, 'wal_0', 'wal_1')
    const filled = (...fills: OrderFill[]) => {
      order.fills = [...order.fills, ...fills]
      order.filled_units = order.fills.reduce((sum, f) => sum + f.amount, 0n)
      order.quote_num = order.fills.reduce((sum, f) => sum + f.amount * scalePrice(f.price) * 10n ** 6n, 0n)
      return presentOrder(order).average_price
    }
    expect(filled(fill(1, '3000.5'))).toBe('3000.50')
    // 1 ETH at 3000.5 and 1 at 3001.125: 3000.8125, written with the second price's 3 decimals, rounded down.
    expect(filled(fill(1, '3001.125'))).toBe('3000.812')
    expect(filled(fill(2, '3000'))).toBe('3000.406')
  })
})
