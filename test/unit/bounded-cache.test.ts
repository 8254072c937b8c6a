import { describe, expect, it } from 'vitest'
import { boundedCache } from '../../src/bounded-cache.js'

describe('boundedCache', () => {
  it('computes a key once while it is kept, null included, and starts afresh once the limit is reached', () => {
    const computed: string[] = []
    const lookUp = boundedCache(2, (key: string) => {
      computed.push(key)
      return key === 'none' ? null : key.toUpperCase()
    })
    expect([lookUp('a'), lookUp('a'), lookUp('none'), lookUp('none')]).toEqual(['A', 'A', null, null])
    expect(computed).toEqual(['a', 'none'])
    // Full: the third key empties the cache, so 'a' is computed again, and 'c' stays.
    expect([lookUp('c'), lookUp('a'), lookUp('c')]).toEqual(['C', 'A', 'C'])
    expect(computed).toEqual(['a', 'none', 'c', 'a'])
  })

  it('answers the last key asked from memory, as a copy of its text too, and its value whatever came between', () => {
    const computed: string[] = []
    const lookUp = boundedCache(1, (key: string) => {
      computed.push(key)
      return key === 'none' ? null : { key }
    })
    const first = lookUp('abc')
    expect(lookUp(Buffer.from('abc').toString('latin1'))).toBe(first)
    expect([lookUp('none'), lookUp('none')]).toEqual([null, null])
    expect(lookUp('abc')).toEqual({ key: 'abc' })
    expect(computed).toEqual(['abc', 'none', 'abc'])
  })
})
