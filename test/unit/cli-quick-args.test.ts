import { describe, expect, it } from 'vitest'
import { buildProgram } from '../../src/cli/program.js'
import { quickServeArgs } from '../../src/cli/main.js'
import type { ServeOptions } from '../../src/cli/serve.js'
import { ConfigError, loadConfig, type Config } from '../../src/config.js'

// A plain start's flags are read without commander (src/cli/main.ts, quickServeArgs): whatever it
// reads must be what commander's program gives its action, and whatever else it leaves to commander.

type Served = { config: Config; options: ServeOptions } | { error: string }

async function byCommander(args: string[]): Promise<Served> {
  let served: Served | undefined
  const program = buildProgram(async (config, options) => void (served = { config, options }))
  for (const command of [program, ...program.commands]) command.exitOverride().configureOutput({ writeOut: () => {}, writeErr: () => {} })
  try {
    await program.parseAsync(args, { from: 'user' })
  } catch (error) {
    return { error: error instanceof ConfigError ? error.message : `commander: ${(error as Error).message}` }
  }
  return served ?? { error: 'no action' }
}

function byQuickArgs(args: string[]): Served | undefined {
  const quick = quickServeArgs(args)
  if (!quick) return undefined
  try {
    return { config: loadConfig({ flags: quick.flags, env: process.env }), options: { readyJson: quick.readyJson } }
  } catch (error) {
    return { error: (error as ConfigError).message }
  }
}

/** Read quickly: what a start is usually given. */
const QUICK = [
  [],
  ['--port', '0'],
  ['--port=0', '--quiet'],
  ['--quiet'],
  ['--no-quiet'],
  ['--port', '0', '--host', '127.0.0.1', '--quiet'],
  ['--seed', 'ci', '--clock', 'manual', '--clock-start', '2026-01-01T00:00:00Z'],
  ['--ready-json', '--port', '0'],
  ['--seed', 'trigger'],
  ['--seed', 'a=b'],
  ['--seed=a=b'],
  ['--port', 'abc'],
  ['--port='],
  ['--port', '70000', '--rate-limit', 'lots'],
  ['--lenient', '--no-whitelist-enforced', '--log-control'],
  ['--latency', '20-80', '--error-rate', '0.5'],
  ['--webhook-url', 'http://127.0.0.1:9/hook', '--webhook-retries', '5s,30s'],
  ['--data-file', '/tmp/x.jsonl', '--durability', 'strict'],
  ['--settle', 'manual', '--settle-delay', '10'],
  ['--envelope', 'bare', '--auth', 'strict', '--body-limit', '1024'],
] as const

/** Left to commander: commands, help, dashes in values, unknown or repeated flags, a value where none goes. */
const LEFT = [
  ['trigger'],
  ['--help'],
  ['-h'],
  ['--version'],
  ['-V'],
  ['--port', '-1'],
  ['--port'],
  ['--unknown'],
  ['--no-port', '5'],
  ['--quiet=true'],
  ['--ready-json=1'],
  ['--no-ready-json'],
  ['--quiet', '--no-quiet'],
  ['--port', '1', '--port', '2'],
  ['--ready-json', '--ready-json'],
  ['--quiet', 'extra'],
  ['--', '--port', '1'],
  ['-p', '1'],
  ['exec', '--', 'true'],
] as const

describe('a plain start read without commander', () => {
  it.each(QUICK.map((args) => [args.join(' ') || '(nothing)', args]))('reads %s as commander does', async (_, args) => {
    const quick = byQuickArgs([...args])
    expect(quick).toBeDefined()
    expect(quick).toEqual(await byCommander([...args]))
  })

  it.each(LEFT.map((args) => [args.join(' '), args]))('leaves %s to commander', (_, args) => {
    expect(quickServeArgs([...args])).toBeUndefined()
  })
})
