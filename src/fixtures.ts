import { existsSync, readFileSync } from 'node:fs'
import { join, sep } from 'node:path'
import * as z from 'zod'
import { NETWORKS } from './model/networks.js'
import { SCOPES } from './model/records.js'
import { lazily } from './lazily.js'

/**
 * Where the fixtures shipped with the package live (`fixtures/` next to `src/` or `dist/`). From the
 * module's folder rather than through a URL: a process's first URL parsed is about 0.4 ms (a CLI
 * start parsed none before this one, issue 33).
 */
export const SHIPPED_FIXTURES_DIR = join(import.meta.dirname, '..', 'fixtures')

/**
 * The fixture files `loadFixtures` reads, with their schemas (prices.json belongs to
 * src/market/price-fixture.ts). Built only to validate a `--fixtures` folder: the package's own files
 * are read without them.
 */
export const fixtureSchemas = lazily(() => {
  const Decimal = z.string().regex(/^(0|[1-9][0-9]*)(\.[0-9]+)?$/)
  const SeedWallet = z.object({ network: z.enum(NETWORKS), currency: z.string(), balance: Decimal })

  const AccountsFixtureSchema = z.object({
    default_account: z.object({
      id: z.string().regex(/^acct_[A-Za-z0-9]{24}$/),
      keys: z.array(
        z.object({
          key: z.string().regex(/^(sk|rk)_test_[A-Za-z0-9_]{8,}$/),
          type: z.enum(['secret', 'restricted']),
          scopes: z.array(z.union([z.enum(SCOPES), z.literal('*')])).optional(),
          allowed_ips: z.array(z.string()).default([]),
        }),
      ),
    }),
    institutional_wallets: z.array(SeedWallet),
    user_wallets: z.array(SeedWallet),
  })

  const NetworksFixtureSchema = z.object({
    screening_delay_ms: z.number().int().min(0),
    confirmation_delay_ms: z.record(z.enum(NETWORKS), z.number().int().min(0)),
  })

  const MagicFixtureSchema = z.array(
    z.object({
      network: z.enum(NETWORKS),
      address: z.string(),
      outcome: z.enum(['failed', 'pending']),
      failure_code: z.string().nullable(),
      stage: z.enum(['pending', 'processing']).nullable(),
      description: z.string(),
    }),
  )

  const SETTLEMENT_MAGIC_CODES = ['compliance_rejected', 'bridge_failed', 'beneficiary_account_closed', 'beneficiary_name_mismatch'] as const

  /** Destinations whose settlements fail (docs/settlements.md): addresses per network, bank accounts by one beneficiary field. */
  const SettlementMagicFixtureSchema = z.array(
    z.discriminatedUnion('destination_type', [
      z.object({ destination_type: z.literal('address'), network: z.enum(NETWORKS), address: z.string(), failure_code: z.enum(SETTLEMENT_MAGIC_CODES), description: z.string() }),
      z.object({
        destination_type: z.literal('bank_account'),
        currency: z.enum(['USD', 'EUR', 'GBP', 'MXN']),
        field: z.enum(['account_number', 'iban', 'clabe']),
        value: z.string(),
        failure_code: z.enum(SETTLEMENT_MAGIC_CODES),
        description: z.string(),
      }),
    ]),
  )

  const ScreeningFixtureSchema = z.array(z.object({ network: z.enum(NETWORKS), address: z.string(), reason: z.string() }))

  return {
    'accounts.json': AccountsFixtureSchema,
    'networks.json': NetworksFixtureSchema,
    'magic.json': MagicFixtureSchema,
    'screening.json': ScreeningFixtureSchema,
    'settlements.json': SettlementMagicFixtureSchema,
  } as const
})
type FixtureSchemas = ReturnType<typeof fixtureSchemas>

export type AccountsFixture = z.infer<FixtureSchemas['accounts.json']>
export type NetworksFixture = z.infer<FixtureSchemas['networks.json']>
export type MagicAddress = z.infer<FixtureSchemas['magic.json']>[number]
export type ScreeningEntry = z.infer<FixtureSchemas['screening.json']>[number]
export type SettlementMagic = z.infer<FixtureSchemas['settlements.json']>[number]

export interface Fixtures {
  accounts: AccountsFixture
  networks: NetworksFixture
  magic: MagicAddress[]
  screening: ScreeningEntry[]
  settlementMagic: SettlementMagic[]
  /** Other files (price pairs, …) read by the modules that own them. */
  dir: string
}

export class FixturesError extends Error {
  override name = 'FixturesError'
}

/** Reads and validates the fixture files of `dir`; throws FixturesError naming the file and problem. */
export function loadFixtures(dir: string): Fixtures {
  const accounts = readFixture(dir, 'accounts.json', () => fixtureSchemas()['accounts.json'])
  const networks = readFixture(dir, 'networks.json', () => fixtureSchemas()['networks.json'])
  const readMagic = () => readFixture(dir, 'magic.json', () => fixtureSchemas()['magic.json'])
  const readScreening = () => readFixture(dir, 'screening.json', () => fixtureSchemas()['screening.json'])
  // Folders made before settlements existed have no settlements.json: the shipped one stands in.
  const readSettlementMagic = () => readFixture(dir === SHIPPED_FIXTURES_DIR || existsSync(join(dir, 'settlements.json')) ? dir : SHIPPED_FIXTURES_DIR, 'settlements.json', () => fixtureSchemas()['settlements.json'])
  if (dir !== SHIPPED_FIXTURES_DIR) return { accounts, networks, magic: readMagic(), screening: readScreening(), settlementMagic: readSettlementMagic(), dir }
  // The package's own magic, screening and settlement files are read on first use (the first
  // payment or settlement, or GET /_sandbox/magic): a start until its first answer needs none of
  // them (issue 33, round 9: library-start). A `--fixtures` folder's are read and validated at
  // once, above, so that a bad file still stops the start.
  const magic = lazily(readMagic)
  const screening = lazily(readScreening)
  const settlementMagic = lazily(readSettlementMagic)
  return {
    accounts,
    networks,
    get magic() {
      return magic()
    },
    get screening() {
      return screening()
    },
    get settlementMagic() {
      return settlementMagic()
    },
    dir,
  }
}

/**
 * Reads one fixture file. Files of a `--fixtures` folder are validated; the package's own are not:
 * the test suite checks that each of them parses to exactly itself (test/unit/fixtures.test.ts),
 * and parsing them again on every start took about a tenth of the cold start.
 */
export function readFixture<T extends z.ZodType>(dir: string, name: string, schema: () => T): z.output<T> {
  // The package's folder is already a normalised absolute path: joined by hand, without path.join's
  // walk over every character, which runs cold at a start (six files, issue 33 round 7).
  const path = dir === SHIPPED_FIXTURES_DIR ? `${dir}${sep}${name}` : join(dir, name)
  let raw: unknown
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new FixturesError(`Fixture ${path} cannot be read: ${(error as Error).message}`)
  }
  if (dir === SHIPPED_FIXTURES_DIR) return raw as z.output<T>
  const parsed = schema().safeParse(raw)
  if (!parsed.success) throw new FixturesError(`Fixture ${path} is invalid:\n${z.prettifyError(parsed.error)}`)
  return parsed.data
}
