import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

/**
 * The library page's examples (docs/library.md) are files of this test suite, shown there exactly:
 * the vitest example (a globalSetup that calls startSandbox, and a test file that injects its URL)
 * runs here in a vitest of its own, exactly as a user's project would run it; the CommonJS example
 * runs against the packed package in pack.test.ts.
 */

const run = promisify(execFile)
const ROOT = resolve(import.meta.dirname, '../..')
const EXAMPLE = join(ROOT, 'test/e2e/fixtures/library-example')
const PAGE = 'docs/library.md'
const SHOWN = [
  ['ts', 'test/e2e/fixtures/library-example/global-setup.ts'],
  ['ts', 'test/e2e/fixtures/library-example/payments.example.ts'],
  ['ts', 'test/e2e/fixtures/library-example/events.example.ts'],
  ['ts', 'test/e2e/fixtures/library-example/accounts.example.ts'],
  ['ts', 'test/e2e/fixtures/library-example/requests.example.ts'],
  ['js', 'test/e2e/fixtures/commonjs-example/sandbox.cjs'],
] as const

describe('the library examples', () => {
  it.each(SHOWN)(`are shown in ${PAGE} exactly as the %s file %s runs`, (language, file) => {
    const page = readFileSync(join(ROOT, PAGE), 'utf8')
    const code = readFileSync(join(ROOT, file), 'utf8')
    expect(page).toContain('```' + language + '\n' + code + '```')
  })

  it('passes: the global setup starts a sandbox, the tests reach it and move its clock, the teardown stops it', async () => {
    // A clean environment: the outer vitest's worker variables must not leak into the inner one.
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST')))
    const result = await run(process.execPath, [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--config', join(EXAMPLE, 'vitest.config.ts'), '--reporter=verbose', '--color=false'], {
      cwd: ROOT,
      env: { ...env, NO_COLOR: '1' },
    }).catch((error) => ({ stdout: String(error.stdout), stderr: String(error.stderr), failed: true }))
    expect(result, `${result.stdout}\n${result.stderr}`).not.toHaveProperty('failed')
    expect(result.stdout).toMatch(/Tests\s+5 passed \(5\)/)
  }, 60_000)

  it('asserts what was sent: the retry test passes, and the one that fails on purpose prints the near miss the page shows', async () => {
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST')))
    const result = await run(process.execPath, [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--config', join(EXAMPLE, 'vitest.requests.config.ts'), '--reporter=verbose', '--color=false'], {
      cwd: ROOT,
      env: { ...env, NO_COLOR: '1' },
    }).then(() => ({ stdout: '', failed: false }), (error) => ({ stdout: `${error.stdout}\n${error.stderr}`, failed: true }))
    expect(result.failed).toBe(true)
    expect(result.stdout).toMatch(/Tests\s+1 failed \| 1 passed \(2\)/)
    expect(result.stdout).toMatch(/✓ .*a payment retried after a lost answer reuses its Idempotency-Key/)
    // The page shows the failure as vitest prints it, request ids and times aside.
    const shown = /```\n(RequestExpectationError: [\s\S]*?)```/.exec(readFileSync(join(ROOT, PAGE), 'utf8'))![1]!
    const pattern = shown.trimEnd().split('\n').map((line) => line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/req_…/g, 'req_\\w+').replace(/<time>/g, '[-\\d:.TZ]+')).join('\n')
    expect(result.stdout).toMatch(new RegExp(pattern))
    expect(shown).toContain('body.amount: expected "10.00", got "10"')
  }, 60_000)
})
