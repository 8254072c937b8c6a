import type { Paint } from '../colour.js'
import type { Difference } from './compare.js'
import { queryString } from './http-side.js'
import type { Report } from './report.js'
import type { StepResult } from './step-result.js'

/**
 * What a person reads (CONTRACT.md section 22): one table row per operation (steps same, different,
 * skipped), then each difference once with both values side by side and the request that showed it,
 * then why steps were skipped, the `new:` and `fixed:` lines, and the totals.
 */

const VALUE_WIDTH = 38

export function humanReport(report: Report, paint: Paint, title: string): string[] {
  const lines = [paint('bold', title), '', ...operationTable(report.steps, paint)]
  const shown = differencesOnce(report.steps)
  if (shown.length > 0) {
    lines.push('', paint('bold', `${shown.length} ${shown.length === 1 ? 'difference' : 'differences'}:`))
    const accepted = new Set(report.accepted)
    for (const { difference, step, more } of shown) lines.push('', ...describeDifference(difference, step, more, accepted.has(difference.key), paint))
  }
  const skipped = skippedByReason(report.steps)
  if (skipped.size > 0) {
    lines.push('', paint('bold', `skipped ${report.summary.skipped} ${report.summary.skipped === 1 ? 'step' : 'steps'}:`))
    for (const [reason, names] of skipped) lines.push(`  ${paint('yellow', reason)} (${names.length}): ${names.length > 6 ? `${names.slice(0, 5).join(', ')} and ${names.length - 5} more` : names.join(', ')}`)
  }
  if (report.new.length + report.fixed.length > 0) lines.push('')
  for (const key of report.new) lines.push(paint('red', `new: ${key}`))
  for (const key of report.fixed) lines.push(paint('green', `fixed: ${key}`))
  const { summary } = report
  lines.push(
    '',
    `${summary.steps} steps: ${summary.same} same, ${summary.different} different, ${summary.skipped} skipped` +
      `${summary.unmapped !== undefined ? ` (${summary.unmapped} unmapped)` : ''}; ${summary.retries_429} ${summary.retries_429 === 1 ? 'retry' : 'retries'} after a 429; ` +
      `${report.new.length} new, ${report.accepted.length} accepted, ${report.fixed.length} fixed`,
  )
  return lines
}

function operationTable(steps: readonly StepResult[], paint: Paint): string[] {
  const rows = new Map<string, { steps: number; same: number; different: number; skipped: number }>()
  for (const step of steps) {
    const row = rows.get(step.operation) ?? { steps: 0, same: 0, different: 0, skipped: 0 }
    row.steps++
    if (step.skipped !== null) row.skipped++
    else if (step.differences.length > 0) row.different++
    else row.same++
    rows.set(step.operation, row)
  }
  const width = Math.max('operation'.length, ...[...rows.keys()].map((operation) => operation.length))
  const cells = (name: string, values: Array<number | string>) => `${name.padEnd(width)}  ${values.map((value, i) => String(value).padStart(['steps', 'same', 'different', 'skipped'][i]!.length)).join('  ')}`
  const out = [paint('dim', cells('operation', ['steps', 'same', 'different', 'skipped']))]
  for (const [operation, row] of rows) {
    const text = cells(operation, [row.steps, row.same, row.different, row.skipped])
    out.push(row.different > 0 ? paint('red', text) : row.skipped === row.steps ? paint('yellow', text) : text)
  }
  return out
}

/** Each key once, at the first step that showed it, with how many other steps showed it too. */
function differencesOnce(steps: readonly StepResult[]): Array<{ difference: Difference; step: StepResult; more: number }> {
  const byKey = new Map<string, { difference: Difference; step: StepResult; more: number }>()
  for (const step of steps) {
    for (const difference of step.differences) {
      const known = byKey.get(difference.key)
      if (known) known.more++
      else byKey.set(difference.key, { difference, step, more: 0 })
    }
  }
  return [...byKey.values()]
}

function describeDifference(difference: Difference, step: StepResult, more: number, accepted: boolean, paint: Paint): string[] {
  const mark = accepted ? paint('yellow', 'accepted') : paint('red', 'new')
  const request = `${step.request.method} ${step.request.path}${queryString(step.request.query)}`
  const local = valueText(difference.local, difference.class === 'missing' || (difference.class === 'header' && difference.local === null))
  const hosted = valueText(difference.hosted, difference.class === 'extra' || (difference.class === 'header' && difference.hosted === null))
  return [
    `  ${mark} ${paint('bold', difference.key)}`,
    `      at       ${difference.path}`,
    `      request  ${request}  ${paint('dim', `(${step.name}${more > 0 ? `; and ${more} more ${more === 1 ? 'step' : 'steps'}` : ''})`)}`,
    `      local    ${local.padEnd(VALUE_WIDTH)}  hosted   ${hosted}`,
  ]
}

function valueText(value: unknown, absent: boolean): string {
  if (absent) return '(absent)'
  const text = JSON.stringify(value) ?? 'null'
  return text.length > VALUE_WIDTH ? `${text.slice(0, VALUE_WIDTH - 1)}…` : text
}

function skippedByReason(steps: readonly StepResult[]): Map<string, string[]> {
  const reasons = new Map<string, string[]>()
  for (const step of steps) if (step.skipped !== null) reasons.set(step.skipped, [...(reasons.get(step.skipped) ?? []), step.name])
  return reasons
}
