import { configSchema, DEFAULT_SEED, type ConfigKey } from '../config.js'

/**
 * The default `--help` shows for each flag. Settings with a value of their own by default show it,
 * written the way the flag takes it; settings that are unset by default say what unset means here.
 * A new unset setting needs an entry, or the help test fails.
 */
const UNSET_MEANS: Partial<Record<ConfigKey, string>> = {
  seed: DEFAULT_SEED,
  dataFile: 'in memory',
  settleDelay: 'per network',
  controlToken: 'none',
  webhookUrl: 'none',
  webhookSecret: 'derived from the seed',
  signingSecret: 'none',
  latency: 'none',
}

/** Where a default is a path of this machine, the help names it instead. */
const DESCRIBED: Partial<Record<ConfigKey, string>> = {
  fixtures: "the package's fixtures/",
}

/** Durations parse to ms; the help writes them the way the flag takes them (30s, 5m). */
const DURATIONS: ReadonlySet<ConfigKey> = new Set(['quoteTtl', 'signatureMaxAge'])

/** Parsed when the help is first written (src/cli/program.ts), not as the CLI loads. */
let defaults: Record<string, unknown> | undefined

export function shownDefault(key: ConfigKey): string | undefined {
  const value = (defaults ??= configSchema().parse({}))[key]
  if (value === undefined) return UNSET_MEANS[key]
  if (DESCRIBED[key]) return DESCRIBED[key]
  if (DURATIONS.has(key)) return formatDelay(value as number)
  if (typeof value === 'boolean') return value ? 'on' : 'off'
  // Lists of delays (the retry schedule) in the units the flag takes: 5s,30s,2m.
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.map((ms: number) => formatDelay(ms)).join(',')
  return String(value)
}

function formatDelay(ms: number): string {
  const unit = ([['h', 3_600_000], ['m', 60_000], ['s', 1000]] as const).find(([, size]) => ms % size === 0)
  return unit ? `${ms / unit[1]}${unit[0]}` : `${ms}ms`
}
