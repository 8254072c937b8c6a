import type { Verdict } from './baseline.js'
import { redact, scrubKnown } from './secrets.js'
import type { StepResult } from './step-result.js'

/**
 * The report `--json` prints and `--report` writes (CONTRACT.md section 22): `{against, pack,
 * started_at, steps, summary, new, accepted, fixed}`. Secrets are replaced in it before it is
 * written anywhere, and the keys of the run cut out of its text.
 */

export interface Summary {
  operations: number
  steps: number
  same: number
  different: number
  skipped: number
  /** 429s waited out and sent again, on both sides. */
  retries_429: number
  /** Replayed steps not sent because they name a hosted id no earlier answer held (a replay only). */
  unmapped?: number
}

export interface Report extends Verdict {
  against: string
  pack: string
  started_at: string
  steps: StepResult[]
  summary: Summary
}

export function summarise(steps: readonly StepResult[], retries429: number, unmapped?: number): Summary {
  const sent = steps.filter((step) => step.skipped === null)
  return {
    operations: new Set(steps.map((step) => step.operation)).size,
    steps: steps.length,
    same: sent.filter((step) => step.differences.length === 0).length,
    different: sent.filter((step) => step.differences.length > 0).length,
    skipped: steps.length - sent.length,
    retries_429: retries429,
    ...(unmapped !== undefined && { unmapped }),
  }
}

export function buildReport(parts: { against: string; pack: string; startedAt: Date; steps: StepResult[]; retries429: number; unmapped?: number; verdict: Verdict }): Report {
  return redact({
    against: parts.against,
    pack: parts.pack,
    started_at: parts.startedAt.toISOString(),
    steps: parts.steps,
    summary: summarise(parts.steps, parts.retries429, parts.unmapped),
    ...parts.verdict,
  })
}

/** The report as written: indented JSON, the run's keys cut out should one have slipped into a value. */
export const reportText = (report: Report, keys: ReadonlyArray<string | undefined>): string => scrubKnown(`${JSON.stringify(report, null, 2)}\n`, keys)
