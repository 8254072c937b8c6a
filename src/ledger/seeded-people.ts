import { faker } from '@faker-js/faker/locale/en'

/** The person behind a seeded user wallet: its name and its external user id (`user_` + this). */
export interface SeededPerson {
  name: string
  userId: string
}

/**
 * What faker draws, seeded with the number a seeded account's generator gives, for the default
 * account under the default seed and the package's fixtures: every start seeds that account, and
 * the CLI and a library start then need no faker (its module and its English names were about 5 %
 * of a cold start, issue 33; the bundle loads faker with its first use, scripts/bundle-cli.mjs).
 * test/unit/seeded-people.test.ts checks each entry against faker and that a default start uses it
 * (and prints the entry to put here when the default seed or the fixtures change).
 */
const DRAWN: ReadonlyMap<number, readonly SeededPerson[]> = new Map([
  [
    1040001441,
    [
      { name: 'Kristine Bode DVM', userId: 'r23edk1eja' },
      { name: 'Celestino Klein', userId: '3azeu9sqt3' },
      { name: 'Otho Lubowitz', userId: 'ss921ncs2z' },
      { name: 'Mrs. Gwen Orn', userId: 'mya6p88vx2' },
    ],
  ],
])

/** `count` people, as faker seeded with `fakerSeed` draws them: a full name, then a 10-character lower-case id, each. */
export function seededPeople(fakerSeed: number, count: number): SeededPerson[] {
  const drawn = DRAWN.get(fakerSeed)
  if (drawn && drawn.length >= count) return drawn.slice(0, count)
  faker.seed(fakerSeed)
  return Array.from({ length: count }, () => ({ name: faker.person.fullName(), userId: faker.string.alphanumeric({ length: 10, casing: 'lower' }) }))
}

/** Each seed `DRAWN` holds, with the number of people it holds. */
export const drawnSeeds = (): Array<[number, number]> => [...DRAWN].map(([seed, people]) => [seed, people.length])
