/**
 * At most `rate` requests a second, evenly spaced: each request starts no sooner than 1.05/rate s
 * after the one before (CONTRACT.md section 22, `--rate`). The hosted sandbox counts arrivals in a
 * rolling second, and a request that took longer on its way (the first of a connection) arrives
 * closer to the next one than it was sent: the 50 ms a second of margin keeps any second of arrivals
 * within `rate`.
 */

export type Sleep = (ms: number) => Promise<void>

export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

export type Pacer = () => Promise<void>

/** Of each second, the share left for requests that arrive closer together than they were sent. */
const JITTER_MARGIN_MS = 50

export function createPacer(rate: number, options: { now?: () => number; sleep?: Sleep } = {}): Pacer {
  const now = options.now ?? (() => performance.now())
  const sleep = options.sleep ?? realSleep
  const gap = (1000 + JITTER_MARGIN_MS) / rate
  let next = -Infinity
  return async () => {
    const at = Math.max(now(), next)
    next = at + gap
    const wait = at - now()
    if (wait > 0) await sleep(wait)
    // A timer that fired late (a busy machine) starts the next gap from when this request really went.
    next = Math.max(next, now() + gap)
  }
}
