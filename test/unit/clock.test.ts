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

describe('account clocks', () => {
  it('runs one account’s timers on its own advance, at its own time, and no one else’s', async () => {
    const clock = manual()
    const ran: string[] = []
    clock.schedule(1_000, () => void ran.push(`a ${clock.now('a') - START}`), 'a')
    clock.schedule(1_000, () => void ran.push(`b ${clock.now('b') - START}`), 'b')
    clock.schedule(1_000, () => void ran.push(`sandbox ${clock.now() - START}`))
    await clock.advance(5_000, 'a')
    expect(ran).toEqual(['a 1000'])
    expect([clock.now() - START, clock.now('a') - START, clock.now('b') - START]).toEqual([0, 5_000, 0])
    expect(clock.offsetMs('a')).toBe(5_000)
    expect(clock.offsetMs()).toBe(0)
  })

  it('runs every account’s timers in sandbox-time order on a sandbox-wide advance, each on its own clock', async () => {
    const clock = manual()
    await clock.advance(2_000, 'ahead')
    const ran: string[] = []
    // Due at 3 s of its own time: 1 s of sandbox time from now.
    clock.schedule(1_000, () => void ran.push(`ahead at ${clock.now('ahead') - START}, sandbox ${clock.now() - START}`), 'ahead')
    clock.schedule(500, () => void ran.push(`behind at ${clock.now('behind') - START}`), 'behind')
    clock.schedule(1_500, () => void ran.push(`sandbox at ${clock.now() - START}`))
    await clock.advance(2_000)
    expect(ran).toEqual(['behind at 500', 'ahead at 3000, sandbox 1000', 'sandbox at 1500'])
    expect(clock.now('ahead') - clock.now()).toBe(2_000)
  })

  it('lets two accounts advance at once, and a sandbox-wide advance wait for both', async () => {
    const clock = manual()
    const order: string[] = []
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    clock.schedule(0, () => {
      order.push('a starts')
      clock.track(held.then(() => void order.push('a ends')), 'a')
    }, 'a')
    const advanceA = clock.advance(1_000, 'a')
    await nextTurn()
    await clock.advance(1_000, 'b')
    order.push('b advanced')
    const sandboxWide = clock.advance(1_000).then(() => void order.push('sandbox advanced'))
    await nextTurn()
    release()
    await Promise.all([advanceA, sandboxWide])
    expect(order).toEqual(['a starts', 'b advanced', 'a ends', 'sandbox advanced'])
    expect([clock.now('a'), clock.now('b'), clock.now()].map((ms) => ms - START)).toEqual([2_000, 2_000, 1_000])
  })

  it('keeps each timer’s remaining delay when an account’s time is set, and forgets an account whole', async () => {
    const clock = manual()
    const ran: number[] = []
    clock.schedule(1_000, () => void ran.push(clock.now('a') - START), 'a')
    clock.setNow(START + 60_000, 'a')
    await clock.advance(999)
    expect(ran).toEqual([])
    await clock.advance(1)
    expect(ran).toEqual([61_000])
    clock.schedule(1_000, () => void ran.push(-1), 'a')
    clock.forgetAccount('a')
    await clock.advance(5_000)
    expect(ran).toEqual([61_000])
    expect(clock.offsetMs('a')).toBe(0)
    expect(clock.pendingTimers()).toBe(0)
  })
})
