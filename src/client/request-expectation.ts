import type { SandboxRequest, SandboxRequestDifference, SandboxRequestExpectation, SandboxRequestExpectationResult } from './control-types.js'

/**
 * `sandbox.expectRequest()` and `expectNoRequest()` (CONTRACT.md section 23): the control API's
 * `POST /_sandbox/requests/expect` as an assertion. Satisfied, it answers the matched requests;
 * otherwise it throws a RequestExpectationError whose message shows the expectation and each near
 * miss as `field: expected …, got …`, as a test runner prints an assertion's failure.
 */

export interface RequestExpectationOptions {
  /** ms of real time to wait for the requests (0–30000, default 0: what has been answered already). */
  withinMs?: number
}

/** An expectation without `count` and `exactly`: `expectNoRequest` asserts that none came. */
export type NoRequestExpectation = Omit<SandboxRequestExpectation, 'count' | 'exactly'>

export class RequestExpectationError extends Error {
  override name = 'RequestExpectationError'
  constructor(message: string, readonly expectation: SandboxRequestExpectation, readonly result: SandboxRequestExpectationResult) {
    super(message)
  }
}

/** Checks `expectation` through `check` (the control client's `expectRequest`); throws a RequestExpectationError when it is not satisfied. */
export async function assertRequests(
  check: (expectation: SandboxRequestExpectation) => Promise<SandboxRequestExpectationResult>,
  expectation: SandboxRequestExpectation,
  options: RequestExpectationOptions = {},
): Promise<SandboxRequest[]> {
  const sent = options.withinMs === undefined ? expectation : { ...expectation, within_ms: options.withinMs }
  const result = await check(sent)
  if (result.satisfied) return result.matched
  const error = new RequestExpectationError(describeFailure(sent, result), sent, result)
  // The stack starts at the test's own call, as an assertion library's does.
  Error.captureStackTrace(error, assertRequests)
  throw error
}

/**
 * `expectRequest` and `expectNoRequest` of a handle: `scoped` names whose requests (the handle's
 * account, or the one the expectation gives).
 */
export function requestAssertions<E extends object>(
  check: (expectation: SandboxRequestExpectation) => Promise<SandboxRequestExpectationResult>,
  scoped: (expectation: E) => SandboxRequestExpectation,
) {
  return {
    expectRequest: (expectation: E, options?: RequestExpectationOptions): Promise<SandboxRequest[]> => assertRequests(check, scoped(expectation), options),
    expectNoRequest: async (expectation: Omit<E, 'count' | 'exactly'>, options?: RequestExpectationOptions): Promise<void> =>
      void (await assertRequests(check, { ...scoped(expectation as E), count: 0, exactly: true }, options)),
  }
}

/** How many near misses and matched requests a message lists. */
const SHOWN = 5

/** The failure as a test runner shows it: what was expected, what matched, and what came closest. */
export function describeFailure(expectation: SandboxRequestExpectation, result: SandboxRequestExpectationResult): string {
  const { api_key: apiKey, account_id: accountId, count = 1, exactly = false, within_ms: withinMs = 0, ...pattern } = expectation
  const whose = apiKey !== undefined ? `the account of ${maskKey(apiKey)}` : `account ${accountId}`
  const how = count === 0 && exactly ? 'no request' : `${exactly ? 'exactly' : 'at least'} ${count} ${count === 1 ? 'request' : 'requests'}`
  const lines = [`Expected ${how} matching ${JSON.stringify(pattern)} from ${whose}${withinMs > 0 ? ` within ${withinMs} ms` : ''}; ${result.matched.length} matched.`]
  if (result.matched.length > 0 && exactly) {
    lines.push('Matched:', ...result.matched.slice(0, SHOWN).map((request) => `  ${describeRequest(request)}`))
  }
  if (result.near_misses.length > 0) {
    lines.push('Closest requests:')
    for (const { request, differences } of result.near_misses) {
      lines.push(`  ${describeRequest(request)}`, ...differences.map((difference) => `    ${describeDifference(difference)}`))
    }
  } else if (result.matched.length === 0) {
    lines.push('The account has no other /v1 requests in the journal.')
  }
  return lines.join('\n')
}

/** `POST /v1/payments 201 (req_…, 2026-01-01T00:00:00.000Z)` */
const describeRequest = (request: SandboxRequest) =>
  `${request.method} ${request.path}${request.query ? `?${request.query}` : ''} ${request.status ?? 'no answer'} (${request.id}${request.replayed ? ', replayed' : ''}, ${request.at})`

/** `body.amount: expected "10.00", got "10"`; a header expected `true` is `present`, `false` `absent`; a missing field is `nothing`. */
export function describeDifference({ field, expected, actual }: SandboxRequestDifference): string {
  const header = field.startsWith('headers.')
  const shown = (value: unknown) => (header && value === true ? 'present' : header && value === false ? 'absent' : JSON.stringify(value))
  return `${field}: expected ${shown(expected)}, got ${actual === undefined ? 'nothing' : shown(actual)}`
}

/** `sk_test_…_key`, as the journal shows a key. */
const maskKey = (key: string) => `${/^(sk|rk)_(test|live)_/.exec(key)?.[0] ?? ''}…${key.length >= 12 ? key.slice(-4) : ''}`
