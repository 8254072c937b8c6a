import { Command, Option } from 'commander'
import { wantsColour } from '../colour.js'
import { lazily } from '../lazily.js'
import { DEFAULT_BASE_URL } from './terminal/defaults.js'
import { printerTo, silent } from './terminal/printer.js'
import type { Target } from './terminal/target.js'

/**
 * The commands a person runs beside their app against a running sandbox (CONTRACT.md section 21):
 * `trigger`, `listen` and `tail`. Clients of its HTTP surface, like the user's own code; this file
 * only reads their flags and the environment, and says how they ended. Their code loads when one of
 * them runs, not on every start of the sandbox.
 */

const terminal = () => import('./terminal/commands.js')

interface TargetFlags {
  baseUrl?: string
  apiKey?: string
  controlToken?: string
}

/** Where the command looks; `withoutKey` is what it does when no key is named. */
const targetHelp = (withoutKey = 'the default key') => `
Which sandbox: --base-url, else WALLET_SANDBOX_BASE_URL, else ${DEFAULT_BASE_URL}; the key: --api-key,
else WALLET_SANDBOX_API_KEY, else ${withoutKey}; the control token: --control-token, else
WALLET_SANDBOX_CONTROL_TOKEN.`

function withTarget(command: Command, keyHelp = 'whose account (default: WALLET_SANDBOX_API_KEY, else the default key)'): Command {
  return command
    .addOption(new Option('--base-url <url>', `the sandbox (default: WALLET_SANDBOX_BASE_URL, else ${DEFAULT_BASE_URL})`))
    .addOption(new Option('--api-key <key>', keyHelp))
    // The program's own setting (it reads it wherever it stands); listed here too, where a person looks for it.
    .addOption(new Option('--control-token <token>', 'the sandbox\'s control token, when it was started with one (default: WALLET_SANDBOX_CONTROL_TOKEN)'))
}

/** The flags of the command, the program's --control-token among them, and the environment → where to go. */
const targetOf = async (command: Command): Promise<Target> => (await terminal()).resolveTarget(command.optsWithGlobals() as TargetFlags, process.env)

/** Runs a command's body; a failure is one line on stderr and exit code 1. */
async function reporting(name: string, body: () => Promise<void>): Promise<void> {
  // A reader that stops early (`| head`) ends the command quietly.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0)
    throw error
  })
  try {
    await body()
  } catch (error) {
    const failure = (await terminal()).describeFailure(error)
    if (failure === undefined) throw error
    // A failure stands out on a terminal.
    const { errLine } = stdio()
    errLine(errLine.paint('red', `wallet-sandbox ${name}: ${failure}`))
    process.exit(1)
  }
}

/** Ctrl-C (and SIGTERM) end a command that runs until stopped, with exit code 0. */
function stopOnSignals(): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(0))
}

/**
 * stdout and stderr, each in colour when it is a terminal (not piped, no NO_COLOR). Made when a
 * command runs: node makes process.stdout and process.stderr on first use, which the sandbox's own
 * start, whose program registers these commands, need not pay for (issue 33).
 */
const stdio = lazily(() => ({
  line: printerTo(process.stdout, wantsColour(process.stdout, process.env)),
  errLine: printerTo(process.stderr, wantsColour(process.stderr, process.env)),
}))

export function addTerminalCommands(program: Command): void {
  withTarget(program.command('trigger'))
    .description('make an event happen on the key\'s account: create what it needs from a funded seeded wallet, drive it with control calls, and confirm the event through GET /_sandbox/events')
    .argument('[event-type]', 'the event, such as payment.failed (--list lists them all)')
    .option('--set <field=value>', 'override a field of the create request (repeatable; dotted for nesting: metadata.order=42)', (value: string, all: string[]) => [...all, value], [])
    .option('--on <id>', 'drive this existing object instead of creating one (pay_…, po_…, ord_…, stl_…)')
    .option('--json', 'print one JSON document {objects, events} and nothing else')
    .option('--list', 'list every event type with what it creates')
    .addHelpText('after', `${targetHelp()}

Examples:
  $ wallet-sandbox trigger payment.failed
  $ wallet-sandbox trigger payment.succeeded --set amount=25.00 --set network=solana --set metadata.order=42
  $ wallet-sandbox trigger order.filled --on ord_M8tMrDBQ5xalOhAtDtasxSWX
  $ wallet-sandbox trigger settlement.refunded --json
  $ wallet-sandbox trigger --list`)
    .action((type: string | undefined, options: { set: string[]; on?: string; json?: boolean; list?: boolean }, command: Command) =>
      reporting('trigger', async () => {
        const { connect, listRecipes, runTrigger, TerminalError } = await terminal()
        const { line } = stdio()
        if (options.list) return listRecipes(options.json === true, line)
        if (type === undefined) throw new TerminalError('name the event to trigger, such as payment.failed (--list lists them all)')
        const connection = await connect(await targetOf(command))
        const report = await runTrigger(connection, type, { sets: options.set, on: options.on, print: options.json ? silent : line })
        if (options.json) line(JSON.stringify(report))
      }),
    )

  withTarget(program.command('listen'))
    .description('print the account\'s events as they happen, after a first line Ready (on stderr with --json); with --forward-to, also POST each one, signed as a webhook delivery, to a URL of this machine')
    .option('--events <types>', 'only these events: types and resource.*, comma separated (payment.*,order.filled)')
    .option('--forward-to <url>', 'POST each event to this URL (Standard Webhooks signature); a URL on this machine, also when the sandbox runs in a container; without a scheme (localhost:3000/webhooks) it is http')
    .option('--secret <whsec>', 'the secret to sign forwards with (default: one for the sandbox seed and the key\'s account, whatever the URL, the same on every run)')
    .option('--print-secret', 'print only the secret --forward-to signs with, and exit')
    .option('--json', 'print each event as its JSON, one per line, and nothing else on stdout (Ready and the forwards\' answers go to stderr)')
    .addHelpText('after', `${targetHelp()}

Examples:
  $ wallet-sandbox listen
  $ wallet-sandbox listen --events payment.*,order.filled --json
  $ wallet-sandbox listen --forward-to localhost:3000/webhooks
  $ export WEBHOOK_SECRET=$(wallet-sandbox listen --print-secret)`)
    .action((options: { events?: string; forwardTo?: string; secret?: string; printSecret?: boolean; json?: boolean }, command: Command) =>
      reporting('listen', async () => {
        const { listen, printSecret } = await terminal()
        const { line, errLine } = stdio()
        if (options.printSecret) return printSecret(await targetOf(command), { ...options, out: line })
        stopOnSignals()
        await listen(await targetOf(command), { ...options, json: options.json === true, out: line, err: errLine })
      }),
    )

  withTarget(program.command('tail'), 'only the requests of this key\'s account (default: WALLET_SANDBOX_API_KEY, else every account\'s)')
    .description('print the request journal live: one line per /v1 request with its method, path, status, duration, request id and key (shortened); every account\'s, or with a key named, only its account\'s')
    .option('--status <codes>', 'only these answers: classes and codes, comma separated (4xx,5xx or 404,429)')
    .option('--method <methods>', 'only these methods, comma separated (POST,DELETE)')
    .option('--path <paths>', 'only these paths, comma separated: exact (/v1/payments), a prefix (/v1/wallets/*) or a template (/v1/payments/{id})')
    .option('--json', 'print each request as the journal\'s JSON, one per line, and nothing else on stdout')
    .option('--verbose', 'add the request body (>) and the answer (<)')
    .addHelpText('after', `${targetHelp('none: every account\'s requests (with a key, only its account\'s)')}

Examples:
  $ wallet-sandbox tail
  $ wallet-sandbox tail --status 4xx,5xx --verbose
  $ wallet-sandbox tail --api-key sk_test_my_suite_1 --method POST --path /v1/payments,/v1/payouts
  $ wallet-sandbox tail --json --path '/v1/payments/{id}' | jq .status`)
    .action((options: { status?: string; method?: string; path?: string; json?: boolean; verbose?: boolean }, command: Command) =>
      reporting('tail', async () => {
        const { tail } = await terminal()
        const { line, errLine } = stdio()
        stopOnSignals()
        await tail(await targetOf(command), { ...options, json: options.json === true, verbose: options.verbose === true, out: line, err: errLine })
      }),
    )
}
