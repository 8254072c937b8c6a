import { describe, expect, it } from 'vitest'
import { createRng } from '../../src/rng.js'

describe('the seeded generator', () => {
  it('gives the same base62 text for a seed as it always has: ids of a seed are part of the contract', () => {
    // Written down from the generator before base62 built its text from character codes (issue 33).
    const rng = createRng('seed', 'x')
    expect([rng.base62(24), rng.base62(5), rng.base62(40)]).toEqual(['S5FjRTSJ9per94pLa54hcaEH', 'VlTWN', 'zGT3wpx3EHhunxpjw2m88GQJMWSmpzCkjvg3im2Y'])
    expect(rng.base62(0)).toBe('')
  })
})
