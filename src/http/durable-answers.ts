import type { NextFunction, Request, Response } from 'express'
import type { Store } from '../store/store.js'

/**
 * `--durability strict`: an answer leaves only once the changes made so far are fsynced (CONTRACT.md
 * section 18). Holding `res.end` covers every route, the error responder and idempotent replays
 * alike; the changes of one event-loop turn share one fsync.
 */
export function holdAnswersUntilDurable(store: Store) {
  return (_req: Request, res: Response, next: NextFunction) => {
    const end = res.end.bind(res) as (...args: unknown[]) => Response
    res.end = ((...args: unknown[]) => {
      const durable = store.durable()
      if (!durable) return end(...args)
      void durable.then(() => end(...args))
      return res
    }) as Response['end']
    next()
  }
}
