import { monotonicMs, wallClockSeconds } from '../../clock.js'
import { ApiError } from '../../errors.js'

const WINDOW_MS = 1000

/**
 * At most `limit` accepted requests per key in any rolling one-second window (CONTRACT.md section 7).
 * Runs on real monotonic time, even when the sandbox clock is manual; rejected requests do not count.
 */
export interface RateLimiter {
  /** Counts the request or throws 429; returns the headers to send either way. */
  take(key: string): Record<string, string>
}

/** `now`: monotonic ms; tests inject their own to check the window exactly under concurrency. */
export function createRateLimiter(limit: number, now: () => number = monotonicMs): RateLimiter {
  // Per key: the accept times of the last `limit` requests, oldest first.
  const windows = new Map<string, number[]>()
  const policy = `"sandbox";q=${limit};w=1`

  return {
    take(key) {
      const at = now()
      let times = windows.get(key)
      if (!times) windows.set(key, (times = []))
      while (times.length > 0 && times[0]! <= at - WINDOW_MS) times.shift()

      const accepted = times.length < limit
      if (accepted) times.push(at)
      const remaining = limit - times.length
      // Whole seconds until the oldest request leaves the window: 0 while slots remain, at least 1 after.
      const reset = remaining > 0 ? 0 : Math.max(1, Math.ceil((times[0]! + WINDOW_MS - at) / 1000))
      const headers = {
        'RateLimit-Policy': policy,
        RateLimit: `"sandbox";r=${remaining};t=${reset}`,
        'X-RateLimit-Limit': String(limit),
        'X-RateLimit-Remaining': String(remaining),
        'X-RateLimit-Reset': String(wallClockSeconds() + reset),
      }
      if (!accepted) {
        throw new ApiError('rate_limit_exceeded', `Too many requests: this key may make ${limit} requests per second. Retry after ${reset} s.`, {
          headers: { ...headers, 'Retry-After': String(reset) },
        })
      }
      return headers
    },
  }
}
