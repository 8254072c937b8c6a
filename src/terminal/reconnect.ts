import { reason, type Target } from './target.js'

/** How long to wait between attempts to reach a sandbox that went away: quick at first, then every 2 s. */
const BACKOFF_MS = [250, 500, 1000, 2000]

/**
 * After a request failed for want of a sandbox: says so once, waits until the sandbox answers its
 * health check again (a restart, a container coming back), then says that too. Never gives up: the
 * person stops the command with Ctrl-C.
 */
export async function waitUntilBack(target: Target, error: unknown, say: (line: string) => void): Promise<void> {
  say(`lost the sandbox at ${target.baseUrl} (${reason(error)}); reconnecting…`)
  for (let attempt = 0; ; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)]))
    try {
      const res = await fetch(`${target.baseUrl}/_sandbox/health`, { signal: AbortSignal.timeout(2000) })
      if (res.ok) break
    } catch {
      // still away
    }
  }
  say(`reconnected to ${target.baseUrl}`)
}

/** Whether a failed request failed for want of a sandbox (no connection), rather than by its answer. */
export const isConnectionLoss = (error: unknown): boolean => error instanceof TypeError && /fetch failed|terminated|other side closed/i.test(`${error.message} ${reason(error)}`)
