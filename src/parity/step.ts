import type { Auth } from './http-side.js'

/**
 * A step of a pack: one request, written as data. Strings may name values of earlier answers of the
 * same side, `{{wallet.data.id}}` (the answer a step saved as `wallet`), or of the run, `{{source.id}}`
 * (the funded wallet on each side); a string that is one reference alone takes the value as it is.
 */
export interface StepSpec {
  /** What the step does, in words: `read the polygon wallet`. */
  name: string
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH'
  /** From `/v1`, without the query. */
  path: string
  query?: Record<string, string>
  body?: unknown
  headers?: Record<string, string>
  /** Default `key`. */
  auth?: Auth
  /** Later steps of the same side reach this answer's body as `{{<save>.…}}`. */
  save?: string
  /** Uses the funded source wallet (`{{source.id}}`): skipped without `--source-wallet`. */
  needsFunds?: boolean
  /** The lists of this answer hold only what the pack made, so their lengths must agree too. */
  lengths?: boolean
}

/** A pack: a name, what it covers, and its steps for the run's source currency and network. */
export interface Pack {
  name: string
  description: string
  steps: (context: PackContext) => StepSpec[]
}

/** What the steps of a run are built for: the same on both sides. */
export interface PackContext {
  /** The currency and network of the funded wallet (`--source-wallet`, else USDC on polygon, for steps that need no money). */
  source: { currency: string; network: string }
  /** Whether `--source-wallet` was given: steps that need money are skipped without it. */
  funded: boolean
  /** Short and new for every run: names the run's objects so that lists on a long-lived hosted account find only them. */
  run: string
}
