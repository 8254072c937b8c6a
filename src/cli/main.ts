import { Command, Option } from 'commander'
import { CONFIG_KEYS, ConfigError, envName, flagName, loadConfig, type Config, type ConfigKey } from '../config.js'
import { FixturesError } from '../fixtures.js'
import { shownDefault } from './shown-defaults.js'
import { describeFixtures } from './describe-fixtures.js'
import { serve, type ServeOptions } from './serve.js'
import { addParityCommands } from './parity-commands.js'
import { addTerminalCommands } from './terminal-commands.js'
import { StoreLoadError } from '../store/store.js'
import { VERSION } from '../version.js'

/** One line of help per setting; the flag, its variable and its default (shown-defaults.ts) come from the settings (src/config.ts). */
const HELP: Record<ConfigKey, [string, string?]> = {
  port: ['port to listen on (0 picks a free port)', '<n>'],
  host: ['address to bind', '<host>'],
  seed: ['seed for every generated id, address, name and price; not given, under a real clock and in memory, created ids also differ from one start to the next', '<seed>'],
  auth: ['open: any sk_test_ key gets its own account; strict: only known keys', '<open|strict>'],
  envelope: ['wrapped: {data, request_id}; bare: single resources unwrapped', '<wrapped|bare>'],
  lenient: ['accept numeric amounts, lower-case currencies, destination and form bodies'],
  rateLimit: ['requests per second per API key (0 turns the limit off)', '<n>'],
  dataFile: ['keep the ledger in this file (a JSON-lines snapshot plus a journal beside it)', '<path>'],
  durability: ['with --data-file: strict fsyncs every change before answering; batched writes within 100 ms', '<strict|batched>'],
  fixtures: ['directory of fixture files', '<dir>'],
  whitelistEnforced: ['enforce the address whitelist on every account'],
  bodyLimit: ['largest request body, in bytes', '<bytes>'],
  settle: ['payments and settlements. auto: after their delays; instant; manual: only by control calls (refunds still run)', '<auto|instant|manual>'],
  settleDelay: ['confirmation delay for every network, in ms', '<ms>'],
  clock: ['real: wall time; manual: frozen until POST /_sandbox/clock/advance', '<real|manual>'],
  clockStart: ['where a manual clock starts (ISO 8601)', '<iso>'],
  controlToken: ['require Authorization: Bearer <token> on /_sandbox', '<token>'],
  webhookUrl: ['add a webhook endpoint with this URL to every account', '<url>'],
  webhookSecret: ['signing secret (whsec_…) for --webhook-url', '<secret>'],
  signingSecret: ['every key must sign its /v1 requests (RFC 9421, hmac-sha256, keyid "sandbox") with this base64 secret', '<base64>'],
  signatureMaxAge: ['how long a request signature stays valid after its created time: 300, 90s, 5m', '<duration>'],
  webhookRetries: ['delays between webhook attempts, e.g. 5s,30s,2m,10m,1h, or none', '<list>'],
  webhookTimeout: ['ms before a webhook attempt counts as failed', '<ms>'],
  deliveryLogLimit: ['webhook deliveries the log keeps per account (finished ones beyond it are dropped)', '<n>'],
  eventLogLimit: ['events GET /_sandbox/events keeps per account (older ones are dropped and counted)', '<n>'],
  requestLogLimit: ['/v1 requests GET /_sandbox/requests keeps per account, bodies to 64 KB (0 keeps none)', '<n>'],
  headersTimeout: ['ms a client may take to send the headers of a request', '<ms>'],
  requestTimeout: ['ms a client may take to send a whole request, body included', '<ms>'],
  sendTimeout: ['ms a client may leave an answer unread before its connection is closed', '<ms>'],
  priceInterval: ['ms between price ticks on the stream', '<ms>'],
  tradingFeeBps: ['taker fee of order fills, in basis points of the quote value', '<bps>'],
  quoteTtl: ['how long a quote holds, in sandbox time: 30s, 2m, or a bare number of seconds', '<duration>'],
  logFormat: ['request log format (auto: pretty on a terminal, JSON otherwise)', '<auto|pretty|json>'],
  quiet: ['no banner and no request log'],
  logControl: ['the request log shows control-API requests (/_sandbox/...) too, which it leaves out by default'],
  latency: ['added latency on every /v1 request: 50 or 20-80 (ms)', '<ms>'],
  errorRate: ['fraction of /v1 requests answered 503 service_unavailable', '<0..1>'],
}

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

/** What commander gives the program's action: the settings given as flags, and `--ready-json`. */
export interface ServeArgs {
  flags: Partial<Record<ConfigKey, string | boolean>>
  readyJson: boolean
}

/**
 * The usual start, settings only (`--flag value`, `--flag=value`, `--switch`, `--no-switch`,
 * `--ready-json`), read without building the program: commander's forty options and eight commands
 * were about 4 % of a CLI cold start (issue 33). Anything else, a command, the help, a value that
 * starts with a dash, an unknown or repeated flag, is undefined, and commander reads it, errors and
 * all. test/unit/cli-quick-args.test.ts checks that what this reads is what commander gives.
 */
export function quickServeArgs(args: readonly string[]): ServeArgs | undefined {
  const keys = new Map(CONFIG_KEYS.map((key) => [flagName(key), key]))
  const result: ServeArgs = { flags: {}, readyJson: false }
  const seen = new Set<string>()
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (!arg.startsWith('--')) return undefined
    const equals = arg.indexOf('=')
    const name = arg.slice(2, equals === -1 ? undefined : equals)
    const negated = name.startsWith('no-')
    const key = keys.get(negated ? name.slice(3) : name)
    const setting = key ?? name
    if (seen.has(setting)) return undefined
    seen.add(setting)
    if (name === 'ready-json' && equals === -1) {
      result.readyJson = true
      continue
    }
    if (key === undefined) return undefined
    if (HELP[key][1] === undefined) {
      if (equals !== -1) return undefined
      result.flags[key] = !negated
      continue
    }
    const value = equals === -1 ? args[++i] : arg.slice(equals + 1)
    if (negated || value === undefined || value.startsWith('-')) return undefined
    result.flags[key] = value
  }
  return result
}

export async function main(argv = process.argv): Promise<void> {
  try {
    const quick = quickServeArgs(argv.slice(2))
    if (quick) await serve(loadConfig({ flags: quick.flags, env: process.env }), { readyJson: quick.readyJson })
    else await buildProgram(serve).parseAsync(argv)
  } catch (error) {
    if (error instanceof ConfigError || error instanceof FixturesError || error instanceof StoreLoadError) {
      process.stderr.write(`wallet-sandbox: ${error.message}\n`)
      process.exit(1)
    }
    throw error
  }
}
