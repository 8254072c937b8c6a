import { afterEach, describe, expect, it } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'
import { VERSION } from '../../src/version.js'

const sandboxes: TestSandbox[] = []
afterEach(async () => {
  for (const sb of sandboxes.splice(0)) await sb.close()
})

describe('GET /_sandbox/health', () => {
  it('answers its version, its uptime and when it started, each sandbox its own, without a token', async () => {
    const before = Date.now()
    const first = await startTestSandbox({ controlToken: 'secret-token' })
    sandboxes.push(first)
    const health = (await first.api.get('/_sandbox/health').expect(200)).body.data
    expect(health).toEqual({ status: 'ok', version: VERSION, uptime_s: 0, started_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) })
    expect(Date.parse(health.started_at)).toBeGreaterThanOrEqual(before)
    expect(Date.parse(health.started_at)).toBeLessThanOrEqual(Date.now())
    // Each sandbox of a process has its own start (the module holding the route was loaded before
    // either): a client that lost its connection tells a restart by it.
    const beforeSecond = Date.now()
    const second = await startTestSandbox()
    sandboxes.push(second)
    const again = (await second.api.get('/_sandbox/health').expect(200)).body.data
    expect(Date.parse(again.started_at)).toBeGreaterThanOrEqual(beforeSecond)
  })
})
