import { isDeepStrictEqual } from 'node:util'
import * as z from 'zod'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { buildProgram } from '../../src/cli/program.js'
import { CONFIG_KEYS, configSchema, envName, flagName, loadConfig, type Config, type ConfigKey } from '../../src/config.js'

/**
 * A container is configured by environment alone (a GitHub Actions service container takes no
 * arguments), so every setting must be reachable through its WALLET_SANDBOX_* variable. The list of
 * settings comes from CONFIG_KEYS, so a new flag is covered the day it is added: for each one, the
 * test finds a value its schema accepts that differs from the default, gives it only as a variable,
 * and checks that loadConfig and the command line (with no flags) both end up with it.
 */

const KEYS = CONFIG_KEYS
const DEFAULTS = configSchema().parse({}) as Record<string, unknown>

/** Common forms of flag values; each setting takes the first its schema accepts with a non-default result. */
const COMMON_VALUES = [
  'true', 'false', '7', '250', '1', '0.5', '30s', '5s,30s', '20-80', 'https://hooks.example.test/in',
  `whsec_${Buffer.alloc(24, 7).toString('base64')}`, Buffer.alloc(32, 9).toString('base64'), '2026-02-03T04:05:06.000Z',
  'from-the-environment', '/data/ledger.json',
]

/** The closed sets a schema names (enums, literals), as candidate values before the common forms. */
function namedValues(schema: z.ZodType): string[] {
  const found: string[] = []
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk)
    if (!node || typeof node !== 'object') return
    for (const [field, value] of Object.entries(node)) {
      if (field === 'enum' && Array.isArray(value)) found.push(...value.map(String))
      else if (field === 'const') found.push(String(value))
      else walk(value)
    }
  }
  walk(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }))
  return found
}

/** A value given as a string, as a variable always is, that the setting parses to something other than its default. */
function sampleFor(key: ConfigKey): { raw: string; parsed: unknown } {
  const schema = configSchema().shape[key] as z.ZodType
  for (const raw of [...namedValues(schema), ...COMMON_VALUES]) {
    const result = schema.safeParse(raw)
    if (result.success && !isDeepStrictEqual(result.data, DEFAULTS[key])) return { raw, parsed: result.data }
  }
  throw new Error(`no value found for ${key} among its enum values and COMMON_VALUES: add one of its form there`)
}

afterEach(() => {
  vi.unstubAllEnvs()
})

describe('every setting by environment alone', () => {
  it('covers the whole schema', () => {
    expect(KEYS.length).toBeGreaterThanOrEqual(26)
    expect(KEYS).toEqual(expect.arrayContaining(['fixtures', 'seed', 'dataFile', 'controlToken', 'webhookRetries', 'latency', 'settle']))
  })

  it.each(KEYS)('%s has a WALLET_SANDBOX_ variable named after its flag', (key) => {
    expect(envName(key)).toBe(`WALLET_SANDBOX_${flagName(key).toUpperCase().replace(/-/g, '_')}`)
  })

  it.each(KEYS)('%s is set by its variable through loadConfig', (key) => {
    const sample = sampleFor(key)
    const config = loadConfig({ env: { [envName(key)]: sample.raw } })
    expect(config[key]).toEqual(sample.parsed)
    expect(config[key]).not.toEqual(DEFAULTS[key])
  })

  it.each(KEYS)('%s is set by its variable on a command line without flags', async (key) => {
    const sample = sampleFor(key)
    for (const name of Object.keys(process.env)) if (name.startsWith('WALLET_SANDBOX_')) vi.stubEnv(name, undefined)
    vi.stubEnv(envName(key), sample.raw)
    let config: Config | undefined
    await buildProgram(async (loaded) => void (config = loaded)).parseAsync([], { from: 'user' })
    expect(config![key]).toEqual(sample.parsed)
  })
})
