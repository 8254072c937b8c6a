import { faker } from '@faker-js/faker/locale/en'
import { describe, expect, it, vi } from 'vitest'
import { loadConfig } from '../../src/config.js'
import { silentLogger } from '../../src/logger.js'
import { createSandbox } from '../../src/sandbox.js'
import * as people from '../../src/ledger/seeded-people.js'

// The default account's user wallets take their names from a table rather than faker, so that a
// start needs no faker (src/ledger/seeded-people.ts). The table must be what faker draws, and must be
// the one a default start asks for.

const asked: Array<[number, number]> = []
vi.mock('../../src/ledger/seeded-people.js', async (importOriginal) => {
  const actual = await importOriginal<typeof people>()
  return {
    ...actual,
    seededPeople: (seed: number, count: number) => {
      asked.push([seed, count])
      return actual.seededPeople(seed, count)
    },
  }
})

/** What faker itself draws. */
const fromFaker = (seed: number, count: number) => {
  faker.seed(seed)
  return Array.from({ length: count }, () => ({ name: faker.person.fullName(), userId: faker.string.alphanumeric({ length: 10, casing: 'lower' }) }))
}

describe('seeded people', () => {
  it('are what faker draws, from the table and without it', () => {
    for (const [seed, count] of people.drawnSeeds()) expect(people.seededPeople(seed, count)).toEqual(fromFaker(seed, count))
    for (const seed of [0, 1, 42, 2 ** 32 - 1]) expect(people.seededPeople(seed, 6)).toEqual(fromFaker(seed, 6))
  })

  it("hold the default account's, under the default seed and the shipped fixtures", async () => {
    asked.length = 0
    const sandbox = await createSandbox(loadConfig({ flags: { clock: 'manual', quiet: true } }), { logger: silentLogger })
    await sandbox.close()
    const [seed, count] = asked[0]!
    // When the default seed or the fixtures change, the table's entry is this:
    expect({ seed, people: fromFaker(seed, count) }).toEqual({ seed, people: people.drawnSeeds().some(([known]) => known === seed) ? people.seededPeople(seed, count) : 'not in the table' })
  })
})
