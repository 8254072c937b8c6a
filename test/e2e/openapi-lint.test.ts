import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

/**
 * The document as the common linters see it, with the rulesets checked in at the project's root
 * (redocly.yaml: Redocly's `recommended`; .spectral.yaml: `spectral:oas`): no errors, no warnings.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const BIN = join(ROOT, 'node_modules/.bin')
const run = promisify(execFile)
// No telemetry or update checks: the test runs without the network.
const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_UPDATE_NOTIFIER: '1' }

let sb: TestSandbox
let dir: string
let documentFile: string
beforeAll(async () => {
  sb = await startTestSandbox()
  dir = mkdtempSync(join(tmpdir(), 'wallet-sandbox-openapi-'))
  documentFile = join(dir, 'openapi.json')
  writeFileSync(documentFile, (await sb.api.get('/v1/openapi.json').expect(200)).text)
})
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true })
  await sb.close()
})

/** Runs a linter that exits non-zero when it finds something; what it found is in its report either way. */
const lint = (command: string, args: string[]) => run(join(BIN, command), args, { cwd: ROOT, env }).catch((error: { stdout: string; stderr: string }) => error)

describe('GET /v1/openapi.json in the common linters', () => {
  it('passes `redocly lint` (recommended) without errors or warnings', async () => {
    const { stdout } = await lint('redocly', ['lint', documentFile, '--config', join(ROOT, 'redocly.yaml'), '--format', 'json'])
    const report = JSON.parse(stdout) as { totals: { errors: number; warnings: number }; problems: Array<{ ruleId: string; message: string; location: Array<{ pointer: string }> }> }
    const problems = report.problems.map((problem) => `${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`)
    expect(problems).toEqual([])
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 })
  }, 60_000)

  it('passes `spectral lint` (spectral:oas) without errors or warnings', async () => {
    const output = join(dir, 'spectral.json')
    await lint('spectral', ['lint', documentFile, '--ruleset', join(ROOT, '.spectral.yaml'), '--format', 'json', '--output', output])
    const results = JSON.parse(readFileSync(output, 'utf8')) as Array<{ code: string; message: string; path: string[]; severity: number }>
    expect(results.map((result) => `${result.code} at ${result.path.join('.')}: ${result.message}`)).toEqual([])
  }, 60_000)
})
