import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { IdTable } from '../../src/store/id-table.js'

interface Item {
  id: string
}

describe('IdTable', () => {
  it('finds exactly what a Map finds, through growth, repeats and misses (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 6 }), { maxLength: 300 }), fc.array(fc.string({ maxLength: 6 }), { maxLength: 50 }), (ids, probes) => {
        const table = new IdTable<Item>((item) => item.id, 1)
        const map = new Map<string, Item>()
        for (const id of ids) {
          const item = { id }
          expect(table.addNew(item)).toBe(!map.has(id))
          if (!map.has(id)) map.set(id, item)
        }
        expect(table.size).toBe(map.size)
        for (const id of [...ids, ...probes]) expect(table.get(id)).toBe(map.get(id))
      }),
      { numRuns: 200 },
    )
  })

  it('keeps ids that share a hash slot apart (a table of 8 slots, 4 ids)', () => {
    const table = new IdTable<Item>((item) => item.id, 8)
    const items = ['pay_a', 'pay_b', 'pay_c', 'pay_d'].map((id) => ({ id }))
    for (const item of items) expect(table.addNew(item)).toBe(true)
    for (const item of items) expect(table.get(item.id)).toBe(item)
    expect(table.get('pay_e')).toBeUndefined()
    expect(table.addNew({ id: 'pay_c' })).toBe(false)
    expect(table.get('pay_c')).toBe(items[2])
  })
})
