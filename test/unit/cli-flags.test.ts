import { describe, expect, it } from 'vitest'
import { buildProgram } from '../../src/cli/program.js'
import type { Config } from '../../src/config.js'

async function configFrom(argv: string[], env: Record<string, string>): Promise<Config> {
  const saved = { ...process.env }
  Object.assign(process.env, env)
  try {
    let config: Config | undefined
    await buildProgram(async (c) => void (config = c)).parseAsync(['node', 'wallet-sandbox', ...argv])
    return config!
  } finally {
    for (const key of Object.keys(env)) delete process.env[key]
    Object.assign(process.env, saved)
  }
}

describe('boolean flags', () => {
  it.each([
    [['--lenient'], {}, true],
    [[], { WALLET_SANDBOX_LENIENT: 'true' }, true],
    [['--no-lenient'], { WALLET_SANDBOX_LENIENT: 'true' }, false],
    [['--no-lenient'], {}, false],
    [[], {}, false],
  ] as const)('argv %j with env %j gives lenient %s', async (argv, env, expected) => {
    expect((await configFrom([...argv], env)).lenient).toBe(expected)
  })

  it('a flag with a value wins over its variable', async () => {
    expect((await configFrom(['--seed', 'from-flag'], { WALLET_SANDBOX_SEED: 'from-env' })).seed).toBe('from-flag')
  })
})
