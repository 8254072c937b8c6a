import { compareAnswers, type Difference } from './compare.js'
import type { Auth, SideAnswer, SideRequest } from './http-side.js'
import { operationOf } from './ids.js'
import { normalise, type IdNumbering } from './normalise.js'

/** One step as the report holds it (CONTRACT.md section 22): the request, both answers, what differs, or why it was not sent. */
export interface StepResult {
  name: string
  operation: string
  request: { method: string; path: string; query?: Record<string, string | string[]>; body?: unknown; headers?: Record<string, string>; auth: Auth }
  local: { status: number; headers: Record<string, string>; body: unknown } | null
  hosted: { status: number; headers: Record<string, string>; body: unknown } | null
  differences: Difference[]
  /** Why the step was not sent, or null. */
  skipped: string | null
}

export const skippedStep = (name: string, request: SideRequest | { method: string; path: string }, reason: string): StepResult => ({
  name,
  operation: operationOf(request.method, request.path),
  request: { auth: 'key', ...request },
  local: null,
  hosted: null,
  differences: [],
  skipped: reason,
})

/** Both answers of a step normalised (each side with its own numbering of ids) and compared. */
export function comparedStep(
  name: string,
  request: SideRequest,
  answers: { local: SideAnswer; hosted: SideAnswer },
  numbering: { local: IdNumbering; hosted: IdNumbering },
  options: { lengths?: boolean } = {},
): StepResult {
  const operation = operationOf(request.method, request.path)
  const side = (answer: SideAnswer, ids: IdNumbering) => ({ status: answer.status, headers: answer.headers, body: normalise(answer.body, ids) })
  const differences = compareAnswers(side(answers.local, numbering.local), side(answers.hosted, numbering.hosted), {
    operation,
    requestBody: request.body,
    lengths: options.lengths === true,
  })
  const { contentType: _contentType, ...sent } = request
  const record = ({ status, headers, body }: SideAnswer) => ({ status, headers, body })
  return { name, operation, request: sent, local: record(answers.local), hosted: record(answers.hosted), differences, skipped: null }
}
