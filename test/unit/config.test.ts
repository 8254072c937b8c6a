import { afterEach, describe, expect, it, vi } from 'vitest'
import { buildProgram } from '../../src/cli/program.js'
import { CONFIG_KEYS, ConfigError, DEFAULT_FIXTURES_DIR, envName, flagName, idsVaryAcrossStarts, loadConfig, seedOf, type Config, type ConfigKey } from '../../src/config.js'

/** loadConfig's error message, or a failure if it did not throw a ConfigError. */
function configError(sources: Parameters<typeof loadConfig>[0]): string {
  try {
    loadConfig(sources)
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    return (error as Error).message
  }
  throw new Error('expected a ConfigError')
}

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const config = loadConfig()
    expect(config).toMatchObject({
      port: 4400,
      host: '127.0.0.1',
      auth: 'open',
      envelope: 'wrapped',
      lenient: false,
      rateLimit: 10,
      fixtures: DEFAULT_FIXTURES_DIR,
      whitelistEnforced: false,
      bodyLimit: 102_400,
      settle: 'auto',
      durability: 'batched',
      clock: 'real',
      clockStart: '2026-01-01T00:00:00.000Z',
      quiet: false,
      errorRate: 0,
      quoteTtl: 30_000,
    })
    // Not given, it is the default seed, and the ids of created objects differ across starts (ids across starts).
    expect(config.seed).toBeUndefined()
    expect(seedOf(config)).toBe('wallet-sandbox')
    expect(idsVaryAcrossStarts(config)).toBe(true)
    expect(idsVaryAcrossStarts(loadConfig({ flags: { seed: 'wallet-sandbox' } }))).toBe(false)
    expect(config.dataFile).toBeUndefined()
    expect(config.latency).toBeUndefined()
  })

  it('returns a frozen config', () => {
    expect(Object.isFrozen(loadConfig())).toBe(true)
  })

  it('lets environment variables override defaults and flags override both', () => {
    const env = { WALLET_SANDBOX_PORT: '5000', WALLET_SANDBOX_SEED: 'from-env', WALLET_SANDBOX_AUTH: 'strict' }
    expect(loadConfig({ env })).toMatchObject({ port: 5000, seed: 'from-env', auth: 'strict' })
    expect(loadConfig({ env, flags: { port: '6000', auth: 'open' } })).toMatchObject({ port: 6000, seed: 'from-env', auth: 'open' })
  })

  it('reads --durability from WALLET_SANDBOX_DURABILITY too', () => {
    expect(loadConfig({ env: { WALLET_SANDBOX_DURABILITY: 'strict' } }).durability).toBe('strict')
  })

  it('ignores an empty environment variable', () => {
    expect(loadConfig({ env: { WALLET_SANDBOX_PORT: '' } }).port).toBe(4400)
  })

  it('ignores environment variables without the WALLET_SANDBOX_ prefix', () => {
    expect(loadConfig({ env: { PORT: '1234', HOST: '0.0.0.0' } })).toMatchObject({ port: 4400, host: '127.0.0.1' })
  })

  it.each([
    ['true', true],
    ['1', true],
    ['false', false],
    ['0', false],
  ])('reads the boolean variable value %j as %s', (value, expected) => {
    const config = loadConfig({ env: { WALLET_SANDBOX_LENIENT: value, WALLET_SANDBOX_QUIET: value, WALLET_SANDBOX_WHITELIST_ENFORCED: value } })
    expect(config.lenient).toBe(expected)
    expect(config.quiet).toBe(expected)
    expect(config.whitelistEnforced).toBe(expected)
  })

  it('lets a boolean flag win over its variable', () => {
    expect(loadConfig({ env: { WALLET_SANDBOX_LENIENT: 'false' }, flags: { lenient: true } }).lenient).toBe(true)
    expect(loadConfig({ env: { WALLET_SANDBOX_LENIENT: '1' }, flags: { lenient: false } }).lenient).toBe(false)
  })

  it('parses latency as one value or a range, and the retry schedule as delays', () => {
    expect(loadConfig({ flags: { latency: '50' } }).latency).toEqual([50, 50])
    expect(loadConfig({ flags: { latency: '20-80' } }).latency).toEqual([20, 80])
    expect(loadConfig({ flags: { webhookRetries: '5s,30s,2m,10m,1h' } }).webhookRetries).toEqual([5_000, 30_000, 120_000, 600_000, 3_600_000])
    expect(loadConfig({ flags: { webhookRetries: 'none' } }).webhookRetries).toEqual([])
  })

  it('parses --quote-ttl as a duration, a bare number being seconds', () => {
    expect(loadConfig({ flags: { quoteTtl: '2m' } }).quoteTtl).toBe(120_000)
    expect(loadConfig({ flags: { quoteTtl: '45' } }).quoteTtl).toBe(45_000)
    expect(loadConfig({ flags: { quoteTtl: '1500ms' } }).quoteTtl).toBe(1_500)
    expect(loadConfig({ env: { WALLET_SANDBOX_QUOTE_TTL: '1h' } }).quoteTtl).toBe(3_600_000)
  })

  it.each<[string, Partial<Record<ConfigKey, unknown>>, ConfigKey]>([
    ['a port that is not a number', { port: 'abc' }, 'port'],
    ['a port above 65535', { port: '70000' }, 'port'],
    ['a negative port', { port: '-1' }, 'port'],
    ['an unknown auth mode', { auth: 'maybe' }, 'auth'],
    ['an unknown envelope', { envelope: 'naked' }, 'envelope'],
    ['a boolean that is not true/false/1/0', { lenient: 'yes' }, 'lenient'],
    ['a negative rate limit', { rateLimit: '-5' }, 'rateLimit'],
    ['a fractional rate limit', { rateLimit: '2.5' }, 'rateLimit'],
    ['an empty data file path', { dataFile: '' }, 'dataFile'],
    ['an unknown durability', { durability: 'eventually' }, 'durability'],
    ['a latency range that goes down', { latency: '80-20' }, 'latency'],
    ['a latency that is not milliseconds', { latency: 'fast' }, 'latency'],
    ['an error rate above 1', { errorRate: '2' }, 'errorRate'],
    ['an unknown settle mode', { settle: 'later' }, 'settle'],
    ['a clock start that is not ISO 8601', { clockStart: 'yesterday' }, 'clockStart'],
    ['a webhook URL that is not http', { webhookUrl: 'ftp://example.test' }, 'webhookUrl'],
    ['a webhook secret without whsec_', { webhookSecret: 'secret' }, 'webhookSecret'],
    ['a retry schedule that is not delays', { webhookRetries: 'often' }, 'webhookRetries'],
    ['a quote TTL that is not a duration', { quoteTtl: 'soon' }, 'quoteTtl'],
    ['a quote TTL of zero', { quoteTtl: '0s' }, 'quoteTtl'],
    ['a negative quote TTL', { quoteTtl: '-5' }, 'quoteTtl'],
  ])('refuses %s with a ConfigError naming the flag and its variable', (_name, flags, key) => {
    const message = configError({ flags })
    expect(message).toContain(`--${flagName(key)}`)
    expect(message).toContain(envName(key))
  })

  it('names the variable when the bad value came from the environment', () => {
    const message = configError({ env: { WALLET_SANDBOX_RATE_LIMIT: 'lots' } })
    expect(message).toMatch(/--rate-limit \(WALLET_SANDBOX_RATE_LIMIT\)/)
  })

  it('lists every problem, one line each', () => {
    const message = configError({ flags: { port: 'abc', auth: 'maybe' } })
    expect(message.split('\n').filter((line) => line.startsWith('  --'))).toHaveLength(2)
  })
})

describe('flag and variable names', () => {
  it('derive from the config key: kebab-case flags, WALLET_SANDBOX_ upper snake case variables', () => {
    expect(flagName('dataFile')).toBe('data-file')
    expect(envName('dataFile')).toBe('WALLET_SANDBOX_DATA_FILE')
    expect(envName('rateLimit')).toBe('WALLET_SANDBOX_RATE_LIMIT')
    expect(envName('port')).toBe('WALLET_SANDBOX_PORT')
  })

  it('exist for every setting of the schema', () => {
    const help = buildProgram(async () => {}).helpInformation()
    for (const key of CONFIG_KEYS) {
      expect(help).toContain(`--${flagName(key)}`)
      expect(help).toContain(envName(key))
    }
  })
})

describe('the command line', () => {
  afterEach(() => {
    vi.unstubAllEnvs()
  })

  async function parse(args: string[]): Promise<Config> {
    let config: Config | undefined
    await buildProgram(async (loaded) => {
      config = loaded
    }).parseAsync(args, { from: 'user' })
    return config!
  }

  it('turns flags into config values', async () => {
    const config = await parse(['--port', '0', '--auth', 'strict', '--envelope', 'bare', '--lenient', '--rate-limit', '0', '--data-file', '/tmp/x.json'])
    expect(config).toMatchObject({ port: 0, auth: 'strict', envelope: 'bare', lenient: true, rateLimit: 0, dataFile: '/tmp/x.json' })
  })

  it('reads WALLET_SANDBOX_* variables, and a flag wins over its variable', async () => {
    vi.stubEnv('WALLET_SANDBOX_PORT', '5555')
    vi.stubEnv('WALLET_SANDBOX_SEED', 'env-seed')
    vi.stubEnv('WALLET_SANDBOX_LENIENT', '1')
    expect(await parse([])).toMatchObject({ port: 5555, seed: 'env-seed', lenient: true })
    expect(await parse(['--port', '6666'])).toMatchObject({ port: 6666, seed: 'env-seed' })
  })

  it('rejects an invalid flag value with a ConfigError', async () => {
    await expect(parse(['--port', 'nope'])).rejects.toThrow(ConfigError)
    await expect(parse(['--port', 'nope'])).rejects.toThrow(/--port \(WALLET_SANDBOX_PORT\)/)
  })
})
