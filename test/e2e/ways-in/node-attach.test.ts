import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { attachSandbox, startSandbox, type RunningSandbox } from '../../../src/public.js'

/** A Node suite on a sandbox it did not start (`exec`): it attaches, and warns once about sandbox-wide calls (CONTRACT.md section 24). */

let owner: RunningSandbox
beforeAll(async () => {
  owner = await startSandbox({ clock: 'manual', settle: 'manual' })
})
afterAll(() => owner.close())

const envOf = (sandbox: RunningSandbox) => ({ WALLET_SANDBOX_BASE_URL: sandbox.baseUrl, WALLET_SANDBOX_URL: sandbox.url, WALLET_SANDBOX_API_KEY: sandbox.apiKey })

describe('attachSandbox()', () => {
  it('reaches the sandbox of the variables, gives each test an account of its own, and warns once about sandbox-wide calls', async () => {
    const warnings: Error[] = []
    const onWarning = (warning: Error) => warnings.push(warning)
    process.on('warning', onWarning)
    try {
      const shared = attachSandbox(envOf(owner))
      expect(shared).toMatchObject({ url: owner.url, baseUrl: owner.baseUrl, apiKey: owner.apiKey })
      const account = await shared.newAccount()
      await account.advanceClock(1000)
      await account.restore(await account.snapshot())
      await new Promise((resolve) => setImmediate(resolve))
      expect(warnings).toEqual([])

      await shared.control.advanceClock(1000)
      await shared.control.snapshot()
      await shared.control.reset({ api_key: account.apiKey })
      await new Promise((resolve) => setImmediate(resolve))
      expect(warnings.map((warning) => (warning as Error & { code?: string }).code)).toEqual(['WALLET_SANDBOX_SHARED'])
      expect(warnings[0]!.message).toContain('affects every test that shares it')
    } finally {
      process.off('warning', onWarning)
    }
  })

  it('says which variable is missing or wrong', () => {
    expect(() => attachSandbox({})).toThrow(/needs WALLET_SANDBOX_BASE_URL/)
    expect(() => attachSandbox({ WALLET_SANDBOX_BASE_URL: `${owner.baseUrl}/v1` })).toThrow(/without \/v1/)
  })

  it('refuses to restore another account’s snapshot through an account', async () => {
    const shared = attachSandbox(envOf(owner))
    const [a, b] = [await shared.newAccount(), await shared.newAccount()]
    await expect(a.restore(await b.snapshot())).rejects.toThrow(/takes that account's snapshot/)
  })
})
