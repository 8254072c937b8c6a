import * as z from 'zod'
import { EVENT_TYPES } from '../model/events.js'
import { EVENT_PATTERN_DESCRIPTION, EVENT_PATTERNS_HELP, isEventPattern, typesOf } from '../model/event-patterns.js'
import { CountSchema, integerParam } from './common.js'
import { EVENT_SCHEMAS } from './event.js'
import { AccountScopeFields } from './account-scope.js'

/** `GET /_sandbox/events` (CONTRACT.md section 20): the query and the answer. */

/**
 * A comma list of event patterns (event-patterns.ts), read as the exact types the event log
 * matches; `*` selects every event (as no filter does: an empty list).
 */
const EventTypeFilterSchema = z
  .string()
  .transform((value, ctx) => {
    const entries = value.split(',').map((entry) => entry.trim())
    const wrong = entries.filter((entry) => !isEventPattern(entry))
    if (wrong.length > 0) {
      ctx.addIssue({ code: 'custom', message: `type takes ${EVENT_PATTERNS_HELP}, separated by commas; got ${wrong.map((entry) => JSON.stringify(entry)).join(', ')}`, input: value })
      return z.NEVER
    }
    return entries.includes('*') ? [] : typesOf(entries)
  })
  .meta({ description: `Event patterns, comma separated. ${EVENT_PATTERN_DESCRIPTION}`, example: 'payment.failed,order.*' })

export const ListEventsQuery = z.strictObject({
  ...AccountScopeFields,
  api_key: AccountScopeFields.api_key.meta({ description: 'The account behind this key (or give account_id). Without either, every account’s events.' }),
  type: EventTypeFilterSchema.optional(),
  object_id: z.string().min(1).optional().meta({ description: 'Only events whose data.object has this id (pay_…, ord_…).' }),
  after: z.string().min(1).optional().meta({ description: 'An event id: only events after it (the last id of the previous answer).' }),
  limit: integerParam('limit', 1, 100).optional().default(100).meta({ description: 'At most this many events, 1 to 100 (default 100).' }),
  wait: integerParam('wait', 0, 30_000).optional().default(0).meta({
    description: 'ms (0–30000): when nothing matches yet, wait (real time, also under a manual clock) until an event matches or the time is up (then data is []).',
  }),
})

const [first, ...rest] = EVENT_TYPES.map((type) => EVENT_SCHEMAS[type])
export const LoggedEventSchema = z.discriminatedUnion('type', [first!, ...rest]).meta({ id: 'Event', description: 'An event exactly as a webhook delivery of it carries it.' })

export const EventListExtraSchema = z.object({
  dropped: CountSchema.meta({
    description: 'Events of the account (of every account, without one) the log has let go: it keeps the newest `--event-log-limit` (default 10,000) per account.',
    example: 0,
  }),
  resets: CountSchema.meta({
    description: 'Resets of the account (of every account, without one) since the sandbox started. A reset empties the log and starts the account\'s ids again, so an `after` id kept from before may name another event now: when this changes, read again from the first.',
    example: 0,
  }),
})
