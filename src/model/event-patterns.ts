import { EVENT_TYPES, type EventType } from './events.js'

/**
 * What an event pattern is, the one description every place that takes one shares (a webhook
 * endpoint's `events`, `GET /_sandbox/events`' `type`, and so `listen --events`): an event type
 * (`payment.failed`), every type of a resource (`payment.*`), or every type (`*`).
 */

/** `payment`, `payout`, …: what `payment.*` may name. */
export const EVENT_RESOURCES: readonly string[] = [...new Set(EVENT_TYPES.map((type) => type.split('.')[0]!))]

/** Every pattern there is: few enough to list in the OpenAPI document. */
export const EVENT_PATTERNS: readonly string[] = ['*', ...EVENT_RESOURCES.map((resource) => `${resource}.*`), ...EVENT_TYPES]

export const isEventPattern = (text: string): boolean => EVENT_PATTERNS.includes(text)

/** What a refusal says the patterns are. */
export const EVENT_PATTERNS_HELP = `event types (${EVENT_TYPES[0]}, …), resource.* (${EVENT_RESOURCES.map((resource) => `${resource}.*`).join(', ')}) or * for all`

/** For the OpenAPI document. */
export const EVENT_PATTERN_DESCRIPTION = 'An event type, `resource.*` for every type of a resource (`payment.*` selects every payment event), or `*` for all.'

/** The event types that patterns select, each once, in the patterns' order (a resource's in the catalogue's); `*`: all of them. */
export function typesOf(patterns: readonly string[]): EventType[] {
  if (patterns.includes('*')) return [...EVENT_TYPES]
  return [...new Set(patterns.flatMap((pattern) => EVENT_TYPES.filter((type) => type === pattern || (pattern.endsWith('.*') && type.startsWith(pattern.slice(0, -1))))))]
}
