import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { fixtureSchemas, FixturesError, loadFixtures, SHIPPED_FIXTURES_DIR } from '../../src/fixtures.js'
import { priceFixtureSchema } from '../../src/market/price-fixture.js'

const schemas = { ...fixtureSchemas(), 'prices.json': priceFixtureSchema() }
const shipped = (name: string): unknown => JSON.parse(readFileSync(join(SHIPPED_FIXTURES_DIR, name), 'utf8'))

describe('the fixtures shipped with the package', () => {
  // The sandbox reads these without validating them at start-up (a cold-start saving), which is
  // only right if each one is already exactly what its schema would make of it: no default to fill
  // in, no value to transform, nothing to reject.
  it.each(Object.entries(schemas))('%s parses to exactly itself', (name, schema) => {
    const raw = shipped(name)
    expect(schema.parse(raw)).toEqual(raw)
  })

  it('load as they are', () => {
    const fixtures = loadFixtures(SHIPPED_FIXTURES_DIR)
    expect(fixtures.accounts).toEqual(shipped('accounts.json'))
    expect(fixtures.magic).toEqual(shipped('magic.json'))
    expect(fixtures.screening).toEqual(shipped('screening.json'))
    expect(fixtures.settlementMagic).toEqual(shipped('settlements.json'))
    // Read on first use (issue 33, round 9): the same array each time after that.
    expect(fixtures.magic).toBe(fixtures.magic)
  })
})

describe('a --fixtures folder of the user', () => {
  it('is validated, and a problem names the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fixtures-test-'))
    try {
      cpSync(SHIPPED_FIXTURES_DIR, dir, { recursive: true })
      const accounts = shipped('accounts.json') as { default_account: { keys: Array<Record<string, unknown>> } }
      delete accounts.default_account.keys[0]!.allowed_ips
      writeFileSync(join(dir, 'accounts.json'), JSON.stringify(accounts))
      // A default is filled in, as the schema says…
      expect(loadFixtures(dir).accounts.default_account.keys[0]!.allowed_ips).toEqual([])
      // …and a bad file is refused.
      writeFileSync(join(dir, 'networks.json'), JSON.stringify({ screening_delay_ms: -1, confirmation_delay_ms: {} }))
      expect(() => loadFixtures(dir)).toThrow(FixturesError)
      expect(() => loadFixtures(dir)).toThrow(/networks\.json is invalid/)
      // A user's magic, screening and settlement files are still read and checked as the folder loads.
      writeFileSync(join(dir, 'networks.json'), JSON.stringify(shipped('networks.json')))
      writeFileSync(join(dir, 'magic.json'), JSON.stringify([{ network: 'polygon' }]))
      expect(() => loadFixtures(dir)).toThrow(/magic\.json is invalid/)
      writeFileSync(join(dir, 'magic.json'), JSON.stringify(shipped('magic.json')))
      writeFileSync(join(dir, 'settlements.json'), '{')
      expect(() => loadFixtures(dir)).toThrow(/settlements\.json cannot be read/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
