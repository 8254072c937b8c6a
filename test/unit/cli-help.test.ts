import { describe, expect, it } from 'vitest'
import { buildProgram } from '../../src/cli.js'
import { ConfigSchema, envName, flagName, loadConfig, type ConfigKey } from '../../src/config.js'

/** `--help` as printed, one entry per option with its wrapped lines joined. */
function helpEntries(): Map<string, string> {
  const entries = new Map<string, string>()
  let flag: string | undefined
  for (const line of buildProgram(async () => {}).helpInformation().split('\n')) {
    const start = /^ {2}(--[a-z-]+)/.exec(line)
    if (start) flag = start[1]
    else if (!/^ {3,}\S/.test(line)) flag = undefined
    if (flag) entries.set(flag, `${entries.get(flag) ?? ''} ${line.trim()}`.trim())
  }
  return entries
}

const KEYS = Object.keys(ConfigSchema.shape) as ConfigKey[]
const DEFAULTS = loadConfig({})

function shownDefaultOf(key: ConfigKey): string {
  const entry = helpEntries().get(`--${flagName(key)}`)
  expect(entry, `--${flagName(key)} is in --help`).toBeDefined()
  const match = new RegExp(`\\(default: (.+?)\\) \\[env ${envName(key)}\\]$`).exec(entry!)
  expect(match, `--help shows a default for --${flagName(key)}: ${entry}`).not.toBeNull()
  return match![1]!
}

describe('--help', () => {
  it.each(KEYS)('shows the default of %s, and its variable', (key) => {
    expect(shownDefaultOf(key).trim()).not.toBe('')
  })

  it.each(KEYS.filter((key) => DEFAULTS[key] !== undefined && key !== 'fixtures'))(
    'shows the default of %s as the value that, given to the flag, is the configuration default',
    (key) => {
      const shown = shownDefaultOf(key)
      // A switch shows on or off; its variable takes true or false.
      const given = typeof DEFAULTS[key] === 'boolean' ? { on: 'true', off: 'false' }[shown] : shown
      expect(given, `--${flagName(key)} shows ${shown}`).toBeDefined()
      expect(loadConfig({ flags: { [key]: given } })[key]).toEqual(DEFAULTS[key])
    },
  )

  it('names the package fixtures folder rather than a path of this machine', () => {
    expect(shownDefaultOf('fixtures')).toBe("the package's fixtures/")
    expect(DEFAULTS.fixtures).toMatch(/fixtures\/?$/)
  })

  it.each(KEYS)('says the default of %s once', (key) => {
    const entry = helpEntries().get(`--${flagName(key)}`)!
    expect(entry.match(/default:/g), entry).toHaveLength(1)
  })

  it('says what an unset setting means', () => {
    expect(shownDefaultOf('dataFile')).toBe('in memory')
    expect(shownDefaultOf('webhookRetries')).toBe('5s,30s,2m,10m,1h')
    expect(shownDefaultOf('lenient')).toBe('off')
  })
})

describe('--help of each command', () => {
  it.each(['exec', 'trigger', 'listen', 'tail', 'parity', 'record'])('%s says what it does and shows examples', (name) => {
    const command = buildProgram(async () => {}).commands.find((candidate) => candidate.name() === name)!
    let text = ''
    command.configureOutput({ writeOut: (chunk) => (text += chunk) })
    command.outputHelp()
    expect(text).toContain(`Usage: wallet-sandbox ${name}`)
    const examples = text.split('Examples:\n')[1]?.split('\n').filter(Boolean) ?? []
    expect(examples.length).toBeGreaterThan(0)
    for (const example of examples) expect(example).toMatch(new RegExp(`^ {2}\\$ .*wallet-sandbox ${name}\\b`))
  })

  it.each(['trigger', 'listen', 'tail'])('%s says where it looks for the sandbox, the key and the control token', (name) => {
    const command = buildProgram(async () => {}).commands.find((candidate) => candidate.name() === name)!
    let text = ''
    command.configureOutput({ writeOut: (chunk) => (text += chunk) })
    command.outputHelp()
    expect(text.replace(/\s+/g, ' ')).toContain('Which sandbox: --base-url, else WALLET_SANDBOX_BASE_URL, else http://127.0.0.1:4400; the key: --api-key, else WALLET_SANDBOX_API_KEY, else the default key; the control token: --control-token, else WALLET_SANDBOX_CONTROL_TOKEN.')
  })
})
