import { execFile, execFileSync } from 'node:child_process'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type RunningSandbox } from '../../src/public.js'

/** `node bin/health-check.js`, the command the image's HEALTHCHECK and a CI service's --health-cmd run. */

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const run = promisify(execFile)
let sandbox: RunningSandbox

/** Only the variables given: none of the developer's WALLET_SANDBOX_* settings. */
const envWith = (vars: Record<string, string>) => ({
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('WALLET_SANDBOX_'))),
  ...vars,
})

async function healthCheck(vars: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['bin/health-check.js'], { cwd: ROOT, env: envWith(vars) })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
  }
}

beforeAll(async () => {
  execFileSync(process.execPath, ['scripts/build-if-needed.mjs'], { cwd: ROOT, stdio: 'inherit' })
  sandbox = await startSandbox({ controlToken: 'ci-secret' })
}, 180_000)

afterAll(async () => {
  await sandbox?.close()
})

describe('bin/health-check.js', () => {
  it('exits 0 on the port WALLET_SANDBOX_PORT names, without the control token', async () => {
    const result = await healthCheck({ WALLET_SANDBOX_PORT: new URL(sandbox.baseUrl).port, WALLET_SANDBOX_HOST: '0.0.0.0' })
    expect(result).toEqual({ code: 0, stdout: expect.stringContaining(`is healthy at ${sandbox.baseUrl}/_sandbox/health`), stderr: '' })
  })

  it('exits 1 with the reason on stderr when nothing answers', async () => {
    const server = createServer()
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const port = String((server.address() as { port: number }).port)
    await new Promise((resolve) => server.close(resolve))
    expect(await healthCheck({ WALLET_SANDBOX_PORT: port })).toEqual({ code: 1, stdout: '', stderr: `no answer from http://127.0.0.1:${port}/_sandbox/health (ECONNREFUSED)\n` })
  })
})
