import * as z from 'zod'
import { CountSchema, TimestampSchema } from './common.js'
import { firstInconsistency } from './data-file-consistency.js'
import { DataSchema, type Data } from './data-file.js'
import { REQUEST_EXAMPLES } from './request-examples.js'
import { DeliverySchema } from './webhook.js'
import { EVENT_TYPES } from '../model/events.js'

/**
 * `GET /_sandbox/snapshot` and `POST /_sandbox/restore` (CONTRACT.md sections 10, 13 and 24): the
 * data file's format (src/store/data.ts) plus the time it was taken at, so a `--data-file` file can
 * be restored too. One account's snapshot (`?api_key=`) is the same format holding that account
 * alone, with its events and deliveries, and says whose it is (`account_id`).
 */

/** An event as the event log keeps it (exactly what a delivery carries); checked loosely, as it is only kept and read back. */
const SnapshotEventSchema = z.looseObject({ id: z.string().min(1), object: z.literal('event'), type: z.enum(EVENT_TYPES), created_at: TimestampSchema, account_id: z.string().min(1) })

const SnapshotDeliverySchema = DeliverySchema.extend({
  body: z.string().meta({ description: 'The bytes every attempt sends.' }),
  retries_done: CountSchema.meta({ description: 'Automatic retries sent or scheduled so far.' }),
}).meta({ id: 'SnapshotDelivery' })

export const SnapshotSchema = DataSchema.extend({
  taken_at: TimestampSchema.optional().describe(
    'When the snapshot was taken: the sandbox time, or for one account its time. A restore sets that clock to it (without it, the clock stays where it is).',
  ),
  account_id: z.string().min(1).optional().describe('Present in one account’s snapshot: a restore replaces that account alone, and every other account stays as it is.'),
  events: z.array(SnapshotEventSchema).optional().describe('One account’s snapshot: its kept events, oldest first (GET /_sandbox/events reads them).'),
  deliveries: z.array(SnapshotDeliverySchema).optional().describe('One account’s snapshot: its webhook deliveries, oldest first; those still pending go on after a restore.'),
})
  .superRefine((data, ctx) => {
    const inconsistency = firstInconsistency(data)
    if (inconsistency) ctx.addIssue({ code: 'custom', path: inconsistency.path, message: `The snapshot is inconsistent: ${inconsistency.problem}` })
    if (data.account_id !== undefined) {
      const foreign = foreignPart(data, data.account_id)
      if (foreign) ctx.addIssue({ code: 'custom', path: foreign.path, message: `An account’s snapshot holds account ${data.account_id} alone: ${foreign.problem}` })
    } else if (data.events !== undefined || data.deliveries !== undefined) {
      ctx.addIssue({ code: 'custom', path: [data.events !== undefined ? 'events' : 'deliveries'], message: 'Only an account’s snapshot (with account_id) holds events and deliveries.' })
    }
  })
  .meta({ id: 'SandboxSnapshot', example: REQUEST_EXAMPLES.restore })

export type Snapshot = z.output<typeof SnapshotSchema>

export const RestoreResultSchema = z.object({
  restored: z.literal(true),
  accounts: CountSchema.meta({ description: 'Accounts in the sandbox after the restore.' }),
  keys: CountSchema.meta({ description: 'Keys in the sandbox after the restore.' }),
  account_id: z.string().nullable().meta({ description: 'The account an account’s snapshot replaced; null for a whole snapshot.' }),
})

/** The first part of an account's snapshot that belongs to another account, if any. */
function foreignPart(data: Data & z.output<typeof SnapshotSchema>, accountId: string): { path: Array<string | number>; problem: string } | undefined {
  const [account, ...others] = data.accounts
  if (account === undefined || others.length > 0) return { path: ['accounts'], problem: `expected one account, got ${data.accounts.length}` }
  if (account.account.id !== accountId) return { path: ['accounts', 0, 'account', 'id'], problem: `this account is ${account.account.id}` }
  const keyAt = data.keys.findIndex((key) => key.account_id !== accountId)
  if (keyAt !== -1) return { path: ['keys', keyAt, 'account_id'], problem: `this key is account ${data.keys[keyAt]!.account_id}'s` }
  const { outcome_rules = [], faults = [], price_pins = [], screening_flagged = [] } = data.control
  const checks: Array<[string, readonly unknown[], (item: never) => string | undefined]> = [
    ['outcome_rules', outcome_rules, (rule: (typeof outcome_rules)[number]) => rule.match.account_id],
    ['faults', faults, (rule: (typeof faults)[number]) => rule.match.account_id],
    ['price_pins', price_pins, (pin: (typeof price_pins)[number]) => pin.account_id],
  ]
  for (const [list, items, scopeOf] of checks) {
    const at = items.findIndex((item) => (scopeOf(item as never) ?? accountId) !== accountId)
    if (at !== -1) return { path: ['control', list, at], problem: `this entry is another account's` }
  }
  const screeningAt = screening_flagged.findIndex((entry) => entry.includes('/') && !entry.startsWith(`${accountId}/`))
  if (screeningAt !== -1) return { path: ['control', 'screening_flagged', screeningAt], problem: 'this entry is another account’s' }
  const eventAt = (data.events ?? []).findIndex((event) => event.account_id !== accountId)
  if (eventAt !== -1) return { path: ['events', eventAt, 'account_id'], problem: `this event is account ${data.events![eventAt]!.account_id}'s` }
  return undefined
}
