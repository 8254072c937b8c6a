import { describe, expect, it } from 'vitest'
import { createRng, restoreRng } from '../../src/rng.js'

describe('the seeded generator', () => {
  it('gives the same base62 text for a seed as it always has: ids of a seed are part of the contract', () => {
    // Written down from the generator before base62 built its text from character codes (issue 33).
    const rng = createRng('seed', 'x')
    expect([rng.base62(24), rng.base62(5), rng.base62(40)]).toEqual(['S5FjRTSJ9per94pLa54hcaEH', 'VlTWN', 'zGT3wpx3EHhunxpjw2m88GQJMWSmpzCkjvg3im2Y'])
    expect(rng.base62(0)).toBe('')
  })

  it('goes on from a restored state with words at the edges of 32 bits as it always has (the state kept in an Int32Array since issue 33)', () => {
    // Written down from the generator that kept its words in four variables: the largest word, the
    // one past int32's range, int32's largest, and zero, each wrapped to 32 bits as it was before.
    const rng = restoreRng([4294967295, 2147483648, 2147483647, 0])
    expect(rng.state()).toEqual([4294967295, 2147483648, 2147483647, 0])
    expect([rng.uint32(), rng.uint32(), rng.uint32(), rng.uint32()]).toEqual([2147483647, 4194296, 4281335800, 2145400259])
    expect(rng.base62(8)).toBe('czpRh6q9')
    expect(rng.state()).toEqual([3262128019, 923942410, 3776584562, 12])
  })
})
