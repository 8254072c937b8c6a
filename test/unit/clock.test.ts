import { setImmediate as nextTurn } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { createClock } from '../../src/clock.js'

const START = Date.parse('2026-01-01T00:00:00.000Z')
const manual = () => createClock({ mode: 'manual', start: START })

describe('clock.advance', () => {
  it('runs, at its own time, what tracked work scheduled after an await inside the same advance', async () => {
    const clock = manual()
    const ran: number[] = []
    // Like a webhook delivery: the timer starts work off the scheduler; when the work ends (after a
    // few turns of the event loop, as an HTTP answer would) it schedules the next attempt.
    const attempt = (left: number) => {
      clock.track(
        (async () => {
          ran.push(clock.now() - START)
          await nextTurn()
          await nextTurn()
          if (left > 0) clock.schedule(1_000 * 2 ** (3 - left), () => attempt(left - 1))
        })(),
      )
    }
    clock.schedule(0, () => attempt(3))
    await clock.advance(10_000)
    expect(ran).toEqual([0, 1_000, 3_000, 7_000])
    expect(clock.now() - START).toBe(10_000)
  })

  it('waits for work in flight when the advance starts', async () => {
    const clock = manual()
    const ran: number[] = []
    clock.track(
      (async () => {
        await nextTurn()
        clock.schedule(2_000, () => void ran.push(clock.now() - START))
      })(),
    )
    await clock.advance(5_000)
    expect(ran).toEqual([2_000])
  })

  it('leaves work that fails to the work itself and goes on', async () => {
    const clock = manual()
    clock.track(Promise.reject(new Error('receiver gone')))
    const ran: number[] = []
    clock.schedule(1_000, () => void ran.push(clock.now() - START))
    await clock.advance(1_000)
    expect(ran).toEqual([1_000])
  })
})
