import { createHmac } from 'node:crypto'
import type { SandboxEvent } from '../../client/control-types.js'
import { SECRET_PREFIX, signPayload } from '../../standard-webhooks.js'
import { VERSION } from '../../version.js'
import { reason, TerminalError } from './target.js'

/** `listen --forward-to`: each event POSTed to a URL, signed as the sandbox signs its webhook deliveries. */

/** How long a forward may take before it counts as failed (as a webhook attempt does by default). */
const FORWARD_TIMEOUT_MS = 10_000

/** The secret of `--forward-to URL` without `--secret`: the same for the same sandbox seed and URL. */
export function forwardSecret(seed: string, url: string): string {
  return SECRET_PREFIX + createHmac('sha256', 'wallet-sandbox listen --forward-to').update(`${seed}\n${url}`).digest('base64')
}

export function checkForwardUrl(url: string): string {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new TerminalError(`--forward-to takes an http or https URL such as http://localhost:3000/webhooks; got ${JSON.stringify(url)}`)
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new TerminalError(`--forward-to takes an http or https URL; got ${parsed.protocol}`)
  return url
}

export function checkSecret(secret: string): string {
  if (!/^whsec_[A-Za-z0-9+/]+={0,2}$/.test(secret)) throw new TerminalError('--secret takes a Standard Webhooks secret: whsec_ followed by base64, such as the one --print-secret prints')
  return secret
}

/** POSTs the event and says how it went: `[200] POST url evt_…`, or the failure in its own words. */
export async function forward(event: SandboxEvent, url: string, secret: string): Promise<string> {
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
    return `[${res.status}] POST ${url} ${event.id}`
  } catch (error) {
    const why = (error as Error).name === 'TimeoutError' ? `no answer within ${FORWARD_TIMEOUT_MS / 1000} s` : reason(error)
    return `[ERR] POST ${url} ${event.id}: ${why}`
  }
}
