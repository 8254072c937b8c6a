import type { Side, SideAnswer } from './http-side.js'
import { IdNumbering } from './normalise.js'
import { needsSourceWallet } from './packs/index.js'
import { resolveStep, templatePath, type SideValues } from './references.js'
import type { PackContext, StepSpec } from './step.js'
import { comparedStep, skippedStep, type StepResult } from './step-result.js'

/**
 * Runs a pack's steps in order, each on the local side and then on the hosted side, each side with
 * the values of its own earlier answers (CONTRACT.md section 22). A step that needs the funded wallet
 * without `--source-wallet`, or a value an earlier answer lacks, is skipped with the reason.
 */

export interface PackRun {
  local: Side
  hosted: Side
  context: PackContext
  /** The funded wallet on each side: `--source-wallet` on the hosted one, a seeded wallet of its currency and network on the local one. */
  sourceIds: { local?: string; hosted?: string }
  /** Told before each step: for the progress line. */
  onStep?: (index: number, total: number, step: StepSpec) => void
}

export const NEEDS_SOURCE_WALLET = 'needs --source-wallet (a funded wallet of the hosted account): it moves money'

export async function runPack(steps: readonly StepSpec[], run: PackRun): Promise<{ results: StepResult[]; retries429: number }> {
  const values = (id: string | undefined): SideValues => ({
    saved: new Map(),
    skipped: new Set(),
    run: { source: { id, ...run.context.source }, run: run.context.run },
  })
  const sides = { local: values(run.sourceIds.local), hosted: values(run.sourceIds.hosted) }
  const numbering = { local: new IdNumbering(), hosted: new IdNumbering() }
  const results: StepResult[] = []
  const needsSource = needsSourceWallet(steps)
  let retries429 = 0
  for (const [index, step] of steps.entries()) {
    run.onStep?.(index, steps.length, step)
    const skip = (reason: string) => {
      if (step.save) for (const side of Object.values(sides)) side.skipped.add(step.save)
      results.push(skippedStep(step.name, { method: step.method, path: templatePath(step.path) }, reason))
    }
    if (!run.context.funded && needsSource[index]) {
      skip(NEEDS_SOURCE_WALLET)
      continue
    }
    const local = resolveStep(step, sides.local, 'local')
    const hosted = resolveStep(step, sides.hosted, 'hosted')
    if ('unresolved' in local || 'unresolved' in hosted) {
      skip('unresolved' in local ? local.unresolved : (hosted as { unresolved: string }).unresolved)
      continue
    }
    const answers: { local: SideAnswer; hosted: SideAnswer } = {
      local: await run.local.send(local.request),
      hosted: await run.hosted.send(hosted.request),
    }
    retries429 += answers.local.retries429 + answers.hosted.retries429
    if (step.save) {
      sides.local.saved.set(step.save, answers.local.body)
      sides.hosted.saved.set(step.save, answers.hosted.body)
    }
    results.push(comparedStep(step.name, local.request, answers, numbering, { lengths: step.lengths }))
  }
  return { results, retries429 }
}
