import { CONFIG_KEYS, ConfigError, flagName, loadConfig, type ConfigKey } from '../config.js'
import { FixturesError } from '../fixtures.js'
import { HELP } from './flag-help.js'
import { serve } from './serve.js'
import { StoreLoadError } from '../store/store.js'

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
 * all (program.ts). test/unit/cli-quick-args.test.ts checks that what this reads is what commander gives.
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

/**
 * The command line (bin/wallet-sandbox.js). A plain start is read here and serves; anything else
 * goes to commander's program (program.ts), loaded only then: on a plain start, commander's chunk
 * and the commands' modules were read, deserialised and evaluated for nothing (issue 33, round 7).
 */
export async function main(argv = process.argv): Promise<void> {
  try {
    const quick = quickServeArgs(argv.slice(2))
    if (quick) await serve(loadConfig({ flags: quick.flags, env: process.env }), { readyJson: quick.readyJson })
    else await (await import('./program.js')).buildProgram(serve).parseAsync(argv)
  } catch (error) {
    if (error instanceof ConfigError || error instanceof FixturesError || error instanceof StoreLoadError) {
      process.stderr.write(`wallet-sandbox: ${error.message}\n`)
      process.exit(1)
    }
    throw error
  }
}
