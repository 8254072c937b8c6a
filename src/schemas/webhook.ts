import * as z from 'zod'
import { echoId } from '../errors.js'
import { EVENT_TYPES } from '../model/events.js'
import { EVENT_PATTERN_DESCRIPTION, EVENT_PATTERNS, EVENT_PATTERNS_HELP, isEventPattern } from '../model/event-patterns.js'
import { CountSchema, DescriptionSchema, PageQuery, TimestampSchema } from './common.js'
import { whenPresent } from './messages.js'
import { webhookUrlSchema } from './webhook-url.js'
import { REQUEST_EXAMPLES } from './request-examples.js'

/** `/v1/webhooks` and the control API's delivery log (CONTRACT.md sections 9 and 13). */

/**
 * A list of event patterns (event-patterns.ts), the ones `GET /_sandbox/events` takes. Checked as a
 * whole so that `param` is `events`; the items' `enum` (the same set) is for the OpenAPI document,
 * where the patterns are a closed set.
 */
const EventsSchema = z
  .array(z.string({ error: 'events must be strings such as "payment.succeeded"' }).meta({ enum: [...EVENT_PATTERNS], description: EVENT_PATTERN_DESCRIPTION }), { error: whenPresent('events must be an array of event types such as ["payment.succeeded"]') })
  .superRefine((events, ctx) => {
    if (events.length === 0) {
      ctx.addIssue({ code: 'custom', message: 'events must list at least one event type; leave it out to receive every event' })
      return
    }
    const unknown = events.find((pattern) => !isEventPattern(pattern))
    if (unknown !== undefined) {
      ctx.addIssue({ code: 'custom', message: `'${echoId(unknown)}' is not an event type; use ${EVENT_PATTERNS_HELP}: any of ${EVENT_TYPES.join(', ')}` })
    }
  })
  .meta({
    description: 'Event types to receive: types, `resource.*` (`payment.*`: every payment event) or `*`. Left out: every type. Stored as the types they select (the answer lists them).',
    example: ['payment.*', 'payout.failed'],
  })

export const CreateWebhookEndpointSchema = z
  .strictObject({
    url: webhookUrlSchema(),
    events: EventsSchema.optional(),
    description: DescriptionSchema.nullable().optional(),
  })
  .meta({ id: 'CreateWebhookEndpointRequest', example: REQUEST_EXAMPLES.createWebhookEndpoint })

export const UpdateWebhookEndpointSchema = z
  .strictObject({
    url: webhookUrlSchema().optional(),
    events: EventsSchema.optional(),
    description: DescriptionSchema.nullable().optional(),
    status: z.enum(['enabled', 'disabled'], { error: "status must be 'enabled' or 'disabled'" }).optional(),
  })
  .meta({ id: 'UpdateWebhookEndpointRequest', example: REQUEST_EXAMPLES.updateWebhookEndpoint })

export const ListWebhookEndpointsQuery = PageQuery.strict()

export const WebhookEndpointSchema = z
  .object({
    id: z.string().meta({ example: 'whk_3kTq9vXbN2mR8sLp4YhW6cJd' }),
    object: z.literal('webhook_endpoint'),
    url: z.string(),
    events: z.array(z.enum(EVENT_TYPES)),
    description: z.string().nullable(),
    status: z.enum(['enabled', 'disabled']).meta({ description: 'A 410 answer from the receiver sets `disabled`; PUT `enabled` turns it back on.' }),
    created_at: TimestampSchema,
  })
  .meta({ id: 'WebhookEndpoint' })

export const CreatedWebhookEndpointSchema = WebhookEndpointSchema.extend({
  secret: z.string().meta({ description: 'Signing secret, `whsec_` + base64 of 32 bytes. Shown in this answer only.' }),
}).meta({ id: 'CreatedWebhookEndpoint' })

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const

export const ListDeliveriesQuery = PageQuery.extend({
  event_id: z.string().optional(),
  endpoint_id: z.string().optional(),
  account_id: z.string().optional(),
  status: z.enum(DELIVERY_STATUSES, { error: `status must be one of ${DELIVERY_STATUSES.join(', ')}` }).optional(),
}).strict()

const HttpStatusSchema = z.number().int().min(100).max(599)

export const DeliveryAttemptSchema = z
  .object({
    at: TimestampSchema,
    response_status: HttpStatusSchema.nullable(),
    duration_ms: CountSchema,
    error: z.string().nullable(),
    response_excerpt: z.string().nullable().meta({ description: 'The start of the answer body (at most 500 characters).' }),
  })
  .meta({ id: 'WebhookDeliveryAttempt' })

export const DeliverySchema = z
  .object({
    id: z.string().meta({ example: 'dlv_3kTq9vXbN2mR8sLp4YhW6cJd' }),
    event_id: z.string(),
    event_type: z.enum(EVENT_TYPES),
    endpoint_id: z.string(),
    url: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.array(DeliveryAttemptSchema),
    next_attempt_at: TimestampSchema.nullable(),
  })
  .meta({ id: 'WebhookDelivery' })

/** What the delivery list carries beside its page: the log is bounded (`--delivery-log-limit`), and says what it dropped. */
export const DeliveryListExtraSchema = z.object({
  dropped: CountSchema.meta({
    description:
      'Deliveries this filter selects that the log no longer holds: per account it keeps the newest `--delivery-log-limit` (default 1000) and drops older finished ones (never one still scheduled). `event_id` does not narrow this count.',
    example: 0,
  }),
})
