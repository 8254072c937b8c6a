import type { Side, SideAnswer, SideRequest } from './http-side.js'
import { IdTranslation } from './id-translation.js'
import { IdNumbering } from './normalise.js'
import type { RecordedExchange } from './recording.js'
import { comparedStep, skippedStep, type StepResult } from './step-result.js'

/**
 * `parity --replay <file>` (CONTRACT.md section 22): the recorded requests, in order, sent to the
 * local side with their ids translated, each answer compared with the recorded one as a pack's
 * steps are. A request naming a hosted id no earlier answer held is `unmapped` and not sent.
 */
export async function runReplay(
  exchanges: readonly RecordedExchange[],
  local: Side,
  onStep?: (index: number, total: number, name: string) => void,
): Promise<{ results: StepResult[]; retries429: number; unmapped: number }> {
  const ids = new IdTranslation()
  const numbering = { local: new IdNumbering(), hosted: new IdNumbering() }
  const results: StepResult[] = []
  let retries429 = 0
  let unmappedSteps = 0
  for (const [index, exchange] of exchanges.entries()) {
    const { request: recorded } = exchange
    const name = `#${exchange.seq ?? index + 1} ${recorded.method} ${recorded.path}`
    onStep?.(index, exchanges.length, name)
    const unmapped = new Set<string>()
    const request: SideRequest = {
      method: recorded.method,
      path: ids.translatePath(recorded.path, unmapped),
      query: ids.translate(recorded.query, unmapped),
      ...(recorded.body !== null && recorded.body !== undefined && { body: ids.translate(recorded.body, unmapped) }),
      ...(recorded.headers['content-type'] !== undefined && { contentType: recorded.headers['content-type'] }),
      ...(recorded.headers['idempotency-key'] !== undefined && { headers: { 'Idempotency-Key': recorded.headers['idempotency-key'] } }),
      auth: recorded.auth,
    }
    if (unmapped.size > 0) {
      unmappedSteps++
      results.push(skippedStep(name, { method: recorded.method, path: recorded.path }, `unmapped: names ${[...unmapped].join(', ')}, which no earlier answer of the recording held`))
      continue
    }
    const answer = await local.send(request)
    retries429 += answer.retries429
    ids.learn(exchange.answer.body, answer.body)
    const hosted: SideAnswer = { status: exchange.answer.status, headers: lowerCased(exchange.answer.headers), body: exchange.answer.body, retries429: 0 }
    results.push(comparedStep(name, request, { local: answer, hosted }, numbering))
  }
  return { results, retries429, unmapped: unmappedSteps }
}

const lowerCased = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]))
