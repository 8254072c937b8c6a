import type { Request, Response } from 'express'
import type { Config } from '../../config.js'
import type { FaultRules } from '../../control/fault-rules.js'
import type { Fault, FaultKind } from '../../schemas/faults.js'
import { ApiError } from '../../errors.js'
import { createRng } from '../../rng.js'
import { lazily } from '../../lazily.js'
import { seedOf } from '../../config.js'
import type { RequestContext } from '../context.js'

/** Faults that end a request without an answer; the pipeline decides when (before or after the handler). */
export type ConnectionFault = 'drop' | 'commit_then_drop' | 'timeout'

export interface Faults {
  /**
   * Runs after authentication, rate limiting and idempotency, before validation (CONTRACT.md
   * section 13): waits for injected latency, throws an injected error (before validation, so it is
   * not kept under an Idempotency-Key), or names the connection fault the pipeline must apply.
   * Answers at once (no promise) unless there is latency to wait for.
   */
  before(req: Request, res: Response, ctx: RequestContext): ConnectionFault | undefined | Promise<ConnectionFault | undefined>
  /** Ends the request without an answer: closes the connection, or holds it open for `timeout`. */
  cut(res: Response, fault: ConnectionFault): void
  /** Lets go of held requests, so that closing the server does not wait for them. */
  close(): void
}

/**
 * The global faults (`--latency`, `--error-rate`) and the control API's rules, in one place. Every
 * draw is seeded (one generator for the global faults, the rules' own for the rules), so a run with
 * the same seed and requests injects the same faults.
 */
export function createFaults(deps: { config: Pick<Config, 'latency' | 'errorRate' | 'seed'>; rules: FaultRules }): Faults {
  const { latency, errorRate } = deps.config
  // Made for the first draw: only --latency and --error-rate draw (a start need not hash its seed for them).
  const rng = lazily(() => createRng(seedOf(deps.config), 'faults'))
  const held = new Set<Response>()

  return {
    before(req, res, ctx) {
      if (!req.path.startsWith('/v1/')) return undefined
      // Nothing to inject (the common case): no draw, no target and decision objects made for every request.
      if (!latency && !(errorRate > 0) && !deps.rules.any()) return undefined
      // Everything is drawn and counted before the wait, so concurrent requests see the counts in order.
      let waitMs = latency ? latency[0] + rng().int(latency[1] - latency[0] + 1) : 0
      const decision = deps.rules.take({ method: req.method, path: req.path, apiKey: ctx.key?.key, accountId: ctx.account?.account.id })
      waitMs += decision.latencyMs
      const rule = decision.fault
      const globalError = !rule && errorRate > 0 && rng().next() < errorRate
      const kind: FaultKind | undefined = rule?.fault ?? (globalError ? 'error' : waitMs > 0 ? 'latency' : undefined)
      if (kind) res.locals.fault = kind

      // A real delay, on purpose: it imitates a slow network, which the sandbox clock cannot.
      if (waitMs > 0) return new Promise((resolve) => setTimeout(resolve, waitMs)).then(() => decide(rule, globalError, errorRate))
      return decide(rule, globalError, errorRate)
    },

    cut(res, fault) {
      if (fault !== 'timeout') {
        res.destroy()
        return
      }
      // Never answered: the client's own timeout ends it, or close() does.
      held.add(res)
      res.once('close', () => held.delete(res))
    },

    close() {
      for (const res of held) res.destroy()
      held.clear()
    },
  }
}

/** After any wait: the injected error to throw, or the connection fault to apply. */
function decide(rule: Fault | undefined, globalError: boolean, errorRate: number): ConnectionFault | undefined {
  if (globalError) throw new ApiError('service_unavailable', `The sandbox injected this failure (--error-rate ${errorRate}); retry the request.`)
  // A deciding rule is never a latency rule (those only add to the wait); the check narrows the type.
  if (!rule || rule.fault === 'latency') return undefined
  if (rule.fault === 'error') {
    const message = `The sandbox injected this failure (fault ${rule.id}); retry the request.`
    throw new ApiError(rule.status === 500 ? 'internal_error' : 'service_unavailable', message)
  }
  return rule.fault
}
