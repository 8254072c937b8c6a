import { CONFIG_KEYS, ConfigError, isConfigKey, type Config, type ConfigKey } from './config.js'

type FlexibleKeys = 'latency' | 'webhookRetries' | 'clockStart' | 'quoteTtl' | 'signatureMaxAge'

/**
 * The settings in the library's form: the CLI's settings, camelCase, with the values they parse to,
 * and friendlier forms for the few that take lists or times. `startSandbox()` and the Testcontainers
 * module take them alike.
 */
export type SandboxOptions = Partial<Omit<Config, FlexibleKeys>> & {
  /** Added latency on every /v1 request: `50`, `[20, 80]` or `'20-80'` (ms). */
  latency?: number | readonly [number, number] | string
  /** Delays between webhook attempts: `[5000, 30000]` (ms) or `'5s,30s,2m'`; `[]` or `'none'` for one attempt only. */
  webhookRetries?: readonly number[] | string
  /** Where a manual clock starts: an ISO 8601 string or a Date. */
  clockStart?: string | Date
  /** How long a quote holds: `30000` (ms) or `'30s'`, `'2m'`. */
  quoteTtl?: number | string
  /** How long a request signature stays valid after its `created`: `300000` (ms) or `'300s'`, `'5m'`. */
  signatureMaxAge?: number | string
}

/**
 * Turns the friendlier value forms into the strings the config schema parses. An unknown option
 * throws a ConfigError naming `caller` (`startSandbox`) and listing the options.
 */
export function toFlags(options: SandboxOptions, caller: string): Partial<Record<ConfigKey, unknown>> {
  const unknown = Object.keys(options).filter((key) => !isConfigKey(key))
  if (unknown.length > 0) throw new ConfigError(`Unknown ${caller} option${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. The options are: ${CONFIG_KEYS.join(', ')}.`)
  const { latency, webhookRetries, clockStart, quoteTtl, signatureMaxAge, ...rest } = options
  const flags: Partial<Record<ConfigKey, unknown>> = { ...rest }
  if (latency !== undefined) flags.latency = typeof latency === 'string' ? latency : typeof latency === 'number' ? String(latency) : latency.join('-')
  if (webhookRetries !== undefined) {
    flags.webhookRetries = typeof webhookRetries === 'string' ? webhookRetries : webhookRetries.length === 0 ? 'none' : webhookRetries.map((ms) => `${ms}ms`).join(',')
  }
  if (quoteTtl !== undefined) flags.quoteTtl = typeof quoteTtl === 'number' ? `${quoteTtl}ms` : quoteTtl
  if (signatureMaxAge !== undefined) flags.signatureMaxAge = typeof signatureMaxAge === 'number' ? `${signatureMaxAge}ms` : signatureMaxAge
  if (clockStart !== undefined) flags.clockStart = clockStart instanceof Date ? clockStart.toISOString() : clockStart
  return flags
}
