import { Command, Option } from 'commander'
import { CONFIG_KEYS, envName, flagName, loadConfig, type Config, type ConfigKey } from '../config.js'
import { HELP } from './flag-help.js'
import { shownDefault } from './shown-defaults.js'
import { describeFixtures } from './describe-fixtures.js'
import type { ServeOptions } from './serve.js'
import { addParityCommands } from './parity-commands.js'
import { addTerminalCommands } from './terminal-commands.js'
import { VERSION } from '../version.js'

/**
 * commander's program: the settings as flags, and the commands. Built only for a command line that
 * main()'s quick reading leaves to it (src/cli/main.ts): this module brings commander's chunk and the
 * commands' modules, which a plain start does not load (issue 33).
 */
export function buildProgram(run: (config: Config, options: ServeOptions) => Promise<void>): Command {
  const program = new Command('wallet-sandbox')
    .description('A local emulator of the digital-asset wallet and payments API, for integration tests.')
    .version(VERSION)
    .option('--ready-json', 'once listening, write one JSON line on stdout before anything else (url, base_url, stream_url, api_key, control_token, port, pid, version) instead of the banner; for programs that start the sandbox, with --port 0')
  for (const key of CONFIG_KEYS) {
    const [text, argument] = HELP[key]
    const option = new Option(`--${flagName(key)}${argument ? ` ${argument}` : ''}`)
    // Written when the help is shown: its defaults parse the config schema, which a start need not do twice.
    Object.defineProperty(option, 'description', {
      get: () => {
        const shown = shownDefault(key)
        return [text, shown && `(default: ${shown})`, `[env ${envName(key)}]`].filter(Boolean).join(' ')
      },
    })
    program.addOption(option)
    // A switch also has its negation, so that a flag can turn off what a variable turned on.
    if (!argument) program.addOption(new Option(`--no-${flagName(key)}`, `turn --${flagName(key)} off`).hideHelp())
  }
  program.action(async ({ readyJson, ...flags }: Partial<Record<ConfigKey, unknown>> & { readyJson?: boolean }) => {
    await run(loadConfig({ flags, env: process.env }), { readyJson: readyJson === true })
  })
  program
    .command('exec')
    .description('start a sandbox (on a free port unless --port says otherwise, quiet unless --no-quiet), run <command> with WALLET_SANDBOX_URL, _BASE_URL, _STREAM_URL, _API_KEY and _CONTROL_TOKEN in its environment, stop the sandbox when it ends and exit with its exit code; the command owns stdout (a sandbox log goes to stderr)')
    .argument('<command...>', 'the command and its arguments, after --')
    .usage('[settings...] -- <command> [args...]')
    .addHelpText('after', `
Examples:
  $ wallet-sandbox exec -- pytest -q
  $ wallet-sandbox exec --seed ci --clock manual -- go test ./...
  $ wallet-sandbox exec -- sh -c 'curl -s "$WALLET_SANDBOX_URL/wallets" -H "Authorization: Bearer $WALLET_SANDBOX_API_KEY"'`)
    .action(async (commandLine: string[], _options: unknown, command: Command) => {
      const { readyJson: _ignored, ...flags } = command.optsWithGlobals() as Partial<Record<ConfigKey, unknown>> & { readyJson?: boolean }
      // A sandbox for one command: any free port and no log, unless a flag or a variable says otherwise.
      const defaults = Object.fromEntries((['port', 'quiet'] as const).filter((key) => flags[key] === undefined && process.env[envName(key)] === undefined).map((key) => [key, key === 'port' ? 0 : true]))
      const { execCommand } = await import('./exec.js')
      process.exit(await execCommand(loadConfig({ flags: { ...defaults, ...flags }, env: process.env }), commandLine))
    })
  program
    .command('fixtures')
    .description('print the seeded default account (keys, wallets, balances) as JSON, and the accounts the given sk_test_ keys get in open auth; honours --seed, --fixtures and --clock-start')
    .argument('[api-keys...]', 'sk_test_ keys whose accounts to print as well')
    .action(async (apiKeys: string[], _options: unknown, command: Command) => {
      const config = loadConfig({ flags: command.optsWithGlobals(), env: process.env })
      printJson(await describeFixtures(config, apiKeys))
    })
  addTerminalCommands(program)
  addParityCommands(program)
  program
    .command('openapi')
    .description('print the OpenAPI 3.1 document of the API as JSON (the one GET /v1/openapi.json serves)')
    .action(async () => {
      printJson(await (await import('./describe-api.js')).describeApi())
    })
  // A mistyped flag: the error, the flag it may have meant, and one line to the help, not the whole
  // help (a helper that keeps the last lines of a failed start would show only help text).
  for (const command of [program, ...program.commands]) {
    const name = command === program ? program.name() : `${program.name()} ${command.name()}`
    command.showSuggestionAfterError().showHelpAfterError(`(${name} --help lists the options)`)
  }
  return program
}

/** What the `fixtures` and `openapi` commands print. A reader that stops early (`| head`) is not an error. */
function printJson(value: unknown): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error
  })
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`)
}
