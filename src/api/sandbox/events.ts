import { ApiError, echoId, notFound } from '../../errors.js'
import { UnknownCursorError, type EventLog, type EventSelection } from '../../events/event-log.js'
import type { RequestContext } from '../../http/context.js'
import { defineRoute } from '../../http/route.js'
import { EventListExtraSchema, ListEventsQuery, LoggedEventSchema } from '../../schemas/event-log.js'

/**
 * `GET /_sandbox/events` (CONTRACT.md section 20): an account's events exactly as webhooks carry
 * them, oldest first, also for accounts without endpoints, and a long poll (`wait`) for the next.
 */
export function eventControlRoutes(log: EventLog) {
  return [
    defineRoute({
      method: 'get', path: '/_sandbox/events', operationId: 'sandboxListEvents', tag: 'Sandbox control', auth: 'control',
      summary: 'An account’s events as webhooks carry them, oldest first; with wait, the next one as soon as it happens',
      request: { query: ListEventsQuery },
      status: 200, response: LoggedEventSchema, list: 'cursor', listExtra: EventListExtraSchema, errors: ['resource_missing'],
      handler: async ({ query }, ctx) => {
        const selection: EventSelection = { accountId: accountOf(ctx, query), types: query.type ?? [], objectId: query.object_id }
        const read = () => {
          try {
            return log.read(selection, query.after, query.limit)
          } catch (error) {
            if (!(error instanceof UnknownCursorError)) throw error
            throw new ApiError('parameter_invalid', `after: the event log holds no event '${echoId(query.after!)}'${selection.accountId ? ` of account ${selection.accountId}` : ''}; give the id of an event this route answered (the log keeps the newest --event-log-limit events per account, and a reset empties it).`, { param: 'after' })
          }
        }
        let page = read()
        if (page.events.length === 0 && query.wait > 0) {
          await log.waitFor(selection, query.wait, ctx.closed())
          page = read()
        }
        return { items: page.events, hasMore: page.hasMore, extra: { dropped: page.dropped, resets: page.resets } }
      },
    }),
  ]
}

/** The account `api_key` or `account_id` names (404 when none has it), or undefined for every account. */
function accountOf(ctx: RequestContext, query: { api_key?: string; account_id?: string }): string | undefined {
  const { store } = ctx.deps
  let accountId = query.account_id
  if (accountId !== undefined && !store.accounts.has(accountId)) throw notFound('account', accountId, 'account_id')
  if (query.api_key !== undefined) {
    const key = store.keys.get(query.api_key)
    if (!key) throw new ApiError('resource_missing', `No account uses the key '${echoId(query.api_key)}': a key gets its account with its first /v1 request, or from POST /_sandbox/keys.`, { param: 'api_key' })
    if (accountId !== undefined && key.account_id !== accountId) {
      throw new ApiError('parameter_invalid', `api_key belongs to account ${key.account_id}, not to account_id ${accountId}; give one of them.`, { param: 'account_id' })
    }
    accountId = key.account_id
  }
  return accountId
}
