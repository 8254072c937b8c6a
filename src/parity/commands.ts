import { ConfigError } from '../config.js'
import { VERSION } from '../version.js'
import { SideUnreachableError } from './http-side.js'
import { startLocalSandbox } from './local-sandbox.js'
import { startRecorder, type Recorder } from './record-proxy.js'
import { runParity, type ParityFlags } from './run-parity.js'
import { scrubKnown } from './secrets.js'
import { EXIT, hostedRoot, UsageError } from './usage.js'

/** What the command line loads when `parity` or `record` runs (`src/cli/parity-commands.ts`). */

export interface CommandIo {
  out(line: string): void
  err(line: string): void
  stdout: { isTTY?: boolean }
  stderr: { isTTY?: boolean; columns?: number; write(text: string): unknown }
  env: NodeJS.ProcessEnv
}

/** `parity`: the exit code; a failure that stops the run is one line on stderr and exit code 2. */
export async function parityCommand(flags: ParityFlags, globals: Record<string, unknown>, io: CommandIo): Promise<number> {
  const controlToken = (globals.controlToken as string | undefined) ?? io.env.WALLET_SANDBOX_CONTROL_TOKEN
  const keys = [flags.apiKey, flags.localApiKey, io.env.WALLET_SANDBOX_PARITY_API_KEY]
  try {
    return await runParity(flags, { ...io, controlToken, startLocal: () => startLocalSandbox(globals, io.env) })
  } catch (error) {
    const reason = stopReason(error)
    if (reason === undefined) throw error
    io.err(scrubKnown(`wallet-sandbox parity: ${reason}`, keys))
    return EXIT.usage
  }
}

function stopReason(error: unknown): string | undefined {
  if (error instanceof UsageError || error instanceof ConfigError) return error.message
  if (error instanceof SideUnreachableError) return `the ${error.side} side cannot be reached: ${error.message}`
  return undefined
}

/** The recorder's port unless `--port` says otherwise: beside the sandbox's default 4400. */
export const DEFAULT_RECORD_PORT = 4401

/**
 * `record`: starts the proxy and says where it listens (the ready line with `--ready-json`, else a
 * line for a person, then one line per exchange). Resolves with the recorder, which the caller
 * closes on Ctrl-C or SIGTERM; a usage error is one line on stderr and undefined (exit code 2).
 */
export async function recordCommand(flags: { to?: string; out?: string }, globals: Record<string, unknown>, io: CommandIo): Promise<Recorder | undefined> {
  try {
    if (flags.to === undefined) throw new UsageError('--to is missing: the hosted sandbox\'s API URL, ending in /v1')
    if (flags.out === undefined) throw new UsageError('--out is missing: the file to write the exchanges to (one JSON line each)')
    const root = hostedRoot(flags.to, '--to')
    const port = portOf(globals.port)
    const readyJson = globals.readyJson === true
    const recorder = await startRecorder({ root, out: flags.out, port, onExchange: readyJson ? undefined : io.out })
    if (readyJson) io.out(JSON.stringify({ ready: true, url: recorder.url, port: recorder.port, pid: process.pid, to: flags.to, out: flags.out, version: VERSION }))
    else io.out(`recording ${recorder.url} → ${flags.to} into ${flags.out}; point your app at ${recorder.url} (Ctrl-C stops)`)
    return recorder
  } catch (error) {
    const reason = error instanceof UsageError ? error.message : (error as NodeJS.ErrnoException).code === 'EADDRINUSE' ? `port ${String(globals.port ?? DEFAULT_RECORD_PORT)} is in use: --port 0 picks a free one` : undefined
    if (reason === undefined) throw error
    io.err(`wallet-sandbox record: ${reason}`)
    return undefined
  }
}

function portOf(value: unknown): number {
  if (value === undefined) return DEFAULT_RECORD_PORT
  const port = Number(value)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port ${String(value)} is not a port (0 to 65535; 0 picks a free one)`)
  return port
}
