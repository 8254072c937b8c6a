import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { FacetIndex } from '../../src/store/facet-index.js'

/** A record with four facets: `a` of many values, `b` of a few, `d` that follows from `b` (mostly), `c` that changes. */
interface Item {
  seq: number
  a: string
  b: string
  d: string
  c: string
}

const FACETS = [{ key: (r: Item) => r.a }, { key: (r: Item) => r.b }, { key: (r: Item) => r.d, impliedBy: 1 }, { key: (r: Item) => r.c }]
const A = ['a0', 'a1', 'a2', 'a3']
const B = ['b0', 'b1']
const C = ['c0', 'c1', 'c2']
const D = ['d_b0', 'd_b1', 'd_other']

/** Every combination of filters: each facet absent or one of its values (some never used). */
const FILTERS: Array<Array<string | undefined>> = []
for (const a of [undefined, 'a0', 'a3', 'a_none']) for (const b of [undefined, ...B]) for (const d of [undefined, ...D]) for (const c of [undefined, ...C]) FILTERS.push([a, b, d, c])

/** The reference answer: a plain scan, newest first. */
function scan(records: Item[], filter: ReadonlyArray<string | undefined>): number[] {
  return records
    .filter((r) => FACETS.every((facet, j) => filter[j] === undefined || facet.key(r) === filter[j]))
    .map((r) => r.seq)
    .reverse()
}

const op = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), a: fc.constantFrom(...A), b: fc.constantFrom(...B), c: fc.constantFrom(...C), odd: fc.nat(30) }),
  fc.record({ kind: fc.constant('change' as const), pick: fc.nat(1000), c: fc.constantFrom(...C) }),
)

describe('FacetIndex', () => {
  it('answers every combination of filters, at every page, exactly like a scan, through adds and changes', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 100 }), fc.constantFrom(1, 2, 4, 64), fc.boolean(), fc.nat(100), fc.constantFrom(1, 3, 4096), fc.boolean(), (ops, splitAt, mayBreak, pushed, maxRoutes, explicit) => {
        // A small split threshold makes nodes grow children early, and some stay small: both paths run.
        // The first `pushed` records are listed in bulk (push, then build), as a data file's load does;
        // without an explicit build, what follows waits too and the first query builds. A cache of few
        // routes is forgotten often.
        const index = new FacetIndex(FACETS, (r) => r.seq, splitAt, maxRoutes)
        const records: Item[] = []
        let bulk = true
        for (const [i, step] of ops.entries()) {
          if (bulk && (step.kind !== 'add' || i >= pushed)) {
            if (explicit) index.build()
            bulk = false
          }
          if (step.kind === 'add') {
            // Now and then (when allowed) a record breaks the implication b → d, as hand-edited data could.
            const d = mayBreak && step.odd === 0 ? 'd_other' : `d_${step.b}`
            const record = { seq: records.length + 1, a: step.a, b: step.b, d, c: step.c }
            records.push(record)
            if (bulk) index.push(record)
            else index.add(record)
          } else if (records.length > 0) {
            const record = records[step.pick % records.length]!
            const previous = index.keysOf(record)
            record.c = step.c
            index.changed(record, previous)
          }
        }
        if (bulk && explicit) index.build()
        expect(index.all.map((r) => r.seq)).toEqual(records.map((r) => r.seq))
        // Compared as text and checked once: an expect per page would be most of this test's time.
        const wrong: string[] = []
        for (const filter of FILTERS) {
          const expected = scan(records, filter)
          for (const [offset, limit] of [[0, 1000], [2, 3], [Math.max(expected.length - 1, 0), 5]] as const) {
            const page = index.query(filter, offset, limit)
            const want = `${expected.slice(offset, offset + limit).join()} of ${expected.length}`
            const got = `${page.items.map((r) => r.seq).join()} of ${page.total}`
            if (got !== want) wrong.push(`${filter.join('/')} at ${offset}+${limit}: ${got}, not ${want}`)
          }
        }
        expect(wrong).toEqual([])
      }),
      { numRuns: 80 },
    )
  })

  it('keeps a record in order when it changes, wherever it sits in a list', () => {
    const index = new FacetIndex(FACETS, (r) => r.seq, 1)
    const records = [1, 2, 3, 4, 5].map((seq) => ({ seq, a: 'a0', b: 'b0', d: 'd_b0', c: seq % 2 === 0 ? 'c1' : 'c0' }))
    for (const record of records) index.add(record)
    for (const seq of [4, 2]) {
      const record = records[seq - 1]!
      const previous = index.keysOf(record)
      record.c = 'c0'
      index.changed(record, previous)
    }
    expect(index.query(['a0', 'b0', 'd_b0', 'c0'], 0, 10).items.map((r) => r.seq)).toEqual([5, 4, 3, 2, 1])
    expect(index.query([undefined, undefined, undefined, 'c1'], 0, 10)).toEqual({ items: [], total: 0 })
    expect(index.query([undefined, 'b0', 'd_b1', undefined], 0, 10)).toEqual({ items: [], total: 0 })
  })

  it('builds its lists in bulk from records pushed out of creation order', () => {
    const index = new FacetIndex(FACETS, (r) => r.seq, 1)
    for (const seq of [3, 1, 2]) index.push({ seq, a: 'a0', b: 'b0', d: 'd_b0', c: seq === 2 ? 'c1' : 'c0' })
    expect(index.query([undefined, undefined, undefined, undefined], 0, 10).total).toBe(3)
    index.build()
    expect(index.all.map((r) => r.seq)).toEqual([1, 2, 3])
    expect(index.query(['a0', 'b0', undefined, 'c0'], 0, 10).items.map((r) => r.seq)).toEqual([3, 1])
    index.add({ seq: 4, a: 'a1', b: 'b0', d: 'd_b0', c: 'c1' })
    expect(index.query([undefined, 'b0', undefined, 'c1'], 0, 10).items.map((r) => r.seq)).toEqual([4, 2])
  })

  it('takes a record added out of creation order (hand-edited data) into its place', () => {
    const index = new FacetIndex(FACETS, (r) => r.seq, 1)
    for (const seq of [1, 2, 4, 5, 3]) index.add({ seq, a: 'a0', b: 'b0', d: 'd_b0', c: seq === 3 ? 'c1' : 'c0' })
    expect(index.all.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5])
    expect(index.query(['a0', undefined, undefined, 'c0'], 0, 10).items.map((r) => r.seq)).toEqual([5, 4, 2, 1])
    expect(index.query([undefined, 'b0', undefined, 'c1'], 0, 10).items.map((r) => r.seq)).toEqual([3])
  })

  it('makes its lists on the first record added or listed, and answers then as an index made with them', () => {
    // Every account's payment, order and settlement index starts empty: an empty tree was young allocation of every start (issue 33, round 10).
    const lazy = new FacetIndex(FACETS, (r) => r.seq, 1)
    expect(lazy.all).toEqual([])
    expect(lazy.keysOf({ seq: 1, a: 'a0', b: 'b0', d: 'd_b0', c: 'c0' })).toEqual(['a0', 'b0', 'd_b0', 'c0'])
    expect(lazy.ordinalOf({ seq: 1, a: 'a0', b: 'b0', d: 'd_b0', c: 'c0' })).toBeUndefined()
    lazy.push({ seq: 1, a: 'a0', b: 'b0', d: 'd_b0', c: 'c0' })
    expect(lazy.treeMade).toBe(false)
    expect(lazy.query([undefined, 'b0', undefined, 'c0'], 0, 10).items.map((r) => r.seq)).toEqual([1])
    expect(lazy.treeMade).toBe(true)

    // An empty index answers every list empty without making them (a start asks each account for its open payments and orders).
    const asked = new FacetIndex(FACETS, (r) => r.seq, 1)
    for (const filter of FILTERS) expect(asked.query(filter, 0, 10)).toEqual({ items: [], total: 0 })
    expect(asked.query([undefined, undefined, undefined, undefined], 5, 0)).toEqual({ items: [], total: 0 })
    expect(asked.treeMade).toBe(false)

    const added = new FacetIndex(FACETS, (r) => r.seq, 1)
    expect(added.treeMade).toBe(false)
    const records = [1, 2, 3].map((seq) => ({ seq, a: 'a0', b: seq === 2 ? 'b1' : 'b0', d: seq === 2 ? 'd_b1' : 'd_b0', c: 'c0' }))
    for (const record of records) added.add(record)
    expect(added.treeMade).toBe(true)
    expect(added.query([undefined, 'b0', 'd_b0', 'c0'], 0, 10).items.map((r) => r.seq)).toEqual([3, 1])
    expect(added.query([undefined, 'b1', undefined, undefined], 0, 10).total).toBe(1)
  })

  it('keeps records of equal order (hand-edited data) and finds each when it changes', () => {
    const index = new FacetIndex(FACETS, (r) => r.seq, 1)
    const records = [1, 2, 2, 3].map((seq, i) => ({ seq, a: 'a0', b: 'b0', d: 'd_b0', c: `c${i % 2}` }))
    for (const record of records) index.add(record)
    const twin = records[2]!
    const previous = index.keysOf(twin)
    twin.c = 'c2'
    index.changed(twin, previous)
    expect(index.query([undefined, undefined, undefined, 'c2'], 0, 10).items).toEqual([twin])
    expect(index.query(['a0', 'b0', undefined, undefined], 0, 10).total).toBe(4)
  })
})
