import * as z from 'zod'
import { EVENT_TYPES, type EventType } from '../model/events.js'
import { TimestampSchema } from './common.js'
import { PaymentSchema } from './payment.js'
import { OrderSchema } from './order.js'
import { PayoutSchema } from './payout.js'
import { SettlementSchema } from './settlement.js'

/**
 * The events webhooks deliver (CONTRACT.md section 9), one schema per type, for the `webhooks`
 * section of the OpenAPI document. `data.object` is the resource as it was at that moment.
 */

/** Per type, the resource `data.object` carries and when the event happens. Typed by EventType: a new type needs its entry. */
const EVENTS: Record<EventType, { resource: z.ZodType; when: string }> = {
  'payment.created': { resource: PaymentSchema, when: 'A payment was created (status `pending`).' },
  'payment.processing': { resource: PaymentSchema, when: 'A payment passed screening and went to the network (status `processing`).' },
  'payment.succeeded': { resource: PaymentSchema, when: 'A payment completed (status `completed`, with its `tx_hash`).' },
  'payment.failed': { resource: PaymentSchema, when: 'A payment failed (status `failed`, with `failure_code` and `failure_message`).' },
  'payout.created': { resource: PayoutSchema, when: 'A bulk payout was created, with one payment per item (status `pending`).' },
  'payout.completed': { resource: PayoutSchema, when: 'Every item of a bulk payout completed.' },
  'payout.failed': { resource: PayoutSchema, when: 'Every item of a bulk payout failed.' },
  'payout.partially_failed': { resource: PayoutSchema, when: 'A bulk payout ended with some items completed and some failed.' },
  'order.created': { resource: OrderSchema, when: 'An order was placed: the order as created (status `open`, nothing filled), before any fill at creation.' },
  'order.partially_filled': { resource: OrderSchema, when: 'A fill left part of an order open (one event per such fill).' },
  'order.filled': { resource: OrderSchema, when: 'The last fill completed an order (status `filled`).' },
  'order.cancelled': { resource: OrderSchema, when: 'An order was cancelled (by the API, or `ioc` with a remainder); what it held was released.' },
  'order.expired': { resource: OrderSchema, when: 'A `gtd` order reached its `expires_at`; what it held was released.' },
  'order.rejected': { resource: OrderSchema, when: 'An order was rejected (metadata `sandbox_outcome: "rejected"` or a control call), with its `reject_reason`.' },
  'settlement.created': { resource: SettlementSchema, when: 'A settlement was created and its total debit locked (status `pending`, every step `pending`).' },
  'settlement.processing': { resource: SettlementSchema, when: 'A settlement started its first step (status `processing`).' },
  'settlement.step_completed': { resource: SettlementSchema, when: 'One step of a settlement completed (one event per step; the next step, if any, is now `processing`).' },
  'settlement.completed': { resource: SettlementSchema, when: 'The last step completed: the destination received `destination_amount`.' },
  'settlement.failed': { resource: SettlementSchema, when: 'A step failed before any value left the source wallet: the lock was released (status `failed`). A step that fails after value left sends no event of its own: the settlement stays `processing`, with the failed step, `failure_code` and a pending `refund`, until `settlement.refunded`.' },
  'settlement.refunded': { resource: SettlementSchema, when: 'A settlement that failed after value left was refunded: `total_debit` is back in the source wallet (status `refunded`, `refund.tx_hash` set).' },
}

/** `payment.succeeded` → `PaymentSucceededEvent`. */
const schemaName = (type: string) => `${type.split(/[._]/).map((word) => word[0]!.toUpperCase() + word.slice(1)).join('')}Event`

const eventSchema = (type: EventType) =>
  z
    .object({
      id: z.string().meta({ description: 'The event id; also the `webhook-id` header of every delivery attempt.', example: 'evt_3kTq9vXbN2mR8sLp4YhW6cJd' }),
      object: z.literal('event'),
      type: z.literal(type),
      created_at: TimestampSchema,
      api_version: z.literal('v1'),
      account_id: z.string().meta({ example: 'acct_sandboxDefaultAccount000' }),
      data: z.object({ object: EVENTS[type].resource }),
    })
    .meta({ id: schemaName(type), description: EVENTS[type].when })

export const EVENT_SCHEMAS = Object.fromEntries(EVENT_TYPES.map((type) => [type, eventSchema(type)])) as Record<EventType, ReturnType<typeof eventSchema>>
