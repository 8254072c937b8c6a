import { readFileSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildProgram } from '../../src/cli/program.js'
import { ConfigError, startSandbox } from '../../src/public.js'

/** The library names its own options in errors; the CLI names its flags and variables. */

const ROOT = resolve(import.meta.dirname, '../..')

async function errorOf(promise: Promise<unknown>): Promise<Error & { code?: string }> {
  const outcome = await promise.then(() => undefined, (error: Error) => error)
  expect(outcome, 'expected a rejection').toBeInstanceOf(Error)
  return outcome!
}

describe('startSandbox() quoteTtl', () => {
  it('takes milliseconds as a number, like the other library options, or a duration string', async () => {
    for (const [quoteTtl, expiresAt] of [[45_000, '2026-01-01T00:00:45.000Z'], ['2m', '2026-01-01T00:02:00.000Z']] as const) {
      const sandbox = await startSandbox({ quoteTtl, clock: 'manual' })
      try {
        const res = await fetch(`${sandbox.url}/quotes`, {
          method: 'POST',
          headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ source_currency: 'USDT', destination_currency: 'USDC', source_amount: '1' }),
        })
        expect(((await res.json()) as { data: { expires_at: string } }).data.expires_at).toBe(expiresAt)
      } finally {
        await sandbox.close()
      }
    }
  })
})

describe('startSandbox() option errors', () => {
  it.each([
    ['a negative port', { port: -1 }, 'port'],
    ['a rate limit that is not a number', { rateLimit: 'lots' as unknown as number }, 'rateLimit'],
    ['an unknown settle mode', { settle: 'sometimes' as 'auto' }, 'settle'],
    ['a latency range from high to low', { latency: [80, 20] as const }, 'latency'],
    ['a clock start that is not a date', { clockStart: 'yesterday' }, 'clockStart'],
    ['a quote TTL that is not a duration', { quoteTtl: 'soon' }, 'quoteTtl'],
  ])('name the option for %s, never the flag or its variable', async (_case, options, option) => {
    const error = await errorOf(startSandbox(options))
    expect(error).toBeInstanceOf(ConfigError)
    expect(error.message).toMatch(new RegExp(`^Invalid startSandbox\\(\\) options:\\n  ${option}: `))
    expect(error.message).not.toMatch(/--|WALLET_SANDBOX_/)
  })

  it('list every bad option, one line each, as docs/library.md shows them', async () => {
    const error = await errorOf(startSandbox({ port: -1, rateLimit: 'lots' as unknown as number }))
    expect(error.message.split('\n').slice(1)).toEqual([expect.stringMatching(/^ {2}port: /), expect.stringMatching(/^ {2}rateLimit: /)])
    expect(readFileSync(join(ROOT, 'docs/library.md'), 'utf8')).toContain(`\`\`\`\n${error.message}\n\`\`\``)
  })

  it('name the port option when the port is in use', async () => {
    const taken = createServer()
    await new Promise<void>((listening) => taken.listen(0, '127.0.0.1', listening))
    const { port } = taken.address() as AddressInfo
    try {
      const error = await errorOf(startSandbox({ port }))
      expect(error.message).toBe(`startSandbox() cannot listen: port ${port} on 127.0.0.1 is already in use; pick another with the port option (0 picks a free one)`)
      expect(error.code).toBe('EADDRINUSE')
    } finally {
      await new Promise((closed) => taken.close(closed))
    }
  })
})

describe('command-line errors', () => {
  it('name the flag and its variable for the same bad values', async () => {
    const parse = buildProgram(async () => {}).parseAsync(['--port', '-1', '--rate-limit', 'lots'], { from: 'user' })
    const error = await errorOf(parse)
    expect(error).toBeInstanceOf(ConfigError)
    expect(error.message.split('\n')).toEqual([
      'Invalid configuration:',
      expect.stringMatching(/^ {2}--port \(WALLET_SANDBOX_PORT\): /),
      expect.stringMatching(/^ {2}--rate-limit \(WALLET_SANDBOX_RATE_LIMIT\): /),
    ])
  })
})
