import type { EventFilter, EventMatch, SandboxEvent, SandboxEventPage } from './control-types.js'

/** The longest wait one request of the events route takes; a longer wait is several. */
const LONGEST_POLL_MS = 30_000
/** How many of the account's events a timeout's message lists. */
const SHOWN = 10

export class EventWaitTimeoutError extends Error {
  override name = 'EventWaitTimeoutError'
  constructor(message: string, readonly match: EventMatch, readonly seen: SandboxEvent[]) {
    super(message)
  }
}

/**
 * The first event, already logged or still to come, that `match` selects: long polls of the events
 * route until one arrives or `timeoutMs` of real time has passed. A timeout's error says what it
 * waited for and which events the account did have.
 */
export async function waitForEvent(read: (filter: EventFilter) => Promise<SandboxEventPage>, match: EventMatch, timeoutMs: number): Promise<SandboxEvent> {
  const deadline = performance.now() + timeoutMs
  for (;;) {
    const left = Math.max(0, Math.ceil(deadline - performance.now()))
    const page = await read({ ...match, limit: 1, wait: Math.min(left, LONGEST_POLL_MS) })
    if (page.data[0]) return page.data[0]
    if (left === 0 || performance.now() >= deadline) break
  }
  const seen = await lastEvents(read, { api_key: match.api_key, account_id: match.account_id })
  throw new EventWaitTimeoutError(describeTimeout(match, timeoutMs, seen), match, seen)
}

/** The newest events of the account (a few pages at most: enough to say what happened instead). */
async function lastEvents(read: (filter: EventFilter) => Promise<SandboxEventPage>, whose: EventMatch): Promise<SandboxEvent[]> {
  let events: SandboxEvent[] = []
  let after: string | undefined
  for (let pages = 0; pages < 5; pages++) {
    const page = await read({ ...whose, after, limit: 100 })
    events = [...events, ...page.data].slice(-SHOWN)
    if (!page.has_more || page.data.length === 0) break
    after = page.data[page.data.length - 1]!.id
  }
  return events
}

function describeTimeout(match: EventMatch, timeoutMs: number, seen: SandboxEvent[]): string {
  const types = match.type === undefined ? 'any' : [match.type].flat().join(' or ')
  const what = `${types} event${match.object_id ? ` of ${match.object_id}` : ''}`
  const whose = match.api_key ? ` on the account of ${match.api_key}` : match.account_id ? ` on account ${match.account_id}` : ''
  const arrived = seen.length === 0
    ? 'it has had no events at all'
    : `its last events were: ${seen.map((event) => `${event.type} ${(event.data.object as { id?: string }).id ?? ''} (${event.id})`).join(', ')}`
  return `No ${what}${whose} within ${timeoutMs} ms; ${arrived}.`
}
