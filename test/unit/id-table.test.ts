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
        for (const [i, id] of ids.entries()) {
          const item = { id }
          // addOrFind answers the record already there (and adds nothing), as a Map's get before a set.
          if (i % 2 === 0) expect(table.addNew(item)).toBe(!map.has(id))
          else expect(table.addOrFind(item)).toBe(map.get(id))
          if (!map.has(id)) map.set(id, item)
        }
        expect(table.size).toBe(map.size)
        for (const id of [...ids, ...probes]) expect(table.get(id)).toBe(map.get(id))
      }),
      { numRuns: 200 },
    )
  })

  it('finds every record at every moment while it grows, a few slots moved at a time', () => {
    const table = new IdTable<Item>((item) => item.id)
    const items = Array.from({ length: 100_000 }, (_, i) => ({ id: `pay_${i.toString(36)}` }))
    items.forEach((item, i) => {
      expect(table.addNew(item)).toBe(true)
      // Now and then, mid-growth, every record so far (a lookup also moves a few slots).
      if (i % 9_973 === 0) for (let j = 0; j <= i; j++) if (table.get(items[j]!.id) !== items[j]) throw new Error(`lost ${items[j]!.id} after ${i + 1} inserts`)
    })
    expect(table.addNew({ id: items[77_777]!.id })).toBe(false)
    expect(table.size).toBe(items.length)
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
