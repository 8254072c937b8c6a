import { describe, expect, it } from 'vitest'
import { buildProgram } from '../../src/cli/program.js'
import { CONFIG_KEYS, envName, flagName, loadConfig, type ConfigKey } from '../../src/config.js'

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

const KEYS = CONFIG_KEYS
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

  it.each([
    ['trigger', 'the default key'],
    ['listen', 'the default key'],
    ['tail', "none: every account's requests (with a key, only its account's)"],
  ])('%s says where it looks for the sandbox, the key and the control token', (name, withoutKey) => {
    const command = buildProgram(async () => {}).commands.find((candidate) => candidate.name() === name)!
    let text = ''
    command.configureOutput({ writeOut: (chunk) => (text += chunk) })
    command.outputHelp()
    expect(text.replace(/\s+/g, ' ')).toContain(`Which sandbox: --base-url, else WALLET_SANDBOX_BASE_URL, else http://127.0.0.1:4400; the key: --api-key, else WALLET_SANDBOX_API_KEY, else ${withoutKey}; the control token: --control-token, else WALLET_SANDBOX_CONTROL_TOKEN.`)
  })
})

describe('a mistyped flag', () => {
  /** What the program writes to stderr for `args`, parsed without exiting. */
  async function errorOf(args: string[]): Promise<string> {
    const program = buildProgram(async () => {})
    let text = ''
    for (const command of [program, ...program.commands]) command.exitOverride().configureOutput({ writeErr: (chunk) => (text += chunk), writeOut: (chunk) => (text += chunk) })
    await expect(program.parseAsync(args, { from: 'user' })).rejects.toThrow()
    return text
  }

  it.each([
    [['--clok', 'manual'], "error: unknown option '--clok'\n(Did you mean --clock?)\n(wallet-sandbox --help lists the options)\n"],
    [['exec', '--prot', '0', '--', 'true'], "error: unknown option '--prot'\n(Did you mean --port?)\n(wallet-sandbox exec --help lists the options)\n"],
    [['fixtures', '--sed', 'x'], "error: unknown option '--sed'\n(Did you mean --seed?)\n(wallet-sandbox fixtures --help lists the options)\n"],
    [['trigger', '--jsn'], "error: unknown option '--jsn'\n(Did you mean --json?)\n(wallet-sandbox trigger --help lists the options)\n"],
    [['listen', '--forwrd-to', 'x'], "error: unknown option '--forwrd-to'\n(Did you mean --forward-to?)\n(wallet-sandbox listen --help lists the options)\n"],
    [['tail', '--stauts', '4xx'], "error: unknown option '--stauts'\n(Did you mean --status?)\n(wallet-sandbox tail --help lists the options)\n"],
    [['parity', '--agianst', 'x'], "error: unknown option '--agianst'\n(Did you mean --against?)\n(wallet-sandbox parity --help lists the options)\n"],
    [['record', '--outt', 'x'], "error: unknown option '--outt'\n(Did you mean --out?)\n(wallet-sandbox record --help lists the options)\n"],
    [['openapi', '--jsno'], "error: unknown option '--jsno'\n(wallet-sandbox openapi --help lists the options)\n"],
  ])('%j: the error, the flag it may mean and one line pointing to --help, not the whole help', async (args, expected) => {
    expect(await errorOf(args)).toBe(expected)
  })

  it('covers every command', () => {
    expect(buildProgram(async () => {}).commands.map((command) => command.name())).toEqual(['exec', 'fixtures', 'trigger', 'listen', 'tail', 'parity', 'record', 'openapi'])
  })
})
