import { envName, isConfigKey, loadConfig, type ConfigKey } from '../config.js'
import { describeListenError } from '../listen-error.js'
import { createLogger } from '../logger.js'
import { addressesOf } from '../sandbox-addresses.js'
import { createSandbox } from '../sandbox.js'
import type { LocalSandbox } from './sides.js'
import { UsageError } from './usage.js'

/**
 * The local side when `--local` names none: a sandbox for the life of the run, as `exec` starts one
 * (in this process, in memory, on a free port unless `--port` says otherwise), configured by the
 * sandbox's own settings given beside the command (`parity --settle manual …`) and their variables.
 * It stays quiet: the run's output is the comparison.
 */
export async function startLocalSandbox(flags: Record<string, unknown>, env: NodeJS.ProcessEnv): Promise<LocalSandbox> {
  const settings: Partial<Record<ConfigKey, unknown>> = Object.fromEntries(Object.entries(flags).filter(([key]) => isConfigKey(key)))
  if (settings.port === undefined && env[envName('port')] === undefined) settings.port = 0
  const config = loadConfig({ flags: { ...settings, quiet: true }, env })
  const sandbox = await createSandbox(config, { logger: createLogger({ quiet: true, json: false }) })
  let bound
  try {
    bound = await sandbox.listen()
  } catch (error) {
    await sandbox.close()
    throw new UsageError(`the local sandbox cannot listen: ${describeListenError(error, config, '--port')}`)
  }
  return { root: addressesOf(sandbox, bound).baseUrl, controlToken: config.controlToken, close: () => sandbox.close() }
}
