import { execFile } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import openapiTS, { astToString } from 'openapi-typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

/**
 * A client generated from the document with openapi-typescript + openapi-fetch, as a user would
 * build one. The types are generated here, from the document the sandbox serves, rather than
 * committed: they can never be stale, and a route added on another branch needs no regeneration.
 * test/openapi-client/flows.ts is compiled with tsc against them (strict, its @ts-expect-error
 * lines included), then run against a sandbox.
 */

/** What test/openapi-client/flows.ts exports (its own, precise types are checked by the first test). */
interface Flows {
  createWalletAndPayment(baseUrl: string, apiKey: string): Promise<{ wallet: { id: string }; payment: object; treasuryBalance: string }>
}

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const run = promisify(execFile)

let sb: TestSandbox
let workDir: string
beforeAll(async () => {
  sb = await startTestSandbox()
  // Inside the project, so that tsc resolves openapi-fetch and @types/node from its node_modules.
  mkdirSync(join(ROOT, 'node_modules/.cache'), { recursive: true })
  workDir = mkdtempSync(join(ROOT, 'node_modules/.cache/openapi-client-'))
})
afterAll(async () => {
  rmSync(workDir, { recursive: true, force: true })
  await sb.close()
})

describe('a client generated with openapi-typescript and openapi-fetch', () => {
  it('type-checks: defaulted request fields are optional, query integers are numbers, closed sets are unions', async () => {
    const document = (await sb.api.get('/v1/openapi.json').expect(200)).body
    const types = astToString(await openapiTS(document))
    expect(types).toMatch(/type\?: "institutional" \| "user" \| "omnibus";/)
    writeFileSync(join(workDir, 'api-types.ts'), types)
    copyFileSync(join(ROOT, 'test/openapi-client/flows.ts'), join(workDir, 'flows.ts'))
    writeFileSync(join(workDir, 'package.json'), JSON.stringify({ type: 'module' }))
    writeFileSync(join(workDir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'ES2023', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2023'], types: ['node'], strict: true, noEmit: true, skipLibCheck: true, noUncheckedIndexedAccess: true },
      files: ['flows.ts'],
    }))
    const tsc = await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(workDir, 'tsconfig.json')], { cwd: workDir }).catch((error: { stdout: string }) => error)
    expect(tsc.stdout).toBe('')
  }, 60_000)

  it('creates a wallet and a payment into it against a sandbox', async () => {
    // Imported by a computed path so that the project's tsc, which has no generated types, does not follow it.
    const flows = (await import(join(ROOT, 'test/openapi-client', 'flows.ts'))) as Flows
    const { wallet, payment, treasuryBalance } = await flows.createWalletAndPayment(sb.url, 'sk_test_openapi_client_test')
    expect(wallet).toMatchObject({ object: 'wallet', type: 'user', currency: 'USDC', network: 'polygon', status: 'active' })
    expect(payment).toMatchObject({ object: 'payment', status: 'pending', amount: '12.50', destination: wallet.id, destination_type: 'wallet' })
    expect(treasuryBalance).toBe('999987.50')
  })
})
