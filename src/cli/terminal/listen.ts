import { SandboxControlError } from '../../client/control-client.js'
import type { Paint } from '../../colour.js'
import type { SandboxEvent, SandboxEventPage } from '../../client/control-types.js'
import { isKeyWithoutAccount, newestEvent } from './event-cursor.js'
import { accountIdOf, provision } from './key-account.js'
import { checkForwardUrl, checkSecret, forward, forwardSecret } from './forward.js'
import { isConnectionLoss, waitUntilBack } from './reconnect.js'
import type { Printer } from './printer.js'
import { EVENT_TYPE_WIDTH, paintEventType } from './styles.js'
import { connect, TerminalError, type Connection, type Target } from './target.js'

export interface ListenOptions {
  /** `--events`: types and `resource.*`, comma separated. */
  events?: string
  forwardTo?: string
  secret?: string
  json: boolean
  /** stdout: `Ready`, then the events (and, in text, the forwards' answers); with --json, the events' JSON alone. */
  out: Printer
  /** stderr: what is not an event (the secret, reconnections; with --json, `Ready` and the forwards' answers). */
  err: Printer
}

/** One request's longest wait for the next event; shorter than any proxy's idle timeout. */
const POLL_WAIT_MS = 25_000

/**
 * `wallet-sandbox listen` (CONTRACT.md section 21): the account's events as they happen, read from
 * `GET /_sandbox/events` with long polls, each printed and, with `--forward-to`, POSTed signed to a
 * URL of this machine (so a sandbox in a container can reach the host's localhost through it).
 * Survives a restart of the sandbox; runs until Ctrl-C.
 */
export async function listen(target: Target, options: ListenOptions): Promise<never> {
  const connection = await connect(target)
  const forwarding = options.forwardTo === undefined ? undefined : { url: checkForwardUrl(options.forwardTo), secret: await secretFor(connection, options) }
  const start = await newestEvent(connection, options.events)
  let cursor = start.after
  /** The account's resets when `cursor` was read; undefined: to be learnt from the next page. */
  let resets: number | undefined = start.resets
  if (forwarding) options.err(`Forwarding to ${forwarding.url}, signed with ${forwarding.secret} (Standard Webhooks)`)
  // Under --json stdout is the events alone (`listen --json | jq`).
  ;(options.json ? options.err : options.out)('Ready')
  for (;;) {
    let page: SandboxEventPage
    try {
      page = await connection.control.events({ api_key: target.apiKey, type: options.events, after: cursor, wait: POLL_WAIT_MS })
    } catch (error) {
      cursor = await recover(connection, error, cursor, options)
      // Reading from the first event again (a restarted sandbox counts its resets anew).
      if (cursor === undefined) resets = undefined
      continue
    }
    if (resets !== undefined && page.resets !== resets && cursor !== undefined) {
      // Reset, its ids begin again: the page read after an id that may now name another event.
      options.err('the account was reset: reading its events again from the first')
      resets = page.resets
      cursor = undefined
      continue
    }
    resets = page.resets
    const events = page.data
    for (const event of events) {
      options.out(options.json ? JSON.stringify(event) : describe(event, options.out.paint))
      if (forwarding) {
        const answers = options.json ? options.err : options.out
        answers(await forward(event, forwarding.url, forwarding.secret, answers.paint))
      }
      cursor = event.id
    }
  }
}

/** `--print-secret`: the secret `listen --forward-to` signs with (the key's account's: the URL does not matter). */
export async function printSecret(target: Target, options: Pick<ListenOptions, 'forwardTo' | 'secret' | 'out'>): Promise<void> {
  if (options.forwardTo !== undefined) checkForwardUrl(options.forwardTo)
  options.out(await secretFor(await connect(target), options))
}

async function secretFor(connection: Connection, options: Pick<ListenOptions, 'secret'>): Promise<string> {
  if (options.secret !== undefined) return checkSecret(options.secret)
  const config = await connection.control.request<{ seed: string }>('GET', '/config')
  return forwardSecret(config.seed, await accountIdOf(connection))
}

/** `2026-01-01T00:00:05.000Z  payment.failed             evt_…  pay_…`, the type padded to the longest so that the columns stay aligned. */
const describe = (event: SandboxEvent, paint: Paint) =>
  [paint('dim', event.created_at), paintEventType(paint, event.type, EVENT_TYPE_WIDTH), event.id, (event.data.object as { id?: string }).id ?? ''].join('  ')

/**
 * After a failed read: a lost sandbox is waited for; once back, restarted, its event log is new and
 * listening goes on from its oldest event, all of them new to this listener. The cursor cannot tell:
 * a sandbox started afresh with the same seed makes the same event ids again, and an id that is
 * back in the new log would skip every event up to it.
 */
async function recover(connection: Connection, error: unknown, cursor: string | undefined, options: ListenOptions): Promise<string | undefined> {
  if (isConnectionLoss(error)) {
    const { restarted } = await waitUntilBack(connection, error, options.err)
    if (!restarted) return cursor
    options.err('reading the new sandbox\'s events from its first; started afresh with the same seed, a sandbox makes the same ids again')
    return undefined
  }
  if (error instanceof SandboxControlError && error.param === 'after') {
    options.err(`the sandbox no longer holds ${cursor} (the account was reset, or the event dropped from its log): reading on from its oldest event`)
    return undefined
  }
  if (isKeyWithoutAccount(error)) {
    await provision(connection)
    return undefined
  }
  throw error
}
