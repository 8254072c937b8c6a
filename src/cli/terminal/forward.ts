import { createHmac } from 'node:crypto'
import type { SandboxEvent } from '../../client/control-types.js'
import { SECRET_PREFIX, signPayload } from '../../standard-webhooks.js'
import { VERSION } from '../../version.js'
import type { Paint } from '../../colour.js'
import { paintAnswer } from './styles.js'
import { reason, TerminalError } from './target.js'

/** `listen --forward-to`: each event POSTed to a URL, signed as the sandbox signs its webhook deliveries. */

/** How long a forward may take before it counts as failed (as a webhook attempt does by default). */
const FORWARD_TIMEOUT_MS = 10_000

/**
 * The secret of `--forward-to` without `--secret`: one for each sandbox (its seed) and account, so
 * that an app keeps it in its configuration whatever URL it is reached by (`localhost` or
 * `127.0.0.1`, with or without a trailing slash, another port).
 */
export function forwardSecret(seed: string, accountId: string): string {
  return SECRET_PREFIX + createHmac('sha256', 'wallet-sandbox listen --forward-to').update(`${seed}\n${accountId}`).digest('base64')
}

/**
 * The URL to forward to, as `--forward-to` takes it: an http or https URL, or one without a scheme
 * (`localhost:3000/webhooks`), which is http as the Stripe CLI has it. A refusal names what was typed.
 */
export function checkForwardUrl(typed: string): string {
  // `localhost:3000/…` is a host and a port; `ftp:…` or `http:/…` a scheme, and no http URL.
  const schemeless = !/^[a-z][a-z\d+.-]*:(?!\d)/i.test(typed)
  const url = schemeless ? `http://${typed}` : typed
  let parsed: URL | undefined
  try {
    parsed = new URL(url)
  } catch {
    // refused below
  }
  if (parsed === undefined || !/^https?:\/\/[^/]/i.test(url) || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.hostname === '') {
    throw new TerminalError(`--forward-to takes an http or https URL such as http://localhost:3000/webhooks, or one without a scheme (localhost:3000/webhooks, http then); got ${JSON.stringify(typed)}`)
  }
  return url
}

export function checkSecret(secret: string): string {
  if (!/^whsec_[A-Za-z0-9+/]+={0,2}$/.test(secret)) throw new TerminalError('--secret takes a Standard Webhooks secret: whsec_ followed by base64, such as the one --print-secret prints')
  return secret
}

/** POSTs the event and says how it went: `[200] POST url evt_…`, or the failure in its own words (in colour on a terminal). */
export async function forward(event: SandboxEvent, url: string, secret: string, paint: Paint): Promise<string> {
  const body = JSON.stringify(event)
  const timestamp = Math.floor(Date.now() / 1000)
  const headers = {
    'content-type': 'application/json',
    'user-agent': `wallet-sandbox-listen/${VERSION}`,
    'webhook-id': event.id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signPayload({ secret, id: event.id, timestamp, body }),
  }
  try {
    const res = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS) })
    await res.arrayBuffer()
    return `${paintAnswer(paint, res.status)} POST ${url} ${event.id}`
  } catch (error) {
    const why = (error as Error).name === 'TimeoutError' ? `no answer within ${FORWARD_TIMEOUT_MS / 1000} s` : reason(error)
    return `${paintAnswer(paint, 'ERR')} POST ${url} ${event.id}: ${paint('red', why)}`
  }
}
