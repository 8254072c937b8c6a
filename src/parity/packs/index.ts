import { operationOf } from '../ids.js'
import { referenceRoots, templatePath } from '../references.js'
import type { Pack, PackContext, StepSpec } from '../step.js'
import { core } from './core.js'
import { payouts } from './payouts.js'
import { settlements } from './settlements.js'
import { trading } from './trading.js'
import { webhooks } from './webhooks.js'

/** The packs `parity --pack` runs, in the order `all` runs them. */
export const PACKS: readonly Pack[] = [core, payouts, trading, settlements, webhooks]

export const PACK_NAMES: readonly string[] = [...PACKS.map((pack) => pack.name), 'all']

/** The steps of a pack for this run; `all` runs every pack in turn, each step's name prefixed with its pack's. */
export function stepsOf(name: string, context: PackContext): StepSpec[] | undefined {
  if (name === 'all') return PACKS.flatMap((pack) => pack.steps(context).map((step) => ({ ...step, name: `${pack.name}: ${step.name}` })))
  return PACKS.find((pack) => pack.name === name)?.steps(context)
}

/** A step's operation before it runs: each `{{…}}` segment of its path is an `{id}`. */
export const specOperation = (step: StepSpec): string => operationOf(step.method, templatePath(step.path))

export interface PackListing {
  pack: string
  description: string
  steps: Array<{ name: string; operation: string; needs_source_wallet: boolean }>
}

/** What `parity --list` prints: every pack with its steps (for USDC on polygon, the default source). */
export function listPacks(context: PackContext): PackListing[] {
  return PACKS.map((pack) => {
    const steps = pack.steps(context)
    const needs = needsSourceWallet(steps)
    return { pack: pack.name, description: pack.description, steps: steps.map((step, i) => ({ name: step.name, operation: specOperation(step), needs_source_wallet: needs[i]! })) }
  })
}

/** Which steps need `--source-wallet`: those that use the funded wallet, and those that read the answer of one that does. */
export function needsSourceWallet(steps: readonly StepSpec[]): boolean[] {
  const funded = new Set(['source'])
  return steps.map((step) => {
    const needs = step.needsFunds === true || referenceRoots(step).some((root) => funded.has(root))
    if (needs && step.save) funded.add(step.save)
    return needs
  })
}
