import { ApiError, echoId } from '../../errors.js'
import { evaluate, patternTest, type ExpectationResult } from '../../control/request-expectation.js'
import { UnknownRequestError, type RequestJournal, type Whose } from '../../control/request-journal.js'
import { filterTest } from '../../control/request-match.js'
import type { RequestContext } from '../../http/context.js'
import { defineRoute } from '../../http/route.js'
import { ListRequestsQuery, RequestExpectationResultSchema, RequestExpectationSchema, RequestJournalEntrySchema, type RequestExpectation } from '../../schemas/requests.js'
import { scopedAccountId } from './account-scope.js'

const tag = 'Sandbox control'
const auth = 'control' as const

/** The journal, or 409 when `--request-log-limit 0` keeps nothing (an empty journal would say "no request came" and be wrong). */
function journalOf(ctx: RequestContext): RequestJournal {
  const { journal } = ctx.deps.control
  if (!journal.enabled) throw new ApiError('request_log_disabled', 'The sandbox keeps no requests (--request-log-limit 0), so it can neither list nor check them; start it with a limit above 0 (default 1000 per account).')
  return journal
}

/** `GET /_sandbox/requests` and `POST /_sandbox/requests/expect` (CONTRACT.md sections 10 and 23): what clients sent. */
export const requestControlRoutes = [
  defineRoute({
    method: 'get', path: '/_sandbox/requests', operationId: 'sandboxListRequests', tag, auth,
    summary: 'The /v1 requests the journal keeps, newest first (filters api_key or account_id, method, path, status, idempotency_key, after); with wait, the next one as soon as it is answered',
    request: { query: ListRequestsQuery },
    status: 200, response: RequestJournalEntrySchema, list: true, errors: ['resource_missing', 'request_log_disabled'],
    handler: async ({ query }, ctx) => {
      const journal = journalOf(ctx)
      const whose: Whose = query.account_id === 'none' && query.api_key === undefined ? null : scopedAccountId(ctx, query)
      const test = filterTest(query)
      const read = () => {
        try {
          return journal.list(whose, test, query)
        } catch (error) {
          if (!(error instanceof UnknownRequestError)) throw error
          throw new ApiError('parameter_invalid', `after: the journal holds no request '${echoId(query.after!)}'${typeof whose === 'string' ? ` of account ${whose}` : ''}; give the id of a request this route answered (it keeps the newest --request-log-limit requests per account, and a reset empties it).`, { param: 'after' })
        }
      }
      let page = read()
      if (page.total === 0 && query.wait > 0) {
        await journal.waitFor(whose, test, query.wait, ctx.closed())
        page = read()
      }
      return page
    },
  }),
  defineRoute({
    method: 'post', path: '/_sandbox/requests/expect', operationId: 'sandboxExpectRequest', tag, auth,
    summary: 'Checks that an account sent matching requests (at least count, or exactly count), waiting up to within_ms; when not, the closest requests and what differs',
    request: { body: RequestExpectationSchema },
    status: 200, response: RequestExpectationResultSchema, errors: ['resource_missing', 'request_log_disabled'],
    handler: ({ body }, ctx) => expect(journalOf(ctx), scopedAccountId(ctx, body)!, body, ctx.closed()),
  }),
]

/**
 * Checks now, then on each new matching request until satisfied or `within_ms` (real time) is up.
 * With `exactly` the whole window is waited before a yes (one more request could still come), but a
 * no comes as soon as more than `count` match.
 */
async function expect(journal: RequestJournal, accountId: string, expectation: RequestExpectation, abandoned: Promise<void>): Promise<ExpectationResult> {
  const check = () => evaluate(expectation, journal.list(accountId, () => true, { offset: 0, limit: Number.MAX_SAFE_INTEGER }).items)
  const test = patternTest(expectation)
  const deadline = performance.now() + expectation.within_ms
  let gone = false
  void abandoned.then(() => (gone = true))
  let result = check()
  for (;;) {
    const done = expectation.exactly ? result.matched.length > expectation.count : result.satisfied
    const left = deadline - performance.now()
    if (done || left <= 0 || gone) return result
    await journal.waitFor(accountId, test, Math.ceil(left), abandoned)
    result = check()
  }
}
