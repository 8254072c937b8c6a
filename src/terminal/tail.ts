import type { SandboxRequest } from '../client/control-types.js'
import { isConnectionLoss, waitUntilBack } from './reconnect.js'
import { connect, TerminalError, type Target } from './target.js'

export interface TailOptions {
  /** `--status 4xx,5xx,404`: which answers to show. */
  status?: string
  /** Adds the request and answer bodies. */
  verbose: boolean
  out: (line: string) => void
  err: (line: string) => void
}

/** How often the journal is read; it keeps the last 1,000 requests of each account (by default), far more than arrive in that time. */
const POLL_MS = 250
const PAGE = 100
/**
 * How far back one read goes at most: 500 requests of every account together, newest first. (Not
 * `after` the newest id seen: an idempotent replay shares its first request's id, and the replay of
 * a request already printed would come after it and be skipped.)
 */
const JOURNAL_PAGES = 5

/**
 * `wallet-sandbox tail` (CONTRACT.md section 21): the request journal (`GET /_sandbox/requests`) live,
 * one line per `/v1` request once it has been answered (or dropped), oldest first. Runs until Ctrl-C.
 */
export async function tail(target: Target, options: TailOptions): Promise<never> {
  const shows = statusFilter(options.status)
  const connection = await connect(target)
  const { control } = connection
  let newest: string | undefined
  /** The entries after `newest`, oldest first; all of them when `newest` is undefined. */
  const readNew = async (): Promise<SandboxRequest[]> => {
    const fresh: SandboxRequest[] = []
    for (let page = 0; page < JOURNAL_PAGES; page++) {
      const entries = await control.requests({ limit: PAGE, offset: page * PAGE })
      const seenAt = entries.findIndex((entry) => identity(entry) === newest)
      fresh.push(...(seenAt === -1 ? entries : entries.slice(0, seenAt)))
      if (seenAt !== -1 || entries.length < PAGE) break
    }
    if (fresh[0]) newest = identity(fresh[0])
    return fresh.reverse()
  }
  // Only what comes from now on.
  await readNew()
  options.out('Ready')
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
    let entries: SandboxRequest[]
    try {
      entries = await readNew()
    } catch (error) {
      if (!isConnectionLoss(error)) throw error
      // A restarted sandbox has a new journal: everything in it is new here.
      if ((await waitUntilBack(connection, error, options.err)).restarted) newest = undefined
      continue
    }
    for (const entry of entries) if (shows(entry.status)) options.out(describe(entry, options.verbose))
  }
}

/** An entry as itself: an idempotent replay shares its first request's id, but not its time and duration. */
const identity = (entry: SandboxRequest) => `${entry.id} ${entry.at} ${entry.duration_ms} ${entry.status}`

/** `4xx,5xx,404` → a test of a status (null: no answer was sent, shown only without a filter). */
export function statusFilter(spec: string | undefined): (status: number | null) => boolean {
  if (spec === undefined) return () => true
  const parts = spec.split(',').map((part) => part.trim().toLowerCase())
  const wrong = parts.filter((part) => !/^[1-5](xx|\d\d)$/.test(part))
  if (wrong.length > 0) throw new TerminalError(`--status takes classes and codes such as 4xx,5xx or 404,429; got ${wrong.map((part) => JSON.stringify(part)).join(', ')}`)
  return (status) => status !== null && parts.some((part) => (part.endsWith('xx') ? String(status)[0] === part[0] : Number(part) === status))
}

/** `00:00:05.000 POST /v1/payments 201 4.2ms req_… sk_test_…_key`, and the bodies with --verbose. */
function describe(entry: SandboxRequest, verbose: boolean): string {
  const path = entry.query ? `${entry.path}?${entry.query}` : entry.path
  const parts = [entry.at.slice(11, 23), entry.method.padEnd(6), path, entry.status === null ? 'no answer' : String(entry.status), `${entry.duration_ms.toFixed(1)}ms`, entry.id]
  if (entry.api_key) parts.push(entry.api_key)
  if (entry.fault) parts.push(`fault ${entry.fault}`)
  const line = parts.join(' ')
  if (!verbose) return line
  return [line, ...(entry.request_body ? [`  > ${entry.request_body}`] : []), ...(entry.response_body ? [`  < ${entry.response_body}`] : [])].join('\n')
}
