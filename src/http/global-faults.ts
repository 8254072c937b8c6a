import type { Request } from 'express'
import type { Config } from '../config.js'
import { ApiError } from '../errors.js'
import { createRng } from '../rng.js'

/**
 * `--latency` and `--error-rate` (CONTRACT.md section 13): every `/v1` request waits a uniform random
 * time in the latency range, then fails with 503 `service_unavailable` at the error rate. It runs
 * after authentication, rate limiting and idempotency, before validation, so an injected 503 is not
 * stored and a retry with the same Idempotency-Key runs anew. Undefined when neither is set.
 */
export function createGlobalFaults(config: Pick<Config, 'latency' | 'errorRate' | 'seed'>): ((req: Request) => Promise<void>) | undefined {
  const { latency, errorRate } = config
  if (latency === undefined && errorRate === 0) return undefined
  // Seeded, so that a run with the same seed and requests fails the same requests.
  const rng = createRng(config.seed, 'faults')

  return async (req) => {
    if (!req.path.startsWith('/v1/')) return
    if (latency) {
      const [min, max] = latency
      const ms = min + rng.int(max - min + 1)
      // A real delay, on purpose: it imitates a slow network, which the sandbox clock cannot.
      if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms))
    }
    if (errorRate > 0 && rng.next() < errorRate) {
      throw new ApiError('service_unavailable', `The sandbox injected this failure (--error-rate ${errorRate}); retry the request.`)
    }
  }
}
