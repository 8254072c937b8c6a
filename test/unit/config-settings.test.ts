import { describe, expect, it } from 'vitest'
import { CLI_SETTING_NAMES, CONFIG_KEYS, ConfigError, configSchema, loadConfig, type ConfigKey } from '../../src/config.js'

// loadConfig() reads each given setting with its own schema and takes the others' defaults without
// building theirs (src/config.ts). Whatever it is given, it must answer what parsing the whole
// object answers: the same values, keys in the same order, the same problems in the same order.

/** What loadConfig() answered before: the whole object parsed at once. */
function wholeObject(flags: Partial<Record<ConfigKey, unknown>>): unknown {
  const parsed = configSchema().safeParse(flags, { jitless: true })
  if (parsed.success) return { keys: Object.keys(parsed.data), config: parsed.data }
  return { error: `${CLI_SETTING_NAMES.title}:\n${parsed.error.issues.map((issue) => `  ${CLI_SETTING_NAMES.name(String(issue.path[0] ?? ''))}: ${issue.message}`).join('\n')}` }
}

function settingBySetting(flags: Partial<Record<ConfigKey, unknown>>): unknown {
  try {
    const config = loadConfig({ flags })
    return { keys: Object.keys(config), config }
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    return { error: error.message }
  }
}

const VALUES: unknown[] = ['', '0', '1', '-1', '10', '65536', '1.5', 'true', 'false', 'yes', true, false, 0, 7, 'abc', '5s', '250ms', '2m', '5s,30s', '5s,x', 'none', '20-80', '80-20', '50', 'http://127.0.0.1:9/hook', 'not a url', 'whsec_c2VjcmV0', 'whsec_!', 'c2VjcmV0', 'c2VjcmV0=', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00+02:00', '2026-13-01', 'json', 'manual', 'strict', 'instant', ['x'],
  // Around loadConfig's quick reading of the usual spellings (src/config.ts): what it leaves to the schema.
  '0012', ' 5', '5 ', '1e3', '0x10', '-0', 1.5, -0, -1, 65535, '65535', 10_000, '10001', NaN, Infinity, '123456789012345', '1234567890123456', 'TRUE', 'Open', 'open', 'auto', ' ', null]

describe('loadConfig, setting by setting', () => {
  it('answers what the whole object answers when given nothing', () => {
    expect(settingBySetting({})).toEqual(wholeObject({}))
    expect(Object.keys(loadConfig())).toEqual(Object.keys(configSchema().parse({})))
  })

  it.each(CONFIG_KEYS)('answers what the whole object answers for every value of %s', (key) => {
    for (const value of VALUES) expect([value, settingBySetting({ [key]: value })]).toEqual([value, wholeObject({ [key]: value })])
  })

  it('lists several problems in the order the whole object does, and keeps the given keys in its order', () => {
    const flags = { webhookRetries: '5s,x', port: 'abc', quiet: 'maybe', seed: 's', latency: '80-20', clock: 'manual' }
    expect(settingBySetting(flags)).toEqual(wholeObject(flags))
    const good = { seed: 's', port: '0', clock: 'manual', latency: '20-80', webhookRetries: 'none' }
    expect(settingBySetting(good)).toEqual(wholeObject(good))
  })

  it('gives each start its own copy of a list default', () => {
    const first = loadConfig().webhookRetries as number[]
    expect(first).not.toBe(loadConfig().webhookRetries)
  })
})
