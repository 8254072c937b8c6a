import type { Printer } from './printer.js'
import { reason, startedAtOf, type Connection } from './target.js'

/** How long to wait between attempts to reach a sandbox that went away: quick at first, then every 2 s. */
const BACKOFF_MS = [250, 500, 1000, 2000]

/**
 * After a request failed for want of a sandbox: says so once, waits until the sandbox answers its
 * health check again (a restart, a container coming back), then says that too. Never gives up: the
 * person stops the command with Ctrl-C. Answers whether the sandbox found is another one (a
 * restart, its logs new) rather than the same one after a lost connection.
 */
export async function waitUntilBack(connection: Connection, error: unknown, say: Printer): Promise<{ restarted: boolean }> {
  const { baseUrl } = connection.target
  say(say.paint('yellow', `lost the sandbox at ${baseUrl} (${reason(error)}); reconnecting…`))
  let startedAt: string | undefined
  for (let attempt = 0; ; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)]))
    try {
      const res = await fetch(`${baseUrl}/_sandbox/health`, { signal: AbortSignal.timeout(2000) })
      if (res.ok) {
        startedAt = await startedAtOf(res)
        break
      }
    } catch {
      // still away
    }
  }
  // Without a start time to compare, assume the worst: a new sandbox.
  const restarted = startedAt === undefined || startedAt !== connection.startedAt
  connection.startedAt = startedAt
  say(say.paint('green', restarted ? `reconnected to ${baseUrl} (restarted: its logs begin again)` : `reconnected to ${baseUrl}`))
  return { restarted }
}

/** Whether a failed request failed for want of a sandbox (no connection), rather than by its answer. */
export const isConnectionLoss = (error: unknown): boolean => error instanceof TypeError && /fetch failed|terminated|other side closed/i.test(`${error.message} ${reason(error)}`)
