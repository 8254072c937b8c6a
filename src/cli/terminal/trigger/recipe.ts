import type { Connection } from '../target.js'

/** How `trigger` makes one event type happen: what it creates, and the control calls that drive it there. */

export type Resource = 'payment' | 'payout' | 'order' | 'settlement'

/** An object as the API answers it: enough to drive it and say what it is. */
export interface ApiObject {
  id: string
  object: string
  status: string
  [field: string]: unknown
}

export interface TriggerSteps {
  readonly connection: Connection
  /** Created objects, reported (`created pay_…`) and followed for their events, which are reported next. */
  created(...objects: ApiObject[]): Promise<void>
  /** A call that drives an object, reported as the request it makes (`POST /_sandbox/…`), then the events it caused. */
  call<T>(line: string, make: () => Promise<T>): Promise<T>
}

export interface Recipe {
  resource: Resource
  /** For `trigger --list`: what it creates and how it gets there. */
  describe: string
  /** The fields `--set` may change (`metadata.*`: any key under metadata). */
  fields: readonly string[]
  /** States `--on` accepts; none: the event happens only when the object is created. */
  onStates?: readonly string[]
  create(steps: TriggerSteps, overrides: Record<string, unknown>): Promise<ApiObject>
  /** From the created (or `--on`) object to the event; the object as it is after. */
  drive?(steps: TriggerSteps, object: ApiObject): Promise<void>
}

/**
 * Moves the clock of the trigger's own account (its key's), not the sandbox's: a developer's
 * trigger never moves the time of tests or apps sharing the sandbox (CONTRACT.md section 24).
 */
export async function advanceAccountClock(steps: TriggerSteps, ms: number): Promise<void> {
  const scope = { api_key: steps.connection.target.apiKey }
  await steps.call(`POST /_sandbox/clock/advance {"ms":${ms},"api_key":"…"}`, () => steps.connection.control.advanceClock(ms, scope))
}
