import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import * as z from 'zod'
import { NETWORKS } from './chain/networks.js'
import { SCOPES } from './store/records.js'

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

const ScreeningFixtureSchema = z.array(z.object({ network: z.enum(NETWORKS), address: z.string(), reason: z.string() }))

export type AccountsFixture = z.infer<typeof AccountsFixtureSchema>
export type NetworksFixture = z.infer<typeof NetworksFixtureSchema>
export type MagicAddress = z.infer<typeof MagicFixtureSchema>[number]
export type ScreeningEntry = z.infer<typeof ScreeningFixtureSchema>[number]

export interface Fixtures {
  accounts: AccountsFixture
  networks: NetworksFixture
  magic: MagicAddress[]
  screening: ScreeningEntry[]
  /** Other files (price pairs, …) read by the modules that own them. */
  dir: string
}

export class FixturesError extends Error {
  override name = 'FixturesError'
}

/** Reads and validates the fixture files of `dir`; throws FixturesError naming the file and problem. */
export function loadFixtures(dir: string): Fixtures {
  return {
    accounts: readFixture(dir, 'accounts.json', AccountsFixtureSchema),
    networks: readFixture(dir, 'networks.json', NetworksFixtureSchema),
    magic: readFixture(dir, 'magic.json', MagicFixtureSchema),
    screening: readFixture(dir, 'screening.json', ScreeningFixtureSchema),
    dir,
  }
}

export function readFixture<T extends z.ZodType>(dir: string, name: string, schema: T): z.output<T> {
  const path = join(dir, name)
  let raw: unknown
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new FixturesError(`Fixture ${path} cannot be read: ${(error as Error).message}`)
  }
  const parsed = schema.safeParse(raw)
  if (!parsed.success) throw new FixturesError(`Fixture ${path} is invalid:\n${z.prettifyError(parsed.error)}`)
  return parsed.data
}
