import { afterEach, expect, it } from 'vitest'
import { RECEIVER_KINDS, runHostileReceivers } from '../../bench/receivers-driver.mjs'
import { startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

/**
 * Webhook receivers that are down, answer 500, hang past the timeout, answer at 1 byte a second or
 * answer 410, for an hour of sandbox time, then recover: the short run of `npm run bench:receivers`.
 * Hanging and slow receivers cost the webhook timeout in real time per attempt, hence the short timeout.
 */
let sb: TestSandbox | undefined
afterEach(async () => {
  await sb?.close()
  sb = undefined
})

it('after recovery every event is delivered, never twice but for a 2xx that came after the timeout, no attempt beyond the schedule, and the log shows every attempt', async () => {
  // The default schedule plus two more hours, so that an attempt after recovery that a loaded machine
  // stalls past the timeout still has a retry left.
  sb = await startTestSandbox({ webhookTimeout: 200, deliveryLogLimit: 100, webhookRetries: '5s,30s,2m,10m,1h,1h,1h' })
  const report = await runHostileReceivers({ base: sb.url, events: 3, schedule: [5_000, 30_000, 120_000, 600_000, 3_600_000, 3_600_000, 3_600_000] })
  expect(report.problems).toEqual([])
  // Every kind but 410 gets all 3 events; the 410 endpoint is disabled after its first answer, so it has 1 to 3.
  expect(report.delivered).toBeGreaterThanOrEqual(3 * (RECEIVER_KINDS.length - 1) + 1)
  expect(report).toMatchObject({ lost: 0, duplicated: 0, beyondSchedule: 0, logMismatches: 0 })
  // down, 500, hang and slow: five failed attempts in the hour, the sixth (1 h after the fifth) delivers.
  console.log(`hostile receivers: ${JSON.stringify(report)}`)
  expect(report.attempts).toBeGreaterThanOrEqual(3 * 1 + 4 * 3 * 6 + 2)
}, 60_000)
