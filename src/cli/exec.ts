import { spawn } from 'node:child_process'
import { constants } from 'node:os'
import { sandboxEnvironment } from './ready-line.js'
import type { Config } from '../config.js'
import { createRequestLog } from '../http/middleware/request-log.js'
import { describeListenError } from '../listen-error.js'
import { createLogger } from '../logger.js'
import { addressesOf } from '../sandbox-addresses.js'
import { createSandbox } from '../sandbox.js'

/** Signals a person or a CI runner sends to stop a run: the command gets them first. */
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const

/**
 * `wallet-sandbox exec [settings…] -- <command…>` (CONTRACT.md section 20): a sandbox for the life of
 * one command, the way in for any language. Starts the sandbox in this process, runs the command
 * with the sandbox's variables added to its environment, stops the sandbox (a data file flushed)
 * when the command ends, and resolves with the command's exit code (128 + n when signal n ended it).
 * The command owns stdout: the sandbox's banner and request log, when not `--quiet`, go to stderr.
 */
export async function execCommand(config: Config, command: readonly string[]): Promise<number> {
  const logger = createLogger({ quiet: config.quiet, json: config.logFormat === 'json' })
  const sandbox = await createSandbox(config, { logger, requestLog: createRequestLog({ format: config.logFormat, control: config.logControl, stream: process.stderr, env: process.env }) })
  let bound
  try {
    bound = await sandbox.listen()
  } catch (error) {
    await sandbox.close()
    process.stderr.write(`wallet-sandbox exec: the sandbox cannot listen, so ${command[0]} was not run: ${describeListenError(error, config, '--port')}\n`)
    return 1
  }
  const addresses = addressesOf(sandbox, bound)
  logger.info(`wallet-sandbox listening on ${addresses.baseUrl} for ${command.join(' ')}`)

  const code = await run(command, { ...process.env, ...sandboxEnvironment(addresses) })
  await sandbox.close()
  return code
}

/** Runs the command to its end, handing it the signals this process gets; never rejects. */
function run(command: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command[0]!, command.slice(1), { stdio: 'inherit', env })
    const forward = (signal: NodeJS.Signals) => child.kill(signal)
    for (const signal of FORWARDED) process.on(signal, forward)
    const done = (code: number) => {
      for (const signal of FORWARDED) process.off(signal, forward)
      resolve(code)
    }
    child.once('error', (error: NodeJS.ErrnoException) => {
      // As a shell says it: 127 for a command that does not exist, 126 for one that cannot run.
      const notFound = error.code === 'ENOENT'
      process.stderr.write(`wallet-sandbox exec: cannot run ${command[0]}: ${notFound ? 'no such command (is it on PATH?)' : error.message}\n`)
      done(notFound ? 127 : 126)
    })
    child.once('exit', (code, signal) => done(signal ? 128 + (constants.signals[signal] ?? 0) : (code ?? 1)))
  })
}
