/**
 * At most `rate` requests a second, evenly spaced: each request starts no sooner than 1/rate s after
 * the one before, so any second holds at most `rate` of them (CONTRACT.md section 22, `--rate`; the
 * hosted sandbox allows 10 a second and counts in a rolling window).
 */

export type Sleep = (ms: number) => Promise<void>

export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

export type Pacer = () => Promise<void>

export function createPacer(rate: number, options: { now?: () => number; sleep?: Sleep } = {}): Pacer {
  const now = options.now ?? (() => performance.now())
  const sleep = options.sleep ?? realSleep
  const gap = 1000 / rate
  let next = -Infinity
  return async () => {
    const at = Math.max(now(), next)
    next = at + gap
    const wait = at - now()
    if (wait > 0) await sleep(wait)
  }
}
