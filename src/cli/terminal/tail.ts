import type { SandboxRequest } from '../../client/control-types.js'
import { accountIdOf } from './key-account.js'
import { isConnectionLoss, waitUntilBack } from './reconnect.js'
import { requestFilter, type RequestFilterFlags } from './request-filters.js'
import type { Paint } from '../../colour.js'
import type { Printer } from './printer.js'
import { paintStatus } from './styles.js'
import { connect, type Connection, type Target } from './target.js'

export interface TailOptions extends RequestFilterFlags {
  /** Adds the request and answer bodies. */
  verbose: boolean
  /** Each request as the journal's JSON, one per line, and nothing else on stdout. */
  json: boolean
  out: Printer
  err: Printer
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
  const shows = requestFilter(options)
  const connection = await connect(target)
  const { control } = connection
  /** A key named (--api-key, WALLET_SANDBOX_API_KEY): only its account's requests, which the route filters. */
  let accountId = await accountOf(connection)
  let newest: string | undefined
  /** The entries after `newest`, oldest first; all of them when `newest` is undefined. */
  const readNew = async (): Promise<SandboxRequest[]> => {
    const fresh: SandboxRequest[] = []
    for (let page = 0; page < JOURNAL_PAGES; page++) {
      const entries = await control.requests({ limit: PAGE, offset: page * PAGE, account_id: accountId })
      const seenAt = entries.findIndex((entry) => identity(entry) === newest)
      fresh.push(...(seenAt === -1 ? entries : entries.slice(0, seenAt)))
      if (seenAt !== -1 || entries.length < PAGE) break
    }
    if (fresh[0]) newest = identity(fresh[0])
    return fresh.reverse()
  }
  // Only what comes from now on.
  await readNew()
  // Under --json stdout is the requests alone (`tail --json | jq`).
  ;(options.json ? options.err : options.out)('Ready')
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
    let entries: SandboxRequest[]
    try {
      entries = await readNew()
    } catch (error) {
      if (!isConnectionLoss(error)) throw error
      // A restarted sandbox has a new journal: everything in it is new here, and the key's account may be another.
      if ((await waitUntilBack(connection, error, options.err)).restarted) {
        newest = undefined
        accountId = await accountOf(connection)
      }
      continue
    }
    for (const entry of entries) if (shows(entry)) options.out(options.json ? JSON.stringify(entry) : describe(entry, options.verbose, options.out.paint))
  }
}

/** The account whose requests to show: the named key's, or every account's (undefined) when none was named. */
const accountOf = (connection: Connection): Promise<string | undefined> => (connection.target.keyNamed ? accountIdOf(connection) : Promise.resolve(undefined))

/** An entry as itself: an idempotent replay shares its first request's id, but not its time and duration. */
const identity = (entry: SandboxRequest) => `${entry.id} ${entry.at} ${entry.duration_ms} ${entry.status}`

/** `00:00:05.000 POST /v1/payments 201 4.2ms req_… sk_test_…_key`, and the bodies with --verbose. */
function describe(entry: SandboxRequest, verbose: boolean, paint: Paint): string {
  const path = entry.query ? `${entry.path}?${entry.query}` : entry.path
  const parts = [paint('dim', entry.at.slice(11, 23)), entry.method.padEnd(6), path, paintStatus(paint, entry.status), `${entry.duration_ms.toFixed(1)}ms`, paint('dim', entry.id)]
  if (entry.api_key) parts.push(entry.api_key)
  if (entry.fault) parts.push(paint('yellow', `fault ${entry.fault}`))
  const line = parts.join(' ')
  if (!verbose) return line
  return [line, ...(entry.request_body ? [`  > ${entry.request_body}`] : []), ...(entry.response_body ? [`  < ${entry.response_body}`] : [])].join('\n')
}
