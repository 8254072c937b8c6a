import type { SideRequest } from './http-side.js'
import type { StepSpec } from './step.js'

/**
 * A step's request for one side: its `{{…}}` references replaced by that side's values. A reference
 * that cannot be resolved (the step it names was skipped, or that side's answer lacks the field)
 * leaves the step unsent, with the reason.
 */

export interface SideValues {
  /** Answer bodies of earlier steps, by the name they were saved as. */
  saved: Map<string, unknown>
  /** Steps saved as these names were skipped. */
  skipped: Set<string>
  /** The run's own values: `source` (id, currency, network) and `run`. */
  run: Record<string, unknown>
}

export type Resolved = { request: SideRequest } | { unresolved: string }

const WHOLE = /^\{\{([^{}]+)\}\}$/
const INSIDE = /\{\{([^{}]+)\}\}/g

class Unresolved extends Error {}

export function resolveStep(step: StepSpec, values: SideValues, side: string): Resolved {
  const lookup = (reference: string): unknown => {
    const [root = '', ...path] = reference.trim().split('.')
    if (values.skipped.has(root)) throw new Unresolved(`needs the answer of the step saved as ${root}, which was skipped`)
    let value: unknown = root in values.run ? values.run[root] : values.saved.get(root)
    if (value === undefined) throw new Unresolved(`needs the answer saved as ${root}, which the ${side} side does not have`)
    for (const part of path) {
      value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined
      if (value === undefined || value === null) throw new Unresolved(`needs ${reference}, which the ${side} answer lacks`)
    }
    return value
  }
  const fill = (value: unknown): unknown => {
    if (typeof value === 'string') {
      const whole = WHOLE.exec(value)
      if (whole) return lookup(whole[1]!)
      return value.replace(INSIDE, (_, reference: string) => String(lookup(reference)))
    }
    if (Array.isArray(value)) return value.map(fill)
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, fill(item)]))
    return value
  }
  try {
    return {
      request: {
        method: step.method,
        path: fill(step.path) as string,
        ...(step.query && { query: fill(step.query) as Record<string, string> }),
        ...(step.body !== undefined && { body: fill(step.body) }),
        ...(step.headers && { headers: fill(step.headers) as Record<string, string> }),
        auth: step.auth ?? 'key',
      },
    }
  } catch (error) {
    if (error instanceof Unresolved) return { unresolved: error.message }
    throw error
  }
}

/** A step's path before it runs: each reference reads `{id}` (`/v1/wallets/{id}/balance`). */
export const templatePath = (path: string): string => path.replace(INSIDE, '{id}')

/** The names a step's references start with: `wallet` of `{{wallet.data.id}}`. */
export function referenceRoots(step: StepSpec): string[] {
  const text = JSON.stringify([step.path, step.query ?? null, step.body ?? null, step.headers ?? null])
  return [...text.matchAll(INSIDE)].map((match) => match[1]!.trim().split('.')[0]!)
}
