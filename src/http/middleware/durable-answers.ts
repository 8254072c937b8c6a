import type { NextFunction, Request, Response } from 'express'

/**
 * `--durability strict`: an answer leaves only once the changes made so far are fsynced (CONTRACT.md
 * section 18). Holding `res.end` covers every route, the error responder and idempotent replays
 * alike; the changes of one event-loop turn share one fsync.
 */
/** `durable` is the store's: undefined when nothing waits for an fsync (the middleware names no store type). */
export function holdAnswersUntilDurable(durable: () => Promise<void> | undefined) {
  return (_req: Request, res: Response, next: NextFunction) => {
    const end = res.end.bind(res) as (...args: unknown[]) => Response
    res.end = ((...args: unknown[]) => {
      const pending = durable()
      if (!pending) return end(...args)
      void pending.then(() => end(...args))
      return res
    }) as Response['end']
    next()
  }
}
