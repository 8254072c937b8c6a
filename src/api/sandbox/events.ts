import { ApiError, echoId } from '../../errors.js'
import { UnknownCursorError, type EventLog, type EventSelection } from '../../events/event-log.js'
import { defineRoute } from '../../http/route.js'
import { scopedAccountId } from './account-scope.js'
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
        const selection: EventSelection = { accountId: scopedAccountId(ctx, query), types: query.type ?? [], objectId: query.object_id }
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
