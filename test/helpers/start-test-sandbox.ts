import supertest from 'supertest'
import { loadConfig, type ConfigInput } from '../../src/config.js'
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox.js'
import { silentLogger } from '../../src/logger.js'
import { ResponseRecorder } from './conformance.js'

export const DEFAULT_KEY = 'sk_test_sandbox_default_key'

export interface TestSandbox {
  sandbox: Sandbox
  /** http://127.0.0.1:<port> */
  url: string
  /** A supertest agent bound to the running server. */
  api: ReturnType<typeof supertest>
  /** Default headers for the default key: `api.get(path).set(auth())`. */
  auth(key?: string): Record<string, string>
  close(): Promise<void>
}

/**
 * A real sandbox on port 0 with a manual clock, in memory, quiet, rate limit off unless asked.
 * Pass any config keys to override (`{ settle: 'instant', rateLimit: 10 }`), and `realTime` to
 * date request signatures on a clock the test moves.
 */
export async function startTestSandbox(overrides: Partial<ConfigInput> = {}, options: Pick<SandboxOptions, 'realTime' | 'rateLimitClock' | 'stream'> = {}): Promise<TestSandbox> {
  const config = loadConfig({
    flags: { port: 0, clock: 'manual', settle: 'manual', rateLimit: 0, quiet: true, seed: 'test', ...overrides } as never,
  })
  // Every /v1 answer the test receives is checked against the OpenAPI document when the sandbox closes.
  const recorder = new ResponseRecorder(config.envelope)
  const sandbox = await createSandbox(config, { ...options, logger: silentLogger, beforeRoutes: [recorder.middleware] })
  const { url } = await sandbox.listen()
  return {
    sandbox,
    url,
    api: supertest(url),
    auth: (key = DEFAULT_KEY) => ({ Authorization: `Bearer ${key}` }),
    async close() {
      await sandbox.close()
      recorder.assertConforms(await sandbox.loadRoutes())
    },
  }
}

/** The first seeded institutional wallet of a network/currency pair for the given key. */
export async function institutionalWallet(sb: TestSandbox, network: string, currency: string, key = DEFAULT_KEY) {
  const res = await sb.api.get(`/v1/wallets?type=institutional&network=${network}&currency=${currency}`).set(sb.auth(key)).expect(200)
  return res.body.data[0] as { id: string; address: string; balance: string }
}
