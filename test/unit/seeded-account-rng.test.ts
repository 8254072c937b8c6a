import { describe, expect, it } from 'vitest'
import { createClock } from '../../src/clock.js'
import { loadFixtures, SHIPPED_FIXTURES_DIR } from '../../src/fixtures.js'
import { createAccounts } from '../../src/ledger/accounts.js'
import { createRng } from '../../src/rng.js'
import { createMemoryStore } from '../../src/store/store.js'

// A seeded account whose ids come from a seed of this start (or a later generation) gets a generator
// forked from its seeding's on first use (src/ledger/accounts.ts, issue 33, round 9).
const seededDefault = () =>
  createAccounts({
    store: createMemoryStore(),
    clock: createClock({ mode: 'manual', start: Date.UTC(2026, 0, 1) }),
    fixtures: loadFixtures(SHIPPED_FIXTURES_DIR),
    seed: 'seeded-account-rng',
    idSeed: 'a-start-of-its-own',
  }).ensureDefault()

describe("a seeded account's generator, forked on first use", () => {
  it('draws what it drew when forked at once, and the account then holds the forked generator', () => {
    const reference = seededDefault()
    const expected = [reference.rng.base62(12), reference.rng.base62(12), reference.rng.base62(12)]

    const state = seededDefault()
    const kept = state.rng
    const first = kept.base62(12)
    expect(state.rng).not.toBe(kept)
    expect([first, state.rng.base62(12), kept.base62(12)]).toEqual(expected)
  })

  it('leaves a generator the account was given since (a data file restoring its own) in place', () => {
    const state = seededDefault()
    const kept = state.rng
    const restored = createRng('restored from a data file')
    state.rng = restored
    kept.next()
    expect(state.rng).toBe(restored)
  })
})
