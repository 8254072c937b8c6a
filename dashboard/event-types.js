// The event types the sandbox emits, for the Events view's filter: only what GET /_sandbox/events
// accepts is offered. The page has no build step, so this is a copy of EVENT_TYPES
// (src/model/events.ts); test/e2e/dashboard-events.test.ts fails when the two differ.

export const EVENT_TYPES = [
  'payment.created',
  'payment.processing',
  'payment.succeeded',
  'payment.failed',
  'payout.created',
  'payout.completed',
  'payout.failed',
  'payout.partially_failed',
  'order.created',
  'order.partially_filled',
  'order.filled',
  'order.cancelled',
  'order.expired',
  'order.rejected',
  'settlement.created',
  'settlement.processing',
  'settlement.step_completed',
  'settlement.completed',
  'settlement.failed',
  'settlement.refunded',
]

/**
 * The filter's choices, as the route's `type` takes them: `*`, then per resource its `payment.*`
 * and each of its types. `[{ label, options: [{ value, label }] }]`, one group per resource.
 */
export function typeChoices() {
  const resources = [...new Set(EVENT_TYPES.map((type) => type.split('.')[0]))]
  return [
    { label: 'All', options: [{ value: '*', label: 'every type' }] },
    ...resources.map((resource) => ({
      label: resource,
      options: [
        { value: `${resource}.*`, label: `${resource}.* (every ${resource} event)` },
        ...EVENT_TYPES.filter((type) => type.startsWith(`${resource}.`)).map((type) => ({ value: type, label: type })),
      ],
    })),
  ]
}
