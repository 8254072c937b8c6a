import { Command, type CommanderError } from 'commander'

/**
 * `parity` and `record` (CONTRACT.md section 22): clients, like the terminal commands; the hosted
 * sandbox is just another URL. This file reads their flags and the environment and says how they
 * ended; their code (src/parity/) loads when one of them runs.
 */

const parity = () => import('../parity/commands.js')

/** Made when a command runs: process.stdout and process.stderr are made on first use, which a start need not pay for. */
const io = () => ({
  out: (line: string) => void process.stdout.write(`${line}\n`),
  err: (line: string) => void process.stderr.write(`${line}\n`),
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
})

/** Exits once stdout and stderr are written out: into a pipe, a long report is still queued when the run ends. */
const exitWhenWritten = (code: number) => void process.stdout.write('', () => process.stderr.write('', () => process.exit(code)))

/** A usage error of commander's own (an unknown flag, a missing value) is exit code 2, as parity's own are. */
const usageExit = (error: CommanderError) => process.exit(error.exitCode === 0 ? 0 : 2)

export function addParityCommands(program: Command): void {
  program
    .command('parity')
    .description('measure this sandbox against the hosted one: run a pack of requests on a local sandbox (one of its own, or --local) and on the hosted sandbox (or replay a recording), compare each answer, and fail on differences not accepted')
    .option('--against <url>', 'the hosted sandbox\'s API URL, ending in /v1')
    .option('--api-key <key>', 'the hosted sandbox\'s key (default: WALLET_SANDBOX_PARITY_API_KEY); never a sk_live_ key')
    .option('--pack <name>', 'core, payouts, trading, settlements, webhooks or all (default: core)')
    .option('--source-wallet <id>', 'a funded wallet of the hosted account, for the steps that move money (without it they are skipped)')
    .option('--local <url>', 'compare with this running sandbox (a fresh account made through its control API) instead of one of its own')
    .option('--local-api-key <key>', 'with --local: use this key instead of making a fresh account')
    .option('--rate <rps>', 'at most this many requests a second on each side (default: 8; the hosted sandbox allows 10)')
    .option('--accept <file>', 'accept the difference keys listed in this file (a JSON list, as --write-accept writes it)')
    .option('--write-accept <file>', 'write this run\'s difference keys to this file, sorted, one a line; they count as accepted')
    .option('--report <file>', 'write the report (JSON) to this file')
    .option('--json', 'print the report (JSON) instead of the tables')
    .option('--list', 'list every pack with its steps, and exit')
    .option('--replay <file>', 'send the requests of a recording (wallet-sandbox record) to the local side and compare with the recorded answers')
    .exitOverride(usageExit)
    .addHelpText('after', `
The local sandbox parity starts takes the sandbox's own settings beside the command (--seed, --settle,
--rate-limit, …). Exit code 0: every difference accepted; 1: a new one (each printed "new: <key>");
2: a usage error, or a hosted side that cannot be reached or refuses the key. docs/parity.md has the
workflow, the normalisation rules and the report format.

Examples:
  $ wallet-sandbox parity --list
  $ wallet-sandbox parity --against https://sandbox.example.com/v1 --api-key sk_test_… --pack all --source-wallet wal_…
  $ wallet-sandbox parity --against https://sandbox.example.com/v1 --accept parity-accepted.json --report parity.json
  $ wallet-sandbox parity --against https://sandbox.example.com/v1 --write-accept parity-accepted.json
  $ wallet-sandbox parity --replay suite.jsonl --accept parity-accepted.json`)
    .action(async (flags: Record<string, unknown>, command: Command) => {
      exitWhenWritten(await (await parity()).parityCommand(flags, command.optsWithGlobals(), io()))
    })

  program
    .command('record')
    .description('a forwarding proxy to the hosted sandbox that writes each exchange to a file, one JSON line each (headers from an allow list; never Authorization, never a secret), for parity --replay; Ctrl-C or SIGTERM flush the file and exit 0')
    .option('--to <url>', 'the hosted sandbox\'s API URL, ending in /v1')
    .option('--out <file>', 'the recording to write (one JSON line per exchange)')
    .option('--port <n>', 'the port to listen on (default 4401, beside the sandbox\'s 4400; 0 picks a free one)')
    .option('--ready-json', 'print one JSON line {ready, url, port, pid, to, out, version} once listening, instead of a line for a person')
    .exitOverride(usageExit)
    .addHelpText('after', `
Your app takes http://127.0.0.1:<port>/v1 as its API URL. A live key (sk_live_…) is answered 403, never
forwarded.

Examples:
  $ wallet-sandbox record --to https://sandbox.example.com/v1 --out suite.jsonl
  $ wallet-sandbox record --to https://sandbox.example.com/v1 --out suite.jsonl --port 0 --ready-json`)
    .action(async (flags: { to?: string; out?: string; port?: string; readyJson?: boolean }, command: Command) => {
      const recorder = await (await parity()).recordCommand(flags, command.optsWithGlobals(), io())
      if (recorder === undefined) return exitWhenWritten(2)
      for (const signal of ['SIGINT', 'SIGTERM'] as const) {
        process.once(signal, () => {
          void recorder.close().then(() => {
            io().err(`wallet-sandbox record: ${recorder.count()} exchanges in ${flags.out}`)
            exitWhenWritten(0)
          })
        })
      }
    })
}
