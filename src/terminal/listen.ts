import { SandboxControlError } from '../client/control-client.js'
import type { SandboxEvent } from '../client/control-types.js'
import { isKeyWithoutAccount, newestEvent, provision } from './event-cursor.js'
import { checkForwardUrl, checkSecret, forward, forwardSecret } from './forward.js'
import { isConnectionLoss, waitUntilBack } from './reconnect.js'
import { connect, TerminalError, type Connection, type Target } from './target.js'

export interface ListenOptions {
  /** `--events`: types and `resource.*`, comma separated. */
  events?: string
  forwardTo?: string
  secret?: string
  json: boolean
  /** stdout: `Ready`, then the events (and, in text, the forwards' answers). */
  out: (line: string) => void
  /** stderr: what is not an event (the secret, reconnections; forwards' answers with --json). */
  err: (line: string) => void
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
  let cursor = await newestEvent(connection, options.events)
  if (forwarding) options.err(`Forwarding to ${forwarding.url}, signed with ${forwarding.secret} (Standard Webhooks)`)
  options.out('Ready')
  for (;;) {
    let events: SandboxEvent[]
    try {
      events = (await connection.control.events({ api_key: target.apiKey, type: options.events, after: cursor, wait: POLL_WAIT_MS })).data
    } catch (error) {
      cursor = await recover(connection, error, cursor, options)
      continue
    }
    for (const event of events) {
      options.out(options.json ? JSON.stringify(event) : describe(event))
      if (forwarding) (options.json ? options.err : options.out)(await forward(event, forwarding.url, forwarding.secret))
      cursor = event.id
    }
  }
}

/** `--print-secret`: the secret `listen --forward-to URL` signs with. */
export async function printSecret(target: Target, options: Pick<ListenOptions, 'forwardTo' | 'secret' | 'out'>): Promise<void> {
  if (options.forwardTo === undefined) throw new TerminalError('--print-secret prints the secret listen signs its forwards with: give the URL with --forward-to')
  checkForwardUrl(options.forwardTo)
  options.out(await secretFor(await connect(target), options))
}

async function secretFor(connection: Connection, options: Pick<ListenOptions, 'forwardTo' | 'secret'>): Promise<string> {
  if (options.secret !== undefined) return checkSecret(options.secret)
  const config = await connection.control.request<{ seed: string }>('GET', '/config')
  return forwardSecret(config.seed, options.forwardTo!)
}

/** `2026-01-01T00:00:05.000Z  payment.failed  evt_…  pay_…` */
const describe = (event: SandboxEvent) => [event.created_at, event.type.padEnd(24), event.id, (event.data.object as { id?: string }).id ?? ''].join('  ')

/**
 * After a failed read: a lost sandbox is waited for; once back (restarted, its event log new and the
 * cursor unknown to it), listening goes on from its oldest event, all of them new to this listener.
 */
async function recover(connection: Connection, error: unknown, cursor: string | undefined, options: ListenOptions): Promise<string | undefined> {
  if (isConnectionLoss(error)) {
    await waitUntilBack(connection.target, error, options.err)
    return cursor
  }
  if (error instanceof SandboxControlError && error.param === 'after') return undefined
  if (isKeyWithoutAccount(error)) {
    await provision(connection)
    return undefined
  }
  throw error
}
